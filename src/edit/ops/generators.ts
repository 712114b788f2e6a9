import { isMap, isSeq, type YAMLMap } from 'yaml';
import { KustomizeError, wrapError } from '../../errors.js';
import { loadKvPairs } from '../../filters/kv-pairs.js';
import type { GeneratorArgs } from '../../kinds/kustomization.js';
import { Loader } from '../../load/loader.js';
import type { EditContext } from '../context.js';
import { glob } from '../../fs/glob.js';
import { mapItems, setSorted, stringField } from './seq.js';

export type GeneratorKind = 'configmap' | 'secret';

/** `edit add configmap|secret NAME`: a new generator entry, or more sources for the entry with that name and namespace. */
export interface AddGenerator {
  op: 'addGenerator';
  kind: GeneratorKind;
  name: string;
  namespace?: string;
  /** `key=value` */
  literals?: string[];
  /** `[key=]path`; the path may be a glob pattern matching one file (with a key) or several */
  files?: string[];
  /** an env file (`KEY=value` lines) */
  envFile?: string;
  behavior?: 'create' | 'merge' | 'replace';
  disableNameSuffixHash?: boolean;
  /** secrets only; new entries get `Opaque` when unset, as kustomize's flag default */
  type?: string;
}

/** `edit set configmap|secret NAME`: new values for existing literal keys, or a new namespace. */
export interface SetGenerator {
  op: 'setGenerator';
  kind: GeneratorKind;
  name: string;
  namespace?: string;
  literals?: string[];
  newNamespace?: string;
}

/** `edit remove configmap|secret NAME,...`: an error when none is found, a notice for each missing one. */
export interface RemoveGenerators {
  op: 'removeGenerators';
  kind: GeneratorKind;
  names: string[];
  namespace?: string;
}

const FIELD = { configmap: 'configMapGenerator', secret: 'secretGenerator' } as const;
const KIND = { configmap: 'ConfigMap', secret: 'Secret' } as const;

/** kustomize treats no namespace and `default` as the same */
function sameNamespace(a: string | undefined, b: string | undefined): boolean {
  return (a || 'default') === (b || 'default');
}

function find(ctx: EditContext, kind: GeneratorKind, name: string, namespace: string | undefined): YAMLMap | undefined {
  return mapItems(ctx.doc.seqNode(FIELD[kind])).find((m) => stringField(m, 'name') === name && sameNamespace(stringField(m, 'namespace'), namespace));
}

export function addGenerator(ctx: EditContext, op: AddGenerator): void {
  const files = expandFileSources(ctx, op.files ?? []);
  const literals = op.literals ?? [];
  if (!op.envFile && files.length === 0 && literals.length === 0) {
    throw new KustomizeError('EDIT_INVALID', 'failed to validate flags: at least from-env-file, or from-file or from-literal must be set');
  }
  if (op.envFile && (files.length > 0 || literals.length > 0)) {
    throw new KustomizeError('EDIT_INVALID', 'failed to validate flags: from-env-file cannot be combined with from-file or from-literal');
  }
  if (op.behavior && !['create', 'merge', 'replace'].includes(op.behavior)) {
    throw new KustomizeError('EDIT_INVALID', 'failed to validate flags: invalid behavior: must be one of "create", "merge", or "replace"');
  }
  let entry = find(ctx, op.kind, op.name, op.namespace);
  if (!entry) {
    entry = ctx.doc.node({ name: op.name, namespace: op.namespace || undefined, type: op.kind === 'secret' ? (op.type ?? 'Opaque') : undefined }) as YAMLMap;
    ctx.doc.list(FIELD[op.kind]).add(entry);
  }
  appendTo(ctx, entry, 'literals', literals);
  appendTo(ctx, entry, 'files', files);
  appendTo(ctx, entry, 'envs', op.envFile ? [op.envFile] : []);
  if (op.disableNameSuffixHash) {
    const options = entry.get('options', true) as YAMLMap | undefined;
    if (options) setSorted(options, 'disableNameSuffixHash', true);
    else setSorted(entry, 'options', ctx.doc.node({ disableNameSuffixHash: true }));
  }
  if (op.behavior) setSorted(entry, 'behavior', op.behavior);
  checkSources(ctx, op.kind, entry, `failed to create ${op.kind}`);
}

