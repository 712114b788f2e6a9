import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { KustomizeError, type Warning } from '../../errors.js';
import { DiskFileSystem } from '../../fs/disk.js';
import { pullSingleLayer, resolveDigest, type OciClientOptions, type PulledSingleLayer } from '../../oci/client.js';
import { MediaType } from '../../oci/media-types.js';
import { pinned, type OciReference } from '../../oci/reference.js';
import { readTreeArchive } from '../../oci/tar.js';
import { GitCommand } from './git-command.js';
import { RemoteCache, sha256Hex, type CachedHttpFile, type OciEntryKind } from './remote-cache.js';
import { cloneUrl, type RepoSpec } from './repo-spec.js';
import { HttpStatusError, httpGet, responseBytes, type RemoteOptions, type RemoteRequestOptions, type RemoteSource, type RemoteTree } from './remote-source.js';

interface NodeRemoteOptions {
  /** seconds an HTTP request may take; default 60 */
  httpTimeout?: number;
  /** `--remote-cache`: keep fetched trees and files here across builds (see remote-cache.ts) */
  cacheDir?: string;
  /** `--offline`: read remote references from the cache only */
  offline?: boolean;
  /** how the OCI client authenticates (default: the container auth files) */
  oci?: OciClientOptions;
  /** told when a corrupted cache entry is thrown away */
  warn?: (warning: Warning) => void;
}

/** The layer media types an `oci://` base may have: Flux's, or a generic tar.gz layer. */
const TREE_LAYER_TYPES = [MediaType.fluxContent, MediaType.ociLayerTarGzip];

/**
 * Remote resources for Node: `fetch` for HTTP(S) files and OCI artifacts, the `git`
 * executable for repositories. Within one build each file, repository at a ref and artifact
 * is fetched once. Without a cache directory everything goes to temporary directories that
 * `cleanup` removes; with one, trees are kept by commit or digest and files by URL.
 */
export class NodeRemoteSource implements RemoteSource {
  private readonly tempDirs: string[] = [];
  private readonly files = new Map<string, Promise<Uint8Array>>();
  private readonly trees = new Map<string, Promise<RemoteTree>>();
  private readonly layers = new Map<string, Promise<PulledSingleLayer>>();
  private readonly fs = new DiskFileSystem();
  private readonly cache: RemoteCache | undefined;

  constructor(private readonly options: NodeRemoteOptions = {}) {
    if (options.cacheDir) {
      this.cache = new RemoteCache(options.cacheDir, (entry) => options.warn?.({ code: 'REMOTE_CACHE_CORRUPT', message: `remote cache: the entry for ${entry} was corrupted; fetching it again` }));
    }
  }

  fetchFile(url: string, options: RemoteRequestOptions = {}): Promise<Uint8Array> {
    return memo(this.files, url, () => this.fetchFileOnce(url, options));
  }

  clone(spec: RepoSpec, options: RemoteRequestOptions = {}): Promise<RemoteTree> {
    return memo(this.trees, `git ${cloneUrl(spec)}#${spec.ref}#${spec.submodules}`, () => this.cloneOnce(spec, options.signal));
  }

  pullTree(ref: OciReference, options: RemoteRequestOptions = {}): Promise<RemoteTree> {
    return memo(this.trees, `oci ${ref.raw}`, async () => {
      const { dir, digest } = await this.pullInto(ref, { kind: 'oci', suffix: '' }, (r, d, oci) => this.unpackArtifact(r, d, oci), options.signal);
      return { dir, fs: this.fs, digest };
    });
  }

