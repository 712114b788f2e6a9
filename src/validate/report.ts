/**
 * What `validate` reports: each problem at the source line that wrote the value, with the
 * output resource and the JSON pointer of the value in it.
 */

/** One problem with the output. */
export interface ValidationIssue {
  /** the output resource it is in; empty strings for a lint about no resource (a patch that selects none) */
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  /** the value in the output resource (RFC 6901); empty for the resource as a whole */
  pointer: string;
  message: string;
  /** the file that wrote the value (relative to the directory validated; a URL for a fetched file), and where */
  file: string;
  /** 1-based; 0 when nothing says where in the file */
  line: number;
  column: number;
  /** who wrote it: the kustomization field that made the step (`patches[1]`), or `resource` for a value read from a resource file */
  step: string;
}

/** A warning: a lint (what kustomize passes over in silence) or a list a patch replaced. */
export interface ValidationWarning extends ValidationIssue {
  /** `PATCH_TARGET_UNMATCHED`, `REPLACEMENT_TARGET_UNMATCHED`, `SELECTOR_LABEL_CHANGED`, `LIST_REPLACED` */
  code: string;
}

/** The validation of one build. */
export interface ValidationReport {
  /** the resources of the output */
  resources: number;
  /** those with no error */
  valid: number;
  /** those not checked: no schema for their type, with `ignoreMissingSchemas` */
  skipped: number;
  errors: ValidationIssue[];
  warnings: ValidationWarning[];
}

/** An output resource that was checked, and how it fared. */
export interface CheckedResource {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  status: 'valid' | 'invalid' | 'skipped';
}

/** The validation of one root of several (`validate --all`), or of the one directory validated: its files named as the reader should see them. */
export interface RootReport extends ValidationReport {
  /** the root, as named on the command line or relative to the top (`validate --all`) */
  path: string;
  checked: readonly CheckedResource[];
  /** the root's build failed: its error, placed (then there is nothing else) */
  failed?: ValidationIssue;
}

/** The printed forms of reports (see report-formats.ts). */
export type ReportFormat = 'text' | 'json' | 'sarif' | 'junit';

export const REPORT_FORMATS: readonly ReportFormat[] = ['text', 'json', 'sarif', 'junit'];
