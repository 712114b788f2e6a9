import { KustomizeError } from '../../errors.js';
import { parseYamlDocument } from '../../yaml/parse.js';
import { documentPositions, positionAt } from '../../yaml/positions.js';
import { isMap, isSeq, type Value } from '../../yaml/value.js';
import type { RemoteInput } from './remote-source.js';

/** The lock file's name, beside the kustomization file it locks. */
export const LOCK_FILE_NAME = 'kustomization.lock.yaml';

const LOCK_API_VERSION = 'kustomize-ts.dev/v1alpha1';
const LOCK_KIND = 'KustomizationLock';

/**
 * One remote input a build reached, pinned: a git base at the commit its ref named, an HTTP
 * file by the sha256 of its bytes, an `oci://` tree or catalog by manifest digest, a catalog's
 * exec program by the sha256 its catalog gives, a pulled helm chart by its archive's digest, a
 * container function's image given by tag by the digest its registry gave. `url` is the
 * reference as written (a chart's repository).
 */
export type LockedInput =
  | { type: 'git'; url: string; ref: string; commit: string }
  | { type: 'http'; url: string; sha256: string }
  | { type: 'oci'; url: string; digest: string }
  | { type: 'exec'; url: string; sha256: string }
  | { type: 'helm'; url: string; chart: string; version: string; digest: string }
  | { type: 'image'; url: string; digest: string };

export type LockedType = LockedInput['type'];

/** What names an input in a lock: its type and reference as written (for a chart, its repository, and the chart and version as written). */
export interface LockedName {
  type: LockedType;
  url: string;
  chart?: string;
  version?: string;
}

/** The fields each type has besides `type` and `url`, in the order they are written. */
const FIELDS: Readonly<Record<LockedType, readonly string[]>> = {
  git: ['ref', 'commit'],
  http: ['sha256'],
  oci: ['digest'],
  exec: ['sha256'],
  helm: ['chart', 'version', 'digest'],
  image: ['digest'],
};

/** How a lock names an input: its type and its reference as written (a chart's name and version too). */
export function lockKey(input: LockedName): string {
  return input.type === 'helm' ? `helm ${input.url} ${input.chart ?? ''} ${input.version ?? ''}` : `${input.type} ${input.url}`;
}

/** The inputs sorted as the file lists them: by URL, then type (then chart and version). */
function sortInputs(inputs: readonly LockedInput[]): LockedInput[] {
  const order = (i: LockedInput) => [i.url, i.type, lockKey(i)];
  return [...inputs].sort((a, b) => compareLists(order(a), order(b)));
}

