import { KustomizeError } from '../errors.js';
import { FUNCTION_ANNOTATION, MountShape } from './function-spec.js';
import { parseYamlDocument } from '../yaml/parse.js';
import { cloneValue, isMap, type Value, type YMap } from '../yaml/value.js';
import { decode, DecodeError, type Shape, type StructShape } from '../yaml/decode.js';
import { ObjectMetaShape } from './shapes.js';

/**
 * The Composition kind of KEP-2299: a list of transformer configs (builtin or plugin) run in
 * sequence, built from imports of other Compositions, overrides of what was imported, the
 * Composition's own transformers and an explicit order. This module reads and checks one
 * file against the KEP's schema; src/composition/ consolidates the list.
 */

export const COMPOSITION_API_VERSION = 'kustomize.config.k8s.io/v1alpha1';
export const COMPOSITION_API_VERSIONS: readonly string[] = [COMPOSITION_API_VERSION, 'kustomize.config.k8s.io/v1beta1'];
export const COMPOSITION_KIND = 'Composition';

type ImportMode = 'prepend' | 'append';

/** A `transformersFrom:` entry: another Composition (its file, or its directory). */
export interface TransformerImport {
  path: string;
  importMode: ImportMode;
}

/** A `transformerOrder:` entry; kind and apiVersion only narrow the match. */
export interface TransformerRef {
  name: string;
  kind?: string;
  apiVersion?: string;
}

/**
 * A transformer config as a Composition holds it after checking: apiVersion and kind set,
 * `metadata.name` set (defaulted), the runtime under `provider` whichever spelling was used.
 */
export type TransformerConfig = YMap;

/** A `transformers:` entry: an inline config, or a file of configs (relative to the Composition). */
type TransformerEntry = TransformerConfig | string;

export interface Composition {
  apiVersion: string;
  kind: typeof COMPOSITION_KIND;
  transformersFrom: TransformerImport[];
  transformers: TransformerEntry[];
  transformerOverrides: TransformerConfig[];
  /** undefined when the field is absent: then the consolidated order stands */
  transformerOrder: TransformerRef[] | undefined;
  /** KRM function catalogs (KEP-2906) the transformers are resolved through: paths, URLs, git or oci:// references */
  catalogs: string[];
}

const str = 'string' as const;
const anyList: Shape = { list: 'any' };

const CompositionShape: StructShape = {
  struct: 'Composition',
  fields: {
    apiVersion: str,
    kind: str,
    transformersFrom: anyList,
    transformers: anyList,
    transformerOverrides: anyList,
    transformerOrder: anyList,
    // KEP-2906's extension of the kind
    catalogs: { list: str },
  },
};
const ImportShape: StructShape = { struct: 'TransformerImport', fields: { path: str, importMode: str } };
const RefShape: StructShape = { struct: 'TransformerRef', fields: { name: str, kind: str, apiVersion: str } };

/** The runtime field: the function spec of `config.kubernetes.io/function`, plus the KEP's `starlark`. */
const ProviderShape: StructShape = {
  struct: 'Provider',
  fields: {
    container: {
      struct: 'ContainerProvider',
      fields: { image: str, network: 'bool', mounts: { list: MountShape }, envs: { list: str } },
    },
    exec: { struct: 'ExecProvider', fields: { path: str, args: { list: str }, envs: { list: str } } },
    starlark: { struct: 'StarlarkProvider', fields: { path: str, url: str, name: str } },
  },
};
/** Each runtime and the fields it needs one of. */
const RUNTIMES = { container: ['image'], exec: ['path'], starlark: ['path', 'url'] } as const;

/** The KEP's patterns: a group/version (or `builtin`, which the KEP's own examples use), a DNS subdomain name. */
const API_VERSION_PATTERN = /^[a-z0-9][a-z0-9.]*\/[a-z0-9]+$/;
const NAME_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const NAME_MAX = 253;

/** The fields of a transformer config the runtime is given under (the KEP used both spellings). */
const RUNTIME_FIELDS = ['provider', 'runtime'] as const;

