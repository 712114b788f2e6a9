import { KustomizeError } from '../errors.js';
import { decode, DecodeError, type StructShape } from '../yaml/decode.js';
import { FieldSpecsShape } from './fieldspec.js';
import { gvkFields } from './fieldspec.js';
import type { Gvk } from '../model/resid.js';
import { parseYamlDocument } from '../yaml/parse.js';
import type { Value } from '../yaml/value.js';
import { fieldSpecSelects, type FieldSpec } from './fieldspec.js';

/** The fields that refer to objects of one GVK by name. */
export interface NameBackReference {
  gvk: Partial<Gvk>;
  fieldSpecs: FieldSpec[];
}

/**
 * The field specs of the builtin transformers for one build: kustomize's defaults merged with
 * every `configurations:` file and `crds:` annotation met on the way (overlays see the
 * field specs of their bases).
 */
export interface TransformerConfig {
  namePrefix: FieldSpec[];
  nameSuffix: FieldSpec[];
  namespace: FieldSpec[];
  commonLabels: FieldSpec[];
  /** extra fields every `labels:` entry writes */
  labels: FieldSpec[];
  templateLabels: FieldSpec[];
  volumeClaimTemplateLabels: FieldSpec[];
  commonAnnotations: FieldSpec[];
  nameReference: NameBackReference[];
  varReference: FieldSpec[];
  images: FieldSpec[];
  replicas: FieldSpec[];
}

type FieldSpecList = Exclude<keyof TransformerConfig, 'nameReference'>;
const LISTS: FieldSpecList[] = [
  'namePrefix',
  'nameSuffix',
  'namespace',
  'commonLabels',
  'labels',
  'templateLabels',
  'volumeClaimTemplateLabels',
  'commonAnnotations',
  'varReference',
  'images',
  'replicas',
];

const ConfigShape: StructShape = {
  struct: 'TransformerConfig',
  fields: {
    ...Object.fromEntries(LISTS.map((l) => [l, FieldSpecsShape])),
    nameReference: { list: { struct: 'NameBackReferences', fields: { ...gvkFields, fieldSpecs: FieldSpecsShape } } },
  },
};

export function emptyTransformerConfig(): TransformerConfig {
  return {
    namePrefix: [],
    nameSuffix: [],
    namespace: [],
    commonLabels: [],
    labels: [],
    templateLabels: [],
    volumeClaimTemplateLabels: [],
    commonAnnotations: [],
    nameReference: [],
    varReference: [],
    images: [],
    replicas: [],
  };
}

/** Reads a `configurations:` file. */
export function parseTransformerConfig(text: string, file: string): TransformerConfig {
  return decodeTransformerConfig(parseYamlDocument(text, file, { dialect: 'yaml11' }) ?? {}, file);
}

/** A transformer config from its YAML value (a `configurations:` file's content, or a builtin's `nameReference:`). */
export function decodeTransformerConfig(value: Value, file: string): TransformerConfig {
  let raw: Partial<Record<FieldSpecList, FieldSpec[]>> & { nameReference?: (Partial<Gvk> & { fieldSpecs?: FieldSpec[] })[] };
  try {
    raw = decode(value, ConfigShape) ?? {};
  } catch (e) {
    if (e instanceof DecodeError) throw new KustomizeError('KUSTOMIZATION_INVALID', `${e.message} in ${file}`, { file, ...(e.field && { field: e.field }), cause: e });
    throw e;
  }
  const config = emptyTransformerConfig();
  for (const l of LISTS) config[l] = raw[l] ?? [];
  config.nameReference = (raw.nameReference ?? []).map(({ fieldSpecs, ...gvk }) => ({ gvk, fieldSpecs: fieldSpecs ?? [] }));
  return config;
}

/** Back references as a builtin's `nameReference:` config holds them (the `configurations:` form). */
export function nameReferenceConfig(refs: readonly NameBackReference[]): Value {
  return refs.map((r) => ({ ...r.gvk, fieldSpecs: r.fieldSpecs as unknown as Value }));
}

/**
 * `a` plus what `b` adds. A spec of `b` is dropped when `a` has one for the same path that
 * it covers (its GVK is at least as general), so a kind-specific custom spec listed before
 * kustomize's generic default shadows the default; specs that match but differ in `create`
 * are refused, as kustomize does.
 */
export function mergeTransformerConfigs(a: TransformerConfig, b: TransformerConfig): TransformerConfig {
  const out = emptyTransformerConfig();
  for (const l of LISTS) out[l] = mergeFieldSpecs(a[l], b[l]);
  out.nameReference = mergeNameReferences(a.nameReference, b.nameReference);
  return out;
}

/**
 * The lists (and back references) a merge returns are never edited afterwards: a merge that
 * adds nothing returns its input itself, so the usual chain (the defaults merged into every
 * kustomization and again from each base) costs nothing after the first.
 */
function mergeNameReferences(a: NameBackReference[], b: NameBackReference[]): NameBackReference[] {
  if (b.length === 0 || b === a) return a;
  let out: NameBackReference[] | undefined; // a copy, made at the first change
  for (const ref of b) {
    const list = out ?? a;
    const i = list.findIndex((r) => sameGvk(r.gvk, ref.gvk));
    if (i < 0) {
      (out ??= [...a]).push({ gvk: ref.gvk, fieldSpecs: ref.fieldSpecs });
      continue;
    }
    const fieldSpecs = mergeFieldSpecs(list[i]!.fieldSpecs, ref.fieldSpecs);
    if (fieldSpecs !== list[i]!.fieldSpecs) (out ??= [...a])[i] = { gvk: list[i]!.gvk, fieldSpecs };
  }
  return out ?? a;
}

export function mergeFieldSpecs(a: FieldSpec[], b: FieldSpec[]): FieldSpec[] {
  // a merged list merges with itself to itself (a list that would conflict with itself was refused when it was merged)
  if (b.length === 0 || b === a) return a;
  const out = [...a];
  // the specs so far by path, in order: every kustomization merges the ~300 default name references
  const byPath = new Map<string | undefined, FieldSpec[]>();
  const add = (fs: FieldSpec) => {
    const same = byPath.get(fs.path);
    if (same) same.push(fs);
    else byPath.set(fs.path, [fs]);
  };
  for (const fs of out) add(fs);
  for (const fs of b) {
    const same = byPath.get(fs.path)?.find((x) => fieldSpecSelects(fs, gvkOf(x)));
    if (!same) {
      out.push(fs);
      add(fs);
    } else if (Boolean(same.create) !== Boolean(fs.create)) {
      throw new KustomizeError('KUSTOMIZATION_INVALID', `conflicting fieldspecs for path '${fs.path}'`);
    }
  }
  if (out.length === a.length) return a;
  return a.length === 0 && out.length === b.length ? b : out;
}

function gvkOf(fs: FieldSpec): Gvk {
  return { group: fs.group ?? '', version: fs.version ?? '', kind: fs.kind ?? '' };
}

function sameGvk(a: Partial<Gvk>, b: Partial<Gvk>): boolean {
  return (a.group ?? '') === (b.group ?? '') && (a.version ?? '') === (b.version ?? '') && (a.kind ?? '') === (b.kind ?? '');
}
