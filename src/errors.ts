/**
 * Every error kustomize-ts raises is a KustomizeError with a stable `code`, so callers can
 * branch on the kind of failure without parsing messages. Messages follow kustomize's wording
 * where the conformance corpus checks it, and name the file (and field) at fault.
 */
export type ErrorCode =
  | 'YAML_INVALID'
  | 'KUSTOMIZATION_INVALID'
  | 'KUSTOMIZATION_NOT_FOUND'
  | 'COMPOSITION_INVALID'
  | 'FILE_NOT_FOUND'
  | 'FILE_INVALID'
  | 'LOAD_RESTRICTED'
  | 'CYCLE'
  | 'RESOURCE_CONFLICT'
  | 'RESOURCE_NOT_FOUND'
  | 'RESOURCE_INVALID'
  | 'GENERATOR_FAILED'
  | 'TRANSFORMER_FAILED'
  | 'PATCH_FAILED'
  | 'REPLACEMENT_FAILED'
  | 'VAR_FAILED'
  | 'PLUGIN_DISABLED'
  | 'PLUGIN_NOT_FOUND'
  | 'PLUGIN_FAILED'
  | 'VALIDATION_FAILED'
  | 'REMOTE_FAILED'
  | 'REMOTE_INVALID'
  | 'REMOTE_UNSUPPORTED'
  | 'FILESYSTEM_REQUIRED'
  | 'NODE_REQUIRED'
  | 'OUTPUT_FAILED'
  | 'EDIT_INVALID'
  | 'EDIT_CONFLICT'
  /** `edit fix --vars`: a var used where a replacement cannot reach it */
  | 'VARS_UNCONVERTIBLE'
  /** a schema file (`--schema`, a CRD) that is not a CRD, an OpenAPI document or a JSON Schema, or a CRD whose schema is not structural */
  | 'SCHEMA_INVALID'
  /** a Catalog function's config that its version's `openAPIV3Schema` refuses: the function did not run */
  | 'FUNCTION_CONFIG_INVALID'
  | 'CATALOG_INVALID'
  | 'CATALOG_UNTRUSTED'
  | 'DIGEST_MISMATCH'
  /** a remote input resolved to something else than its lock file pins (see docs/remote.md) */
  | 'LOCK_MISMATCH'
  /** `--locked`: a remote input the lock file does not list, or no lock file */
  | 'LOCK_MISSING'
  /** a lock file that is not YAML, of an unknown version, or lists an input twice */
  | 'LOCK_INVALID'
  /** the `git` executable, reading a local repository, is missing, failed, timed out or wrote too much */
  | 'GIT_FAILED'
  | 'USAGE'
  /** a kustomize version kustomize-ts has no profile for (`--kustomize-version`, a link's name…): a usage error, exit 2 on every command */
  | 'VERSION_UNSUPPORTED'
  /** the caller's `AbortSignal` stopped the build; `cause` is the signal's reason */
  | 'ABORTED'
  /** an error kustomize-ts did not raise itself (a bug, or a FileSystem or RemoteSource of the caller's that failed): `cause` is that error */
  | 'INTERNAL';

export interface ErrorContext {
  /**
   * The file at fault. Where the error is raised: an absolute path (or, for a remote
   * reference, its URL). What a build throws: relative to the directory built, or to the root
   * of the fetched tree that `remote` names (see {@link placedIn}).
   */
  file?: string;
  /** the field at fault, dotted, e.g. `configMapGenerator[0].literals` */
  field?: string;
  /** where in the file, when the YAML parser knows: 1-based */
  line?: number;
  column?: number;
  /** the URL of the remote tree (git, OCI) `file` is in */
  remote?: string;
  cause?: unknown;
}

export class KustomizeError extends Error {
  readonly code: ErrorCode;
  readonly file: string | undefined;
  readonly field: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly remote: string | undefined;

