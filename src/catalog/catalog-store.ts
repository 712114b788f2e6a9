import { KustomizeError, wrapError } from '../errors.js';
import type { FileSystem } from '../fs/filesystem.js';
import { dirname, isWithin, join, resolve } from '../fs/path.js';
import type { Loader } from '../load/loader.js';
import { HttpStatusError, isHttpUrl, type RemoteSource } from '../load/remote/remote-source.js';
import type { BuildRemoteInputs } from '../load/remote/locked-source.js';
import type { ImageToRun } from '../load/remote/locked-image.js';
import { parseOciReference } from '../oci/index.js';
import { readCatalog, type Catalog, type CatalogFunction, type FunctionVersion } from './catalog.js';
import type { ConfigSchema } from './config-schema.js';
import { parseCatalogReference, type CatalogReference } from './reference.js';

/** The media type of a catalog's layer in an OCI artifact (KEP-2906). */
export const CATALOG_LAYER_MEDIA_TYPE = 'application/vnd.cncf.kubernetes.krm-func-catalog.layer.v1+yaml';

/** A catalog as fetched: its content, where it came from, and how to read files named relative to it. */
export interface LoadedCatalog {
  reference: CatalogReference;
  catalog: Catalog;
  /** the manifest digest, for a catalog pulled from an OCI registry */
  digest?: string;
  /**
   * Reads a file a catalog names (an exec program, a Starlark script): an http(s):// URL, a
   * file:// URL, or a path relative to the catalog. `describe` names the function in errors.
   * `sha256` (hex), when the catalog gives the file's digest: the caller checks it, and a file
   * fetched with it is no remote input of its own (see `RemoteRequestOptions.sha256`).
   */
  readUri(uri: string, describe: string, sha256?: string): Promise<Uint8Array>;
  /** The config schema of a version of one of its functions, read once; undefined when the version has none. */
  configSchema(fn: CatalogFunction, version: FunctionVersion): Promise<ConfigSchema> | undefined;
  /**
   * Notes that the build runs the exec program at `uri` of digest `sha256` (`sha256:<hex>`, as
   * the catalog gives it); LOCK_MISMATCH when the lock pins another.
   */
  usesExec(uri: string, sha256: string): void;
  /** The container image a function of the catalog runs, as the build's lock has it (see locked-image.ts). */
  runsImage(image: string): ImageToRun;
}

type FetchedCatalog = Omit<LoadedCatalog, 'readUri' | 'configSchema' | 'usesExec' | 'runsImage'> & {
  /** the catalog as its errors name it: its absolute path, or its reference */
  file: string;
  readRelative(path: string, sha256?: string): Promise<Uint8Array>;
};

/** What fetching catalogs needs from the build. */
interface CatalogSources {
  /** files over HTTP(S), git clones and OCI artifacts (the build's remote source, made on first use) */
  remote(): Promise<RemoteSource>;
  /**
   * the lock the build follows (an exec program is checked against its sha256), and where each
   * exec program used is noted (the remote source notes the catalogs it fetches)
   */
  inputs?: BuildRemoteInputs;
  /** how the build runs a container image (by default as written: no lock) */
  images?: (image: string) => ImageToRun;
}

/**
 * The catalogs of one build, each fetched at most once, and only when asked for: a catalog
 * no step needs is never fetched.
 */
export class CatalogStore {
  private readonly loaded = new Map<string, Promise<LoadedCatalog>>();

  constructor(private readonly sources: CatalogSources) {}

  /** The catalog `raw` (a `catalogs:` entry) names, read relative to `loader`'s kustomization. */
  load(raw: string, loader: Loader): Promise<LoadedCatalog> {
    const reference = parseCatalogReference(raw);
    const key = reference.kind === 'local' ? `local:${loader.absolute(reference.path)}` : raw;
    let found = this.loaded.get(key);
    if (!found) {
      found = this.fetch(reference, loader).then(
        (fetched): LoadedCatalog => ({
          ...fetched,
          readUri: (uri, describe, sha256) => this.readUri(uri, fetched, loader.fs, describe, sha256),
          configSchema: configSchemas(fetched),
          usesExec: (uri, sha256) => this.usesExec(execUrl(uri, fetched.reference), sha256),
          runsImage: this.sources.images ?? ((image) => ({ image })),
        }),
        (e: unknown) => {
          throw wrapError(e, `loading catalog '${raw}'`);
        },
      );
      this.loaded.set(key, found);
    }
    return found;
  }

  private usesExec(url: string, digest: string): void {
    const sha256 = digest.slice('sha256:'.length);
    const rules = this.sources.inputs?.lock();
    const pin = rules?.pin({ type: 'exec', url });
    if (pin && pin.sha256 !== sha256) throw rules!.mismatch(pin, digest, ' (its catalog gives another program)');
    this.sources.inputs?.note({ type: 'exec', url, sha256 });
  }

