import { KustomizeError } from '../errors.js';
import { decode, DecodeError, type Shape, type StructShape } from '../yaml/decode.js';
import { ObjectMetaShape } from '../kinds/shapes.js';
import type { ObjectMeta } from '../kinds/kustomization.js';
import { parseYamlDocument } from '../yaml/parse.js';
import type { Value } from '../yaml/value.js';

const CATALOG_API_VERSION = 'config.kubernetes.io/v1alpha1';
/** `Catalog` is the KEP's prose name, `KRMFunctionCatalog` its schema's. */
const CATALOG_KINDS = ['Catalog', 'KRMFunctionCatalog'] as const;

/** The operating systems and architectures the KEP's schema allows for exec platforms. */
const EXEC_OSES = ['linux', 'darwin', 'windows'] as const;
const EXEC_ARCHES = ['amd64', 'arm64'] as const;

export interface ContainerRuntime {
  image: string;
  /** the image digest (hex, or `sha256:hex`); the image is then run pinned, `image@sha256:…` */
  sha256?: string;
  requireNetwork?: boolean;
  requireStorageMount?: boolean;
}

export interface ExecPlatform {
  /** the executable's name (inside the archive when `uri` names a `.tar.gz`) */
  bin: string;
  os: string;
  arch: string;
  /** http(s)://, file://, or a path relative to the catalog */
  uri: string;
  /** the digest of the file `uri` names, 64 hex digits (optionally prefixed `sha256:`) */
  sha256: string;
}

/** How a function runs. A catalog may give more than one; see `chooseRuntime` in the resolver. */
export interface FunctionRuntime {
  container?: ContainerRuntime;
  exec?: { platforms: ExecPlatform[] };
  /** a URI or path (relative to the catalog) of a Starlark script */
  starlark?: string;
}

export interface FunctionVersion {
  name: string;
  /** the version's own runtime, or the one written once at the function level */
  runtime: FunctionRuntime;
  schema?: { openAPIV3Schema?: Value };
  idempotent?: boolean;
  usage?: string;
  examples?: string[];
  license?: string;
  maintainers?: string[];
}

export interface CatalogFunction {
  group: string;
  names: { kind: string };
  description?: string;
  publisher?: string;
  versions: FunctionVersion[];
  home?: string;
  maintainers?: string[];
  tags?: string[];
}

/** A KEP-2906 function catalog, validated, with function-level runtimes applied to each version. */
export interface Catalog {
  apiVersion: typeof CATALOG_API_VERSION;
  kind: (typeof CATALOG_KINDS)[number];
  metadata?: ObjectMeta;
  spec: { krmFunctions: CatalogFunction[] };
}

const str = 'string' as const;
const bool = 'bool' as const;
const strings: Shape = { list: str };

const RuntimeShape: StructShape = {
  struct: 'KRMFunctionRuntime',
  fields: {
    container: {
      struct: 'KRMFunctionContainerRuntime',
      fields: { image: str, sha256: str, requireNetwork: bool, requireStorageMount: bool },
    },
    exec: {
      struct: 'KRMFunctionExecRuntime',
      fields: {
        platforms: { list: { struct: 'KRMFunctionExecPlatform', fields: { bin: str, os: str, arch: str, uri: str, sha256: str } } },
      },
    },
    starlark: str,
  },
};

const CatalogShape: StructShape = {
  struct: 'KRMFunctionCatalog',
  fields: {
    apiVersion: str,
    kind: str,
    metadata: ObjectMetaShape,
    spec: {
      struct: 'KRMFunctionCatalogSpec',
      fields: {
        krmFunctions: {
          list: {
            struct: 'KRMFunctionDefinitionSpec',
            fields: {
              group: str,
              names: { struct: 'KRMFunctionNames', fields: { kind: str } },
              description: str,
              publisher: str,
              versions: {
                list: {
                  struct: 'KRMFunctionVersion',
                  fields: {
                    name: str,
                    runtime: RuntimeShape,
                    schema: { struct: 'KRMFunctionSchema', fields: { openAPIV3Schema: 'any' } },
                    idempotent: bool,
                    usage: str,
                    examples: strings,
                    license: str,
                    maintainers: strings,
                  },
                },
              },
              // the KEP's prose writes the runtime once for all versions
              runtime: RuntimeShape,
              home: str,
              maintainers: strings,
              tags: strings,
            },
          },
        },
      },
    },
  },
};

type RawFunction = Omit<CatalogFunction, 'versions'> & { versions?: (Omit<FunctionVersion, 'runtime'> & { runtime?: FunctionRuntime })[]; runtime?: FunctionRuntime };
type RawCatalog = { apiVersion?: string; kind?: string; metadata?: ObjectMeta; spec?: { krmFunctions?: RawFunction[] } };

/**
 * Reads a catalog file: one YAML document of kind `Catalog` (or `KRMFunctionCatalog`), checked
 * against the KEP's schema — unknown fields and wrong types refused, the fields resolution and
 * trust depend on required (each function's `group`, `names.kind`, versions with a `name` and
 * a runtime; each exec platform complete, with a sha256). Errors name `file` and the field.
 * The KEP's descriptive fields (`description`, `publisher`, `schema`, `usage`, `examples`,
 * `license`, …) are optional: its own examples omit them.
 */