  constructor(code: ErrorCode, message: string, context: ErrorContext = {}) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.name = 'KustomizeError';
    this.code = code;
    this.file = context.file;
    this.field = context.field;
    this.line = context.line;
    this.column = context.column;
    this.remote = context.remote;
  }

  /** The error's context, to raise another error about the same place. */
  get context(): ErrorContext {
    return {
      ...(this.file !== undefined && { file: this.file }),
      ...(this.field !== undefined && { field: this.field }),
      ...(this.line !== undefined && { line: this.line }),
      ...(this.column !== undefined && { column: this.column }),
      ...(this.remote !== undefined && { remote: this.remote }),
    };
  }

  /** The same error with `file` (and `remote`) given by `place`; its message, code, field and position kept. */
  placedIn(place: { file?: string; remote?: string }): KustomizeError {
    const moved = new KustomizeError(this.code, this.message, { ...this.context, ...place, ...(this.cause !== undefined && { cause: this.cause }) });
    moved.stack = this.stack;
    return moved;
  }
}

/** What a warning is about. */
export type WarningCode =
  /** a kustomization field kustomize deprecated (`bases`, `commonLabels`, `vars`, …) */
  | 'FIELD_DEPRECATED'
  /** vars that were declared and never replaced */
  | 'VARS_UNUSED'
  /** `sortOptions` and `--reorder` both set: the kustomization wins */
  | 'SORT_OPTIONS_OVERRIDE'
  /** what a plugin or function said: its results, its prints, an environment variable it did not get */
  | 'PLUGIN_MESSAGE'
  /** a remote cache entry that was corrupted, fetched again */
  | 'REMOTE_CACHE_CORRUPT';

/**
 * A warning of a build: its message is what kustomize (and the CLI) prints to stderr; `file`
 * is named as an error's is (see {@link ErrorContext.file}).
 */
export interface Warning {
  readonly code: WarningCode;
  readonly message: string;
  readonly file?: string;
  readonly remote?: string;
}

/**
 * What a build notices that kustomize passes over in silence: a patch or replacement whose target
 * selects nothing, a label step that rewrites a workload's selector, a strategic-merge patch that
 * replaced a custom resource's list its CRD says merges by keys. kustomize says nothing of these,
 * so neither does `build`; `validate` reports them as warnings.
 */
export type NoticeCode = 'PATCH_TARGET_UNMATCHED' | 'REPLACEMENT_TARGET_UNMATCHED' | 'SELECTOR_LABEL_CHANGED' | 'LIST_REPLACED';

/** A notice of a build (see {@link NoticeCode}): where the kustomization wrote what it is about. */
export interface Notice {
  readonly code: NoticeCode;
  readonly message: string;
  /** named as an error's is (see {@link ErrorContext.file}) */
  readonly file?: string;
  readonly remote?: string;
  /** 1-based, in `file` */
  readonly line?: number;
  readonly column?: number;
  /** the kustomization field that made the step (`patches[1]`) */
  readonly step?: string;
  /** the resource it is about, when there is one */
  readonly resource?: { readonly apiVersion: string; readonly kind: string; readonly namespace: string; readonly name: string };
}

/** What a build says besides its output: kustomize's warnings, and its own notices. */
export type BuildNote = Warning | Notice;

const NOTICE_CODES: ReadonlySet<string> = new Set<NoticeCode>(['PATCH_TARGET_UNMATCHED', 'REPLACEMENT_TARGET_UNMATCHED', 'SELECTOR_LABEL_CHANGED', 'LIST_REPLACED']);

/** Whether a note is a notice (kustomize would print nothing), not a warning. */
export function isNotice(note: BuildNote): note is Notice {
  return NOTICE_CODES.has(note.code);
}

/** The message of any thrown value. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Puts kustomize's context prefix in front of an error's message (`accumulating resources: ...`),
 * keeping its code, file and position. An error kustomize-ts did not raise becomes an
 * INTERNAL one.
 */
export function wrapError(e: unknown, prefix: string): KustomizeError {
  if (e instanceof KustomizeError) return new KustomizeError(e.code, `${prefix}: ${e.message}`, { ...e.context, cause: e });
  return new KustomizeError('INTERNAL', `${prefix}: ${messageOf(e)}`, { cause: e });
}

/** Runs `run`, putting `prefix` in front of any error it throws or rejects with (see {@link wrapError}). */
export function withErrorPrefix<T>(prefix: string, run: () => T): T {
  let out: T;
  try {
    out = run();
  } catch (e) {
    throw wrapError(e, prefix);
  }
  if (out instanceof Promise) {
    return out.catch((e: unknown) => {
      throw wrapError(e, prefix);
    }) as T;
  }
  return out;
}
