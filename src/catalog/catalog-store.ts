import { KustomizeError, wrapError } from '../errors.js';
import type { FileSystem } from '../fs/filesystem.js';
import { dirname, isWithin, join, resolve } from '../fs/path.js';
import type { Loader } from '../load/loader.js';
import { HttpStatusError, type RemoteSource } from '../load/remote/remote-source.js';
import { readCatalog, type Catalog } from './catalog.js';
import { parseCatalogReference, type CatalogReference } from './reference.js';

/** The media type of a catalog's layer in an OCI artifact (KEP-2906). */
export const CATALOG_LAYER_MEDIA_TYPE = 'application/vnd.cncf.kubernetes.krm-func-catalog.layer.v1+yaml';

/** Pulls one layer of an OCI artifact, verified against its digest. */
export interface OciLayerPuller {
  /** the bytes of the artifact's layer of `mediaType`, and the digest of the manifest pulled */
  pullLayer(ref: string, mediaType: string): Promise<{ bytes: Uint8Array; digest: string }>;
}

/** A catalog as fetched: its content, where it came from, and how to read files named relative to it. */
export interface LoadedCatalog {
  reference: CatalogReference;
  catalog: Catalog;
  /** the manifest digest, for a catalog pulled from an OCI registry */
  digest?: string;
  /** reads a file named by a path relative to the catalog (an exec binary, a Starlark script) */
  readRelative(path: string): Promise<Uint8Array>;
}

/** What fetching catalogs needs from the build. */
export interface CatalogSources {
  /** files over HTTP(S) and git clones (the build's remote source, made on first use) */
  remote(): Promise<RemoteSource>;
  oci: OciLayerPuller;
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
      found = this.fetch(reference, loader).catch((e: unknown) => {
        throw wrapError(e, `loading catalog '${raw}'`);
      });
      this.loaded.set(key, found);
    }
    return found;
  }

  private async fetch(reference: CatalogReference, loader: Loader): Promise<LoadedCatalog> {
    switch (reference.kind) {
      case 'local': {
        const path = reference.path;
        const catalog = readCatalog(decodeText(loader.load(path)), loader.absolute(path));
        return { reference, catalog, readRelative: async (p) => loader.load(join(dirname(path), p)) };
      }
      case 'http': {
        const remote = await this.sources.remote();
        const catalog = readCatalog(decodeText(await fetchHttp(remote, reference.url)), reference.url);
        return { reference, catalog, readRelative: (p) => fetchHttp(remote, new URL(p, reference.url).href) };
      }
      case 'git': {
        const { dir, fs } = await (await this.sources.remote()).clone(reference.spec);
        const file = inside(dir, reference.spec.path, reference.raw);
        const catalog = readCatalog(decodeText(readFile(fs, file)), reference.raw);
        return { reference, catalog, readRelative: async (p) => readFile(fs, inside(dir, join(dirname(reference.spec.path), p), reference.raw)) };
      }
      case 'oci': {
        const { bytes, digest } = await this.sources.oci.pullLayer(reference.raw, CATALOG_LAYER_MEDIA_TYPE);
        const catalog = readCatalog(decodeText(bytes), reference.raw);
        return {
          reference,
          catalog,
          digest,
          readRelative: async (p) => {
            throw new KustomizeError('CATALOG_INVALID', `'${p}' is relative, but a catalog pulled from an OCI registry has no location to resolve it against; use an http(s):// or file:// URI`, {
              file: reference.raw,
            });
          },
        };
      }
    }
  }
}

/** Reads an http(s) URL; a non-2xx answer is a REMOTE_FAILED error naming the URL. */
export async function fetchHttp(remote: RemoteSource, url: string): Promise<Uint8Array> {
  try {
    return await remote.fetchFile(url);
  } catch (e) {
    if (e instanceof HttpStatusError) throw new KustomizeError('REMOTE_FAILED', `GET ${url}: ${e.message}`, { file: url, cause: e });
    throw e;
  }
}

function inside(dir: string, path: string, what: string): string {
  const file = resolve(dir, path);
  if (!isWithin(dir, file)) throw new KustomizeError('LOAD_RESTRICTED', `'${path}' is outside the repository of '${what}'`, { file: what });
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