/** An error in a Composition (or a file of transformer configs it names), naming the file and the field. */
export function compositionError(file: string, field: string, problem: string): KustomizeError {
  const at = field === '' ? '' : `${field}: `;
  return new KustomizeError('COMPOSITION_INVALID', `invalid Composition ${file}: ${at}${problem}`, { file, ...(field && { field }) });
}

/**
 * Reads a Composition file: one YAML document, checked against the KEP's schema. Like a
 * Kustomization, a file without apiVersion and kind is read as a Composition.
 */
export function readComposition(text: string, file: string): Composition {
  const doc = parseYamlDocument(text, file) ?? {};
  const raw = decoded<Record<string, Value[] | string[] | string | undefined>>(doc, CompositionShape, file, '');
  const apiVersion = (raw['apiVersion'] as string | undefined) || COMPOSITION_API_VERSION;
  if (!COMPOSITION_API_VERSIONS.includes(apiVersion)) {
    throw compositionError(file, 'apiVersion', `${JSON.stringify(apiVersion)} is not one of ${COMPOSITION_API_VERSIONS.join(', ')}`);
  }
  const kind = (raw['kind'] as string | undefined) || COMPOSITION_KIND;
  if (kind !== COMPOSITION_KIND) throw compositionError(file, 'kind', `${JSON.stringify(kind)} is not ${COMPOSITION_KIND}`);
  const list = (field: string) => (raw[field] as Value[] | undefined) ?? [];
  const transformerOrder = raw['transformerOrder'] === undefined ? undefined : list('transformerOrder').map((v, i) => readRef(v, file, `transformerOrder[${i}]`));
  return {
    apiVersion,
    kind: COMPOSITION_KIND,
    transformersFrom: list('transformersFrom').map((v, i) => readImport(v, file, `transformersFrom[${i}]`)),
    transformers: list('transformers').map((v, i) => (typeof v === 'string' ? v : checkTransformerConfig(v, file, `transformers[${i}]`))),
    transformerOverrides: list('transformerOverrides').map((v, i) => checkTransformerConfig(v, file, `transformerOverrides[${i}]`)),
    transformerOrder,
    catalogs: ((raw['catalogs'] as string[] | undefined) ?? []).map((c, i) => {
      if (c === '') throw compositionError(file, `catalogs[${i}]`, 'must not be empty');
      return c;
    }),
  };
}

function readImport(v: Value | undefined, file: string, field: string): TransformerImport {
  const raw = decoded<Partial<TransformerImport>>(v, ImportShape, file, field) ?? {};
  if (!raw.path) throw compositionError(file, `${field}.path`, 'required');
  const mode = raw.importMode ?? 'prepend';
  if (mode !== 'prepend' && mode !== 'append') throw compositionError(file, `${field}.importMode`, `${JSON.stringify(mode)} is not prepend or append`);
  return { path: raw.path, importMode: mode };
}

function readRef(v: Value | undefined, file: string, field: string): TransformerRef {
  const ref = decoded<Partial<TransformerRef>>(v, RefShape, file, field) ?? {};
  if (!ref.name) throw compositionError(file, `${field}.name`, 'required');
  checkName(ref.name, file, `${field}.name`);
  if (ref.kind === '') throw compositionError(file, `${field}.kind`, 'must not be empty');
  if (ref.apiVersion !== undefined) checkApiVersion(ref.apiVersion, file, `${field}.apiVersion`);
  return ref as TransformerRef;
}

/**
 * Checks one transformer config (inline, in a file of configs, or an override) and returns a
 * copy with `metadata.name` defaulted to the kind in kebab case and the runtime under
 * `provider`. `metadata` may hold name, namespace, labels and annotations (the KEP's schema
 * allows only a name; a file of configs written for a Kustomization carries annotations).
 */