export function readCatalog(text: string, file: string): Catalog {
  const doc = parseYamlDocument(text, file);
  let raw: RawCatalog;
  try {
    raw = decode<RawCatalog>(doc ?? {}, CatalogShape) ?? {};
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    throw catalogInvalid(file, e.field, e.message, e);
  }
  if (raw.apiVersion !== CATALOG_API_VERSION) throw catalogInvalid(file, 'apiVersion', `must be ${CATALOG_API_VERSION}`);
  if (!(CATALOG_KINDS as readonly string[]).includes(raw.kind ?? '')) throw catalogInvalid(file, 'kind', `must be ${CATALOG_KINDS.join(' or ')}`);
  const functions = raw.spec?.krmFunctions;
  if (!functions || functions.length === 0) throw catalogInvalid(file, 'spec.krmFunctions', 'a catalog lists at least one function');
  return {
    apiVersion: CATALOG_API_VERSION,
    kind: raw.kind as Catalog['kind'],
    ...(raw.metadata && { metadata: raw.metadata }),
    spec: { krmFunctions: functions.map((f, i) => checkFunction(f, `spec.krmFunctions[${i}]`, file)) },
  };
}

function checkFunction(raw: RawFunction, at: string, file: string): CatalogFunction {
  const { runtime: shared, versions, ...rest } = raw;
  if (raw.group === undefined) throw catalogInvalid(file, `${at}.group`, 'is required');
  if (!raw.names?.kind) throw catalogInvalid(file, `${at}.names.kind`, 'is required');
  if (!versions || versions.length === 0) throw catalogInvalid(file, `${at}.versions`, 'a function lists at least one version');
  const checked = versions.map((v, j) => {
    const vat = `${at}.versions[${j}]`;
    if (!v.name) throw catalogInvalid(file, `${vat}.name`, 'is required');
    const runtime = v.runtime ?? shared;
    if (!runtime) throw catalogInvalid(file, `${vat}.runtime`, `is required (on the version, or once for all versions at ${at}.runtime)`);
    checkRuntime(runtime, v.runtime ? `${vat}.runtime` : `${at}.runtime`, file);
    return { ...v, runtime };
  });
  return { ...rest, versions: checked };
}

function checkRuntime(runtime: FunctionRuntime, at: string, file: string): void {
  if (!runtime.container && !runtime.exec && !runtime.starlark) throw catalogInvalid(file, at, 'needs one of container, exec or starlark');
  if (runtime.container) {
    if (!runtime.container.image) throw catalogInvalid(file, `${at}.container.image`, 'is required');
    if (runtime.container.sha256 !== undefined) checkSha256(runtime.container.sha256, `${at}.container.sha256`, file);
  }
  if (runtime.exec) {
    const platforms = runtime.exec.platforms;
    if (!platforms || platforms.length === 0) throw catalogInvalid(file, `${at}.exec.platforms`, 'lists at least one platform');
    platforms.forEach((p, k) => {
      const pat = `${at}.exec.platforms[${k}]`;
      for (const field of ['bin', 'os', 'arch', 'uri'] as const) if (!p[field]) throw catalogInvalid(file, `${pat}.${field}`, 'is required');
      if (!(EXEC_OSES as readonly string[]).includes(p.os)) throw catalogInvalid(file, `${pat}.os`, `'${p.os}' is not one of ${EXEC_OSES.join(', ')}`);
      if (!(EXEC_ARCHES as readonly string[]).includes(p.arch)) throw catalogInvalid(file, `${pat}.arch`, `'${p.arch}' is not one of ${EXEC_ARCHES.join(', ')}`);
      if (p.sha256 === undefined || p.sha256 === '') throw catalogInvalid(file, `${pat}.sha256`, 'is required: an exec function is only run when its digest is known');
      checkSha256(p.sha256, `${pat}.sha256`, file);
    });
  }
}

/** The digest as `sha256:<64 lowercase hex>`, from `<hex>` or `sha256:<hex>`; undefined if it is neither. */
export function normalizeSha256(text: string): string | undefined {
  const hex = text.replace(/^sha256:/i, '').toLowerCase();
  return /^[0-9a-f]{64}$/.test(hex) ? `sha256:${hex}` : undefined;
}

function checkSha256(text: string, at: string, file: string): void {
  if (!normalizeSha256(text)) throw catalogInvalid(file, at, `'${text}' is not a sha256 digest (64 hex digits, optionally prefixed 'sha256:')`);
}

/** CATALOG_INVALID: the catalog `file` (its path, or its reference when fetched) is wrong at `field`. */
export function catalogInvalid(file: string, field: string, why: string, cause?: unknown): KustomizeError {
  const where = field ? `${field}: ` : '';
  return new KustomizeError('CATALOG_INVALID', `invalid Catalog ${file}: ${where}${why}`, { file, ...(field && { field }), ...(cause !== undefined && { cause }) });
}
