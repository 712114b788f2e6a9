import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { ValidateOnlyOptions } from '../options.js';
import { KustomizeError } from '../errors.js';
import { DEFAULT_KUBERNETES_VERSION, KUBERNETES_VERSIONS } from '../schema/kubernetes-versions.js';
import type { RootReport, ValidationIssue } from '../validate/report.js';
import type { FlagSpec, FlagValue } from './flags.js';

/** What makes a validation fail: errors, or warnings too. */
type FailOn = 'error' | 'warning';

/** The flags that say how output is validated (`validate`, `build --validate`). */
export const VALIDATION_FLAGS: readonly FlagSpec[] = [
  {
    name: 'kubernetes-version',
    type: 'string',
    default: DEFAULT_KUBERNETES_VERSION,
    help: `the Kubernetes release whose schemas built-in types are checked against: ${KUBERNETES_VERSIONS.join(', ')}`,
  },
  { name: 'strict', type: 'bool', help: 'refuse fields a schema does not declare' },
  { name: 'ignore-missing-schemas', type: 'bool', help: 'skip resources whose type has no schema (by default, an error)' },
  { name: 'fail-on', type: 'string', default: 'error', help: "what fails the validation: 'error', or 'warning' (the lints too)" },
];

/** The validation options and failure threshold the flags give. */
export function validationFromFlags(flags: Map<string, FlagValue>): { options: ValidateOnlyOptions; failOn: FailOn } {
  const failOn = (flags.get('fail-on') as string | undefined) ?? 'error';
  if (failOn !== 'error' && failOn !== 'warning') throw new KustomizeError('USAGE', `--fail-on '${failOn}': expected error or warning`);
  const version = flags.get('kubernetes-version') as string | undefined;
  return {
    options: {
      ...(version !== undefined && { kubernetesVersion: version }),
      strict: flags.get('strict') === true,
      ignoreMissingSchemas: flags.get('ignore-missing-schemas') === true,
    },
    failOn,
  };
}

/** Whether reports pass: no errors, no failed build, and no warnings when they fail too. */
export function passes(reports: readonly RootReport[], failOn: FailOn): boolean {
  return reports.every((r) => !r.failed && r.errors.length === 0 && (failOn === 'error' || r.warnings.length === 0));
}

/**
 * A report whose files are relative to `dir` with its files named from the working directory
 * (where the user is, so a terminal or an editor opens them); a URL stays as it is, and so do
 * the files of a directory that is not on the disk (a git URL built).
 */
export function namedFromHere(report: RootReport, dir: string): RootReport {
  const base = resolve(dir);
  if (!existsSync(base)) return report;
  const name = (i: ValidationIssue): ValidationIssue => (i.file === '' || /^[a-z]+:\/\//.test(i.file) || isAbsolute(i.file) ? i : { ...i, file: relative(process.cwd(), resolve(base, i.file)) || '.' });
  return {
    ...report,
    errors: report.errors.map(name),
    warnings: report.warnings.map((w) => ({ ...w, ...name(w) })),
    ...(report.failed && { failed: name(report.failed) }),
  };
}