export function checkTransformerConfig(v: Value | undefined, file: string, field: string): TransformerConfig {
  if (!isMap(v)) throw compositionError(file, field, 'must be a transformer config (an object) or a file name');
  const config = cloneValue(v);
  const apiVersion = config['apiVersion'];
  if (typeof apiVersion !== 'string' || apiVersion === '') throw compositionError(file, `${field}.apiVersion`, 'required');
  checkApiVersion(apiVersion, file, `${field}.apiVersion`);
  const kind = config['kind'];
  if (typeof kind !== 'string' || kind === '') throw compositionError(file, `${field}.kind`, 'required');
  const meta = config['metadata'] ?? {};
  decoded(meta, ObjectMetaShape, file, `${field}.metadata`);
  const metadata = meta as YMap;
  config['metadata'] = metadata;
  if (metadata['name'] === undefined || metadata['name'] === null) {
    const name = kebabCase(kind);
    if (!NAME_PATTERN.test(name)) {
      throw compositionError(file, `${field}.metadata.name`, `required: the kind ${JSON.stringify(kind)} does not make a valid default name`);
    }
    metadata['name'] = name;
  }
  checkName(metadata['name'] as string, file, `${field}.metadata.name`);
  normalizeRuntime(config, file, field);
  return config;
}

/** Moves `runtime:` to `provider:` and checks it; refuses it beside a function annotation. */
function normalizeRuntime(config: YMap, file: string, field: string): void {
  const given = RUNTIME_FIELDS.filter((f) => config[f] !== undefined);
  if (given.length === 0) return;
  if (given.length > 1) throw compositionError(file, field, 'give the runtime as provider or as runtime, not both');
  const spelling = given[0]!;
  const where = `${field}.${spelling}`;
  const spec = decoded<Record<string, Record<string, unknown> | undefined>>(config[spelling], ProviderShape, file, where) ?? {};
  const runtimes = Object.keys(RUNTIMES).filter((r) => spec[r] !== undefined) as (keyof typeof RUNTIMES)[];
  if (runtimes.length !== 1) throw compositionError(file, where, `needs exactly one of ${Object.keys(RUNTIMES).join(', ')}`);
  const runtime = runtimes[0]!;
  const needed: readonly string[] = RUNTIMES[runtime];
  if (!needed.some((f) => spec[runtime]![f])) throw compositionError(file, `${where}.${runtime}.${needed.join(' or ')}`, 'required');
  const annotations = (config['metadata'] as YMap)['annotations'];
  if (isMap(annotations) && annotations[FUNCTION_ANNOTATION] !== undefined) {
    throw compositionError(file, where, `the runtime is given twice: by ${spelling} and by the ${FUNCTION_ANNOTATION} annotation`);
  }
  const value = config[spelling]!;
  delete config[spelling];
  config['provider'] = value;
}

function checkApiVersion(apiVersion: string, file: string, field: string): void {
  if (apiVersion !== 'builtin' && !API_VERSION_PATTERN.test(apiVersion)) {
    throw compositionError(file, field, `${JSON.stringify(apiVersion)} is not builtin nor a group/version (${API_VERSION_PATTERN.source})`);
  }
}

function checkName(name: string, file: string, field: string): void {
  if (name.length > NAME_MAX) throw compositionError(file, field, `longer than ${NAME_MAX} characters`);
  if (!NAME_PATTERN.test(name)) throw compositionError(file, field, `${JSON.stringify(name)} is not a DNS subdomain name (lower case letters, digits, '-' and '.')`);
}

/** Decodes with the house decoder, turning its errors into Composition errors at `field`. */
function decoded<T>(v: Value | undefined, shape: Shape, file: string, field: string): T {
  try {
    return decode<T>(v, shape);
  } catch (e) {
    if (e instanceof DecodeError) throw compositionError(file, field, e.message);
    throw e;
  }
}

/** `PrefixSuffixTransformer` → `prefix-suffix-transformer`; runs of capitals stay one word (`IAMPolicy` → `iam-policy`). */
export function kebabCase(kind: string): string {
  const words = kind.match(/[A-Z]+(?=[A-Z][a-z0-9])|[A-Z]?[a-z0-9]+|[A-Z]+|[^A-Za-z0-9]+/g) ?? [];
  return words.map((w) => w.toLowerCase()).join('-');
}
