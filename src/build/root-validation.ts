import { throwIfAborted } from '../abort.js';
import { KustomizeError } from '../errors.js';
import { isRelativePath, join } from '../fs/path.js';
import type { RootReport, ValidationIssue } from '../validate/report.js';
import { fromTop, placedFromTop } from './root-results.js';
import type { SchemaSet } from '../schema/schema-set.js';
import type { ValidateOptions } from './validate.js';

/**
 * The validation of the root at `path` under the top `dir` against `schemas` (those the options
 * give), its files named relative to the top; a root that fails to build, or whose `crds:` files
 * are no schemas, is reported, not thrown.
 */
export async function validateRoot(dir: string, path: string, options: ValidateOptions, schemas: SchemaSet): Promise<RootReport> {
  const named = (file: string) => (file === '' || !isRelativePath(file) || /^https?:\/\//.test(file) ? file : fromTop(path, file));
  try {
    // (the validation modules are a part of the CLI bundle of their own, loaded by the first root)
    const { validateWith } = await import('./validate.js');
    const { build: _build, ...report } = await validateWith(path === '.' ? dir : join(dir, path), options, schemas);
    return {
      path,
      ...report,
      errors: report.errors.map((e) => ({ ...e, file: named(e.file) })),
      warnings: report.warnings.map((w) => ({ ...w, file: named(w.file) })),
    };
  } catch (e) {
    throwIfAborted(options.signal);
    // an option that is wrong is wrong for every root: the run fails
    if (e instanceof KustomizeError && (e.code === 'USAGE' || e.code === 'VERSION_UNSUPPORTED')) throw e;
    return { path, resources: 0, valid: 0, skipped: 0, errors: [], warnings: [], checked: [], failed: buildFailure(path, e) };
  }
}

/** A root's build error as an issue: its message, at its file and position (relative to the top the root `path` is under). */
export function buildFailure(path: string, e: unknown): ValidationIssue {
  const error = e instanceof KustomizeError ? placedFromTop(path, { message: e.message, ...e.context }) : { message: String(e) };
  const file = error.file === undefined ? '' : error.remote ? `${error.remote}//${error.file}` : error.file;
  return { apiVersion: '', kind: '', namespace: '', name: '', pointer: '', message: error.message, file, line: error.line ?? 0, column: error.column ?? 0, step: 'build' };
}