function compareLists(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

/** What a build's remote inputs are, as lock entries (each once). */
export function lockedInputs(remote: readonly RemoteInput[]): LockedInput[] {
  const out = new Map<string, LockedInput>();
  for (const r of remote) {
    const input = asLocked(r);
    out.set(lockKey(input), input);
  }
  return sortInputs([...out.values()]);
}

function asLocked(r: RemoteInput): LockedInput {
  const missing = (what: string) => new KustomizeError('INTERNAL', `remote input '${r.url}' (${r.type}) was fetched without its ${what}`);
  switch (r.type) {
    case 'git':
      if (!r.commit) throw missing('commit');
      return { type: 'git', url: r.url, ref: r.ref ?? '', commit: r.commit };
    case 'oci':
    case 'image':
      if (!r.digest) throw missing('digest');
      return { type: r.type, url: r.url, digest: r.digest };
    case 'helm':
      if (!r.digest) throw missing('digest');
      return { type: 'helm', url: r.url, chart: r.chart ?? '', version: r.version ?? '', digest: r.digest };
    case 'http':
    case 'exec':
      if (!r.sha256) throw missing('sha256');
      return { type: r.type, url: r.url, sha256: r.sha256 };
  }
}

/** The text of a lock file listing `inputs` (sorted here). */
export function lockFileText(inputs: readonly LockedInput[]): string {
  const lines = [`apiVersion: ${LOCK_API_VERSION}`, `kind: ${LOCK_KIND}`];
  const sorted = sortInputs(inputs);
  if (sorted.length === 0) lines.push('inputs: []');
  else lines.push('inputs:');
  for (const input of sorted) {
    const record = input as unknown as Record<string, string>;
    lines.push(`- type: ${input.type}`, `  url: ${JSON.stringify(input.url)}`);
    for (const field of FIELDS[input.type]) lines.push(`  ${field}: ${JSON.stringify(record[field])}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The inputs a lock file lists, by {@link lockKey}; bad content is LOCK_INVALID naming the file and line. */
export function readLockFile(text: string, file: string): Map<string, LockedInput> {
  let doc: Value | undefined;
  try {
    doc = parseYamlDocument(text, file);
  } catch (e) {
    const line = e instanceof KustomizeError ? e.line : undefined;
    throw new KustomizeError('LOCK_INVALID', `${file}${line !== undefined ? `:${line}` : ''}: not a lock file: ${(e as Error).message}`, { file, ...(line !== undefined && { line }), cause: e });
  }
  const tree = documentPositions(text)[0];
  const fail = (path: (string | number)[], message: string, field = path.join('.')) => {
    const line = tree ? positionAt(tree, path).at.line : undefined;
    return new KustomizeError('LOCK_INVALID', `${file}${line !== undefined ? `:${line}` : ''}: ${message}`, { file, ...(field && { field }), ...(line !== undefined && { line }) });
  };
  if (!isMap(doc)) throw fail([], 'a lock file is a map with apiVersion, kind and inputs');
  if (doc['apiVersion'] !== LOCK_API_VERSION) throw fail(['apiVersion'], `unknown apiVersion ${JSON.stringify(doc['apiVersion'] ?? null)}; this kustomize-ts reads ${LOCK_API_VERSION}`);
  if (doc['kind'] !== LOCK_KIND) throw fail(['kind'], `kind must be ${LOCK_KIND}, not ${JSON.stringify(doc['kind'] ?? null)}`);
  const list = doc['inputs'] ?? [];
  if (!isSeq(list)) throw fail(['inputs'], 'inputs must be a list');
  const out = new Map<string, LockedInput>();
  list.forEach((item, i) => {
    const input = readInput(item, (field, message) => fail(field === undefined ? ['inputs', i] : ['inputs', i, field], message));
    const key = lockKey(input);
    if (out.has(key)) throw fail(['inputs', i], `${input.type} input '${input.url}' is listed twice`);
    out.set(key, input);
  });
  return out;
}

function readInput(item: Value, fail: (field: string | undefined, message: string) => KustomizeError): LockedInput {
  if (!isMap(item)) throw fail(undefined, 'an input is a map with type and url');
  const type = item['type'];
  if (typeof type !== 'string' || !Object.hasOwn(FIELDS, type)) throw fail('type', `type must be one of ${Object.keys(FIELDS).join(', ')}, not ${JSON.stringify(type ?? null)}`);
  const text = (field: string, pattern?: RegExp) => {
    const v = item[field];
    if (typeof v !== 'string' || (pattern && !pattern.test(v))) throw fail(field, `${field} must be ${pattern ? `a string matching ${pattern.source}` : 'a string'}, not ${JSON.stringify(v ?? null)}`);
    return v;
  };
  const url = text('url');
  switch (type as LockedType) {
    case 'git':
      return { type: 'git', url, ref: text('ref'), commit: text('commit', /^[0-9a-f]{40}$/) };
    case 'oci':
    case 'image':
      return { type: type as 'oci' | 'image', url, digest: text('digest', /^sha256:[0-9a-f]{64}$/) };
    case 'helm':
      return { type: 'helm', url, chart: text('chart'), version: text('version'), digest: text('digest', /^sha256:[0-9a-f]{64}$/) };
    case 'http':
    case 'exec':
      return { type: type as 'http' | 'exec', url, sha256: text('sha256', /^[0-9a-f]{64}$/) };
  }
}

/** Where a lock and a fresh resolution differ. */
export interface LockDifference extends LockedName {
  /** `changed`: resolved to another value; `missing`: reached but not in the lock; `unreached`: in the lock but not reached */
  kind: 'changed' | 'missing' | 'unreached';
  locked?: string;
  found?: string;
}

/** The value an input is pinned to, as shown. */
export function pinOf(input: LockedInput): string {
  switch (input.type) {
    case 'git':
      return input.commit;
    case 'oci':
    case 'helm':
    case 'image':
      return input.digest;
    case 'http':
    case 'exec':
      return `sha256:${input.sha256}`;
  }
}

/** What names an input (see {@link lockKey}). */
function nameOf(input: LockedInput): LockedName {
  return { type: input.type, url: input.url, ...(input.type === 'helm' && { chart: input.chart, version: input.version }) };
}

/** How `found` (a fresh resolution) differs from `locked`, in the lock's order. */
export function lockDifferences(locked: ReadonlyMap<string, LockedInput>, found: readonly LockedInput[]): LockDifference[] {
  const out: LockDifference[] = [];
  const seen = new Set<string>();
  for (const f of found) {
    const key = lockKey(f);
    seen.add(key);
    const l = locked.get(key);
    if (!l) out.push({ ...nameOf(f), kind: 'missing', found: pinOf(f) });
    else if (pinOf(l) !== pinOf(f)) out.push({ ...nameOf(f), kind: 'changed', locked: pinOf(l), found: pinOf(f) });
  }
  for (const l of locked.values()) if (!seen.has(lockKey(l))) out.push({ ...nameOf(l), kind: 'unreached', locked: pinOf(l) });
  return out.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}