  pullLayer(ref: OciReference, mediaType: string, options: RemoteRequestOptions = {}): Promise<PulledSingleLayer> {
    return memo(this.layers, `${ref.raw} ${mediaType}`, async () => {
      const write = async (r: OciReference, dir: string, oci: OciClientOptions) => {
        const layer = await pullSingleLayer(r, mediaType, oci);
        writeFileSync(join(dir, 'layer'), layer.bytes);
        return layer.digest;
      };
      const { dir, digest } = await this.pullInto(ref, { kind: 'oci-layer', suffix: `-${sha256Hex(mediaType).slice(0, 16)}` }, write, options.signal);
      return { digest, bytes: readFileSync(join(dir, 'layer')) };
    });
  }

  cleanup(): void {
    for (const d of this.tempDirs.splice(0)) rmSync(d, { recursive: true, force: true });
    this.files.clear();
    this.trees.clear();
    this.layers.clear();
  }

  /**
   * A file over HTTP. With the cache: a file whose sha256 a lock gives is read by that digest
   * when the cache holds it (no request), and kept by it once fetched with it; any other is
   * revalidated by its URL.
   */
  private async fetchFileOnce(url: string, { signal, sha256 }: RemoteRequestOptions): Promise<Uint8Array> {
    const locked = sha256 === undefined ? undefined : this.cache?.blob(sha256);
    if (locked) return locked;
    const body = await this.fetchFileByUrl(url, signal);
    if (sha256 !== undefined && this.cache && sha256Hex(body) === sha256) this.cache.storeBlob(sha256, body);
    return body;
  }

  private async fetchFileByUrl(url: string, signal: AbortSignal | undefined): Promise<Uint8Array> {
    const cached = this.cache?.httpFile(url);
    if (this.options.offline) return cached?.body ?? this.missingOffline(url);
    const headers: Record<string, string> = {};
    if (cached?.etag) headers['If-None-Match'] = cached.etag;
    if (cached?.lastModified) headers['If-Modified-Since'] = cached.lastModified;
    const res = await httpGet(url, { timeoutSeconds: this.options.httpTimeout ?? 60, headers, signal });
    if (res.status === 304 && cached) return cached.body;
    if (res.status < 200 || res.status > 299) throw new HttpStatusError(res.status, res.statusText);
    const body = await responseBytes(res, url, signal);
    const etag = res.headers.get('etag');
    const lastModified = res.headers.get('last-modified');
    if (this.cache && (etag || lastModified)) {
      const entry: CachedHttpFile = { body, ...(etag && { etag }), ...(lastModified && { lastModified }) };
      this.cache.storeHttpFile(url, entry);
    }
    return body;
  }

  /**
   * A checkout at the spec's ref. With the cache: a full commit, or an abbreviated one seen
   * before, needs no network; a branch or tag is re-resolved with `git ls-remote` (unless
   * offline) and the tree taken from the cache when that commit is there.
   */
  private async cloneOnce(spec: RepoSpec, signal: AbortSignal | undefined): Promise<RemoteTree> {
    const git = new GitCommand(spec, signal);
    const cache = this.cache;
    if (!cache) {
      if (this.options.offline) return this.missingOffline(spec.raw);
      const dir = await this.checkoutTemp(git);
      return { dir, fs: this.fs, commit: checkedOutCommit(dir) };
    }
    const key = `${cloneUrl(spec)}#${spec.ref}`;
    const suffix = spec.submodules ? '' : '-nosubmodules';
    const immutable = /^[0-9a-f]{7,40}$/.test(spec.ref);
    let commit = /^[0-9a-f]{40}$/.test(spec.ref) ? spec.ref : immutable || this.options.offline ? cache.lookupRef('git', key) : await git.resolve(this.tempDir());
    const hit = commit && cache.tree('git', commit + suffix);
    if (hit) return { dir: hit, fs: this.fs, commit: commit! };
    if (this.options.offline) return this.missingOffline(spec.raw, commit && `commit ${commit}`);
    const checkout = await this.checkoutTemp(git);
    commit = await git.commitOf(checkout);
    if (commit !== spec.ref) cache.recordRef('git', key, commit);
    const dir = await cache.storeTree('git', commit + suffix, spec.raw, (tree) => cpSync(checkout, tree, { recursive: true, verbatimSymlinks: true, filter: (src) => !src.startsWith(join(checkout, '.git')) }));
    return { dir, fs: this.fs, commit };
  }