function appendTo(ctx: EditContext, entry: YAMLMap, key: string, values: string[]): void {
  if (values.length === 0) return;
  const existing = entry.get(key, true);
  if (isSeq(existing)) {
    for (const v of values) existing.add(ctx.doc.node(v));
  } else setSorted(entry, key, ctx.doc.node(values));
}

/** `[key=]pattern` sources with their patterns expanded as kustomize's `ExpandFileSource` does. */
function expandFileSources(ctx: EditContext, sources: string[]): string[] {
  return sources.flatMap((source) => {
    const parts = source.split('=');
    const [key, pattern] = parts.length === 2 ? [parts[0]!, parts[1]!] : ['', parts[0]!];
    const found = glob(ctx.fs, ctx.dir, pattern);
    if (found.length === 0) ctx.notice(`${pattern} has no match`);
    if (!key) return found;
    if (found.length !== 1) throw new KustomizeError('EDIT_INVALID', `failed to expand file source: 'pattern '${source}' catches files [${found.join(' ')}], should catch only one`);
    return [`${key}=${found[0]}`];
  });
}

/** Loads the entry's sources as the build would, so that an entry the build would refuse is not written. */
function checkSources(ctx: EditContext, kind: GeneratorKind, entry: YAMLMap, prefix: string): void {
  const args = entry.toJSON() as GeneratorArgs;
  try {
    loadKvPairs(Loader.atRoot(ctx.fs, ctx.dir, 'rootOnly'), args, KIND[kind]);
  } catch (e) {
    throw wrapError(e, prefix);
  }
}

export function setGenerator(ctx: EditContext, op: SetGenerator): void {
  const literals = op.literals ?? [];
  if (literals.length === 0 && !op.newNamespace) {
    throw new KustomizeError('EDIT_INVALID', 'failed to validate flags: at least one of [--from-literal, --new-namespace] must be specified');
  }
  const entry = find(ctx, op.kind, op.name, op.namespace);
  if (!entry) {
    throw new KustomizeError('EDIT_CONFLICT', `failed to create ${op.kind}: could not set new ${KIND[op.kind]} value: unable to find ${KIND[op.kind]} with name "${op.name}"`);
  }
  const prefix = `failed to create ${op.kind}: failed to update literal sources: failed to update resource`;
  const seq = entry.get('literals', true);
  const current = ((entry.toJSON() as GeneratorArgs).literals ?? []).map((l) => l.split('=')[0]!);
  for (const literal of literals) {
    const eq = literal.split('=').length - 1;
    if (eq !== 1) throw new KustomizeError('EDIT_INVALID', `${prefix}: invalid format: literal values must be specified in the key=value format`);
    const key = literal.slice(0, literal.indexOf('='));
    const at = current.indexOf(key);
    if (at < 0 || !isSeq(seq)) throw new KustomizeError('EDIT_CONFLICT', `failed to create ${op.kind}: failed to update literal sources: key '${key}' not found in resource`);
    seq.items[at] = ctx.doc.node(literal);
  }
  if (op.newNamespace) setSorted(entry, 'namespace', op.newNamespace);
  checkSources(ctx, op.kind, entry, `failed to create ${op.kind}: failed to validate ${KIND[op.kind]} structure`);
}

export function removeGenerators(ctx: EditContext, op: RemoveGenerators): void {
  if (op.names.length === 0 || op.names.every((n) => n === '')) throw new KustomizeError('EDIT_INVALID', `at least one ${op.kind} name must be specified`);
  const seq = ctx.doc.seqNode(FIELD[op.kind]);
  const found = new Set<string>();
  if (seq) {
    for (let i = seq.items.length - 1; i >= 0; i--) {
      const m = seq.items[i];
      const name = isMap(m) ? stringField(m, 'name') : undefined;
      if (isMap(m) && name !== undefined && op.names.includes(name) && sameNamespace(stringField(m, 'namespace'), op.namespace)) {
        found.add(name);
        seq.items.splice(i, 1);
      }
    }
  }
  if (found.size === 0) throw new KustomizeError('EDIT_CONFLICT', `no specified ${op.kind}(s) were found in the ${ctx.fileName} file`);
  for (const name of op.names) if (!found.has(name)) ctx.notice(`${op.kind} ${name} doesn't exist in kustomization file`);
  if (seq && seq.items.length === 0) ctx.doc.delete(FIELD[op.kind]);
}