  private async readUri(uri: string, fetched: FetchedCatalog, fs: FileSystem, describe: string, sha256: string | undefined): Promise<Uint8Array> {
    if (isHttpUrl(uri)) return fetchHttp(await this.sources.remote(), uri, sha256);
    if (/^file:\/\//i.test(uri)) return readFile(fs, decodeURIComponent(new URL(uri).pathname));
    if (/^[a-z][a-z0-9+.-]*:/i.test(uri) || uri.startsWith('/')) {
      throw new KustomizeError('CATALOG_INVALID', `${describe}: '${uri}' must be an http(s):// or file:// URL, or a path relative to the catalog`, {
        remote: fetched.reference.raw,
      });
    }
    return fetched.readRelative(uri, sha256);
  }

  private async fetch(reference: CatalogReference, loader: Loader): Promise<FetchedCatalog> {
    switch (reference.kind) {
      case 'local': {
        const path = reference.path;
        const file = loader.absolute(path);
        const catalog = readCatalog(decodeText(loader.load(path)), file);
        return { reference, catalog, file, readRelative: async (p) => loader.load(join(dirname(path), p)) };
      }
      case 'http': {
        const remote = await this.sources.remote();
        const catalog = readCatalog(decodeText(await fetchHttp(remote, reference.url)), reference.url);
        return { reference, catalog, file: reference.url, readRelative: (p, sha256) => fetchHttp(remote, new URL(p, reference.url).href, sha256) };
      }
      case 'git': {
        const { dir, fs } = await (await this.sources.remote()).clone(reference.spec);
        const file = inside(fs, dir, reference.spec.path, reference.raw);
        const catalog = readCatalog(decodeText(readFile(fs, file)), reference.raw);
        return { reference, catalog, file: reference.raw, readRelative: async (p) => readFile(fs, inside(fs, dir, join(dirname(reference.spec.path), p), reference.raw)) };
      }
      case 'oci': {
        const { digest, bytes } = await (await this.sources.remote()).pullLayer(parseOciReference(reference.raw), CATALOG_LAYER_MEDIA_TYPE);
        const catalog = readCatalog(decodeText(bytes), reference.raw);
        return {
          reference,
          catalog,
          file: reference.raw,
          digest,
          readRelative: async (p) => {
            throw new KustomizeError('CATALOG_INVALID', `'${p}' is relative, but a catalog pulled from an OCI registry has no location to resolve it against; use an http(s):// or file:// URI`, {
              remote: reference.raw,
            });
          },
        };
      }
    }
  }
}

/** How a lock names an exec program: its URI, or, relative to its catalog, the catalog's reference and `#` the path. */
function execUrl(uri: string, catalog: CatalogReference): string {
  return isHttpUrl(uri) || /^file:\/\//i.test(uri) ? uri : `${catalog.raw}#${uri}`;
}

/**
 * The config schemas of a catalog's function versions, each read when first asked for; the
 * checker is loaded with the first (a build whose functions have no schema never loads it).
 */
function configSchemas(fetched: FetchedCatalog): LoadedCatalog['configSchema'] {
  const read = new Map<FunctionVersion, Promise<ConfigSchema>>();
  return (fn, version) => {
    const raw = version.schema?.openAPIV3Schema;
    if (raw === undefined || raw === null) return undefined;
    let schema = read.get(version);
    if (!schema) {
      const field = `spec.krmFunctions[${fetched.catalog.spec.krmFunctions.indexOf(fn)}].versions[${fn.versions.indexOf(version)}].schema.openAPIV3Schema`;
      schema = import('./config-schema.js').then(({ ConfigSchema }) => ConfigSchema.read(raw, { file: fetched.file, field }));
      read.set(version, schema);
    }
    return schema;
  };
}

/** Reads an http(s) URL; a non-2xx answer is a REMOTE_FAILED error naming the URL. */
async function fetchHttp(remote: RemoteSource, url: string, sha256?: string): Promise<Uint8Array> {
  try {
    return await remote.fetchFile(url, sha256 === undefined ? {} : { sha256 });
  } catch (e) {
    if (e instanceof HttpStatusError) throw new KustomizeError('REMOTE_FAILED', `GET ${url}: ${e.message}`, { remote: url, cause: e });
    throw e;
  }
}

/** `path` in the clone at `dir`, refused if it (or a symlink on the way) leaves the repository. */
function inside(fs: FileSystem, dir: string, path: string, what: string): string {
  const file = resolve(dir, path);
  let real = file;
  try {
    real = fs.realPath(file);
  } catch {
    // missing: reading it reports that
  }
  if (!isWithin(dir, file) || !isWithin(fs.realPath(dir), real)) throw new KustomizeError('LOAD_RESTRICTED', `'${path}' is outside the repository of '${what}'`, { remote: what });
  return file;
}

function readFile(fs: FileSystem, path: string): Uint8Array {
  try {
    return fs.readFile(path);
  } catch (e) {
    throw new KustomizeError('FILE_NOT_FOUND', `open ${path}: no such file or directory`, { file: path, cause: e });
  }
}

function decodeText(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}
