/**
 * Puts each problem of the output where it was written: a wrong value at the line that wrote it
 * (a patch's line, a base's, a generator's literal), an unknown field at the line that wrote the
 * key, a repeated list item at the item, a missing field or a missing schema at the resource's
 * `kind:` line. Who wrote what is `explain`'s record of the build.
 */
import type { Notice } from '../errors.js';
import { pathText, type ResourceProvenance, type WrittenBy } from '../pipeline/provenance.js';
import type { ValuePath } from '../schema/check.js';
import { jsonPointer, type ResourceCheck, type ResourceProblem } from './check-resources.js';
import type { ValidationIssue, ValidationWarning } from './report.js';

/** Who wrote what in one output resource: the value at a path, or the first value below it. */
interface ResourceWriters {
  writerOf(path: ValuePath): WrittenBy | undefined;
}

/** An output resource's identity, as issues name it. */
export interface ResourceId {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

/** The writers of a resource from `explain`'s records of it. */
export function recordedWriters(record: ResourceProvenance): ResourceWriters {
  const byPath = new Map(record.fields.map((f) => [f.path, f.by]));
  return {
    writerOf(path) {
      const text = pathText(path);
      const exact = byPath.get(text);
      if (exact) return known(exact);
      // a map or list: its first value, in the order the output prints them
      const below = record.fields.find((f) => text === '' || f.path.startsWith(`${text}.`) || f.path.startsWith(`${text}[`));
      return below && known(below.by);
    },
  };
}

/** A record that says where (a value the build made with no source, such as an empty map, says nothing). */
function known(by: WrittenBy): WrittenBy | undefined {
  return by.file === '' ? undefined : by;
}

/** Where a problem of a resource was written: see the module's comment; a path that says nothing is looked for above. */
function writerOfProblem(problem: ResourceProblem, writers: ResourceWriters): WrittenBy | undefined {
  if (problem.kind === 'required' || problem.kind === 'no-schema') return writers.writerOf(['kind']);
  for (let path = problem.path; ; path = path.slice(0, -1)) {
    const by = writers.writerOf(path);
    if (by || path.length === 0) return by ?? writers.writerOf(['kind']);
  }
}

/**
 * The issues of the checked resources of an output, each at its writer; `fallback` is where a
 * resource that cannot be attributed is said to be (its own file, no line).
 */
export function issuesOf(checks: readonly ResourceCheck[], ids: readonly ResourceId[], writers: (i: number) => ResourceWriters | undefined, fallback: (i: number) => string): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  checks.forEach((check, i) => {
    if (check.problems.length === 0) return;
    const w = writers(i);
    for (const problem of check.problems) {
      const by = w && writerOfProblem(problem, w);
      out.push({
        ...ids[i]!,
        pointer: jsonPointer(problem.path),
        message: problem.message,
        ...(by ? { file: by.file, line: by.line, column: by.column, step: by.step } : { file: fallback(i), line: 0, column: 0, step: 'resource' }),
      });
    }
  });
  return out;
}

/** A build's notice as a warning of the validation. */
export function warningOf(notice: Notice): ValidationWarning {
  const r = notice.resource;
  return {
    apiVersion: r?.apiVersion ?? '',
    kind: r?.kind ?? '',
    namespace: r?.namespace ?? '',
    name: r?.name ?? '',
    pointer: '',
    message: notice.message,
    file: notice.remote ? `${notice.remote}//${notice.file ?? ''}` : (notice.file ?? ''),
    line: notice.line ?? 0,
    column: notice.column ?? 0,
    step: notice.step ?? '',
    code: notice.code,
  };
}