  /**
   * What `write` writes of an `oci://` artifact into a directory (its tree, a layer): the
   * artifact's digest (a tag is resolved unless offline), then, with the cache, the cached
   * entry of that digest, or `write`'s pull of the artifact pinned to it; without, a temporary
   * directory. An entry is named by the digest and `suffix` (one artifact may hold layers of
   * several types: each is an entry of its own).
   */
  private async pullInto(
    ref: OciReference,
    entry: { kind: OciEntryKind; suffix: string },
    write: (ref: OciReference, dir: string, oci: OciClientOptions) => Promise<string>,
    signal: AbortSignal | undefined,
  ): Promise<{ dir: string; digest: string }> {
    const cache = this.cache;
    const oci: OciClientOptions = { ...this.options.oci, signal };
    if (!cache) {
      if (this.options.offline) return this.missingOffline(ref.raw);
      const dir = this.tempDir();
      return { dir, digest: await write(ref, dir, oci) };
    }
    const digest = ref.digest ?? (this.options.offline ? cache.lookupRef('oci', ref.raw) : await resolveDigest(ref, oci));
    const hit = digest && cache.tree(entry.kind, digest + entry.suffix);
    if (hit) return { dir: hit, digest: digest! };
    if (this.options.offline) return this.missingOffline(ref.raw, digest && `digest ${digest}`);
    const pinnedRef = { ...ref, raw: pinned(ref, digest!), digest: digest! };
    const dir = await cache.storeTree(entry.kind, digest! + entry.suffix, ref.raw, async (tree) => void (await write(pinnedRef, tree, oci)));
    if (!ref.digest) cache.recordRef('oci', ref.raw, digest!);
    return { dir, digest: digest! };
  }

  /** Pulls the artifact's tree layer (verified by digest) and writes its files into `dir`; returns the manifest digest. */
  private async unpackArtifact(ref: OciReference, dir: string, oci: OciClientOptions): Promise<string> {
    const artifact = await pullSingleLayer(ref, TREE_LAYER_TYPES, oci);
    for (const file of await readTreeArchive(artifact.bytes, ref.raw)) {
      const path = join(dir, file.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.bytes);
      if (file.executable) chmodSync(path, 0o755);
    }
    return artifact.digest;
  }

  private async checkoutTemp(git: GitCommand): Promise<string> {
    const dir = this.tempDir();
    await git.checkout(dir);
    return dir;
  }

  private tempDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'kustomize-'));
    this.tempDirs.push(dir);
    return dir;
  }

  private missingOffline(raw: string, resolved?: string | undefined | ''): never {
    const where = this.cache ? `the remote cache ${this.cache.dir}` : 'a remote cache (none was given: --remote-cache DIR)';
    throw new KustomizeError('REMOTE_FAILED', `offline: '${raw}'${resolved ? ` (${resolved})` : ''} is not in ${where}`, { remote: raw });
  }
}

/** The commit `git checkout FETCH_HEAD` left in `dir`: a detached HEAD names it (read, not asked of git). */
function checkedOutCommit(dir: string): string {
  return readFileSync(join(dir, '.git', 'HEAD'), 'utf8').trim();
}

/** The default remote source of a build with these options. */
export function nodeRemoteSourceFor(options: Readonly<RemoteOptions>): NodeRemoteSource {
  return new NodeRemoteSource({
    ...(options.remoteCache && { cacheDir: options.remoteCache }),
    ...(options.offline && { offline: true }),
    ...(options.warn && { warn: options.warn }),
  });
}

/** Runs `make` once per key for the life of the map; later callers share its promise. */
function memo<T>(map: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let p = map.get(key);
  if (!p) {
    p = make();
    map.set(key, p);
  }
  return p;
}
