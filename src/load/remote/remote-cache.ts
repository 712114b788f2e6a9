import { createHash, randomBytes } from 'node:crypto';
import { makeDirectories } from '../../fs/disk.js';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a cache entry of a tree records about it, to detect corruption. */
interface TreeMeta {
  source: string;
  /** relative path → sha256 hex of a file, or `link:<target>` for a symlink */
  files: Record<string, string>;
}

interface HttpMeta {
  url: string;
  sha256: string;
  etag?: string;
  lastModified?: string;
}

/** A cached HTTP answer and the validators to revalidate it with. */
export interface CachedHttpFile {
  body: Uint8Array;
  etag?: string;
  lastModified?: string;
}

/** The cache's entries of OCI artifacts: unpacked trees (bases), and single layers (catalogs). */
export type OciEntryKind = 'oci' | 'oci-layer';

type TreeKind = 'git' | OciEntryKind;

/**
 * The opt-in cache of remote bases across builds (`--remote-cache DIR`), content-addressed:
 *
 * ```
 * DIR/git/<commit>/        a checkout (without .git) and meta.json listing every file's sha256
 * DIR/oci/sha256-<hex>/    an unpacked artifact, keyed by manifest digest, with meta.json
 * DIR/oci-layer/sha256-<hex>-<type>/  one layer of an artifact (a catalog), keyed by manifest digest and media type
 * DIR/http/<sha256(url)>/  a body, its sha256, ETag and Last-Modified
 * DIR/sha256/<sha256>      a file a lock pins, by the sha256 of its bytes
 * DIR/refs/<sha256(key)>   what a branch, tag or OCI tag last resolved to (for --offline)
 * ```
 *
 * Entries are written under DIR/tmp and renamed into place, so concurrent builds sharing the
 * directory never see half an entry; a second writer of the same entry keeps the first one.
 * Every read checks the entry against its meta; a corrupted entry is removed (and reported to
 * `onCorrupt`) so that it is fetched again.
 */
export class RemoteCache {
  constructor(
    readonly dir: string,
    private readonly onCorrupt: (entry: string) => void,
  ) {}

  /** The value a branch, tag or OCI tag resolved to when it was last fetched. */
  lookupRef(kind: string, key: string): string | undefined {
    try {
      const record = JSON.parse(readFileSync(this.refPath(kind, key), 'utf8')) as { kind: string; key: string; value: string };
      return record.kind === kind && record.key === key ? record.value : undefined;
    } catch {
      return undefined;
    }
  }

  recordRef(kind: string, key: string, value: string): void {
    this.writeAtomically(this.refPath(kind, key), JSON.stringify({ kind, key, value }));
  }

  /** The directory of a verified cached tree, or undefined (a corrupted one is removed). */
  tree(kind: TreeKind, id: string): string | undefined {
    const entry = this.entryPath(kind, id);
    if (!existsSync(entry)) return undefined;
    if (this.treeIsIntact(entry)) return join(entry, 'tree');
    this.discard(entry, `${kind} ${id}`);
    return undefined;
  }

  /**
   * Stores a tree that `fill` writes into the directory it is given; returns the cached tree's
   * directory (another build's, if it stored the same entry first).
   */
  async storeTree(kind: TreeKind, id: string, source: string, fill: (dir: string) => void | Promise<void>): Promise<string> {
    const staging = this.staging();
    const tree = join(staging, 'tree');
    makeDirectories(tree);
    try {
      await fill(tree);
      const meta: TreeMeta = { source, files: listTree(tree) };
      writeFileSync(join(staging, 'meta.json'), JSON.stringify(meta));
      return join(this.publish(staging, this.entryPath(kind, id), (entry) => this.treeIsIntact(entry), `${kind} ${id}`), 'tree');
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }

  /** A cached HTTP body whose content still matches its recorded digest, or undefined. */
  httpFile(url: string): CachedHttpFile | undefined {
    const entry = this.httpPath(url);
    let meta: HttpMeta;
    let body: Uint8Array;
    try {
      meta = JSON.parse(readFileSync(join(entry, 'meta.json'), 'utf8')) as HttpMeta;
      body = readFileSync(join(entry, 'body'));
    } catch {
      if (existsSync(entry)) this.discard(entry, url);
      return undefined;
    }
    if (meta.url !== url || sha256Hex(body) !== meta.sha256) {
      this.discard(entry, url);
      return undefined;
    }
    return { body, ...(meta.etag && { etag: meta.etag }), ...(meta.lastModified && { lastModified: meta.lastModified }) };
  }

  storeHttpFile(url: string, file: CachedHttpFile): void {
    const staging = this.staging();
    try {
      makeDirectories(staging);
      writeFileSync(join(staging, 'body'), file.body);
      const meta: HttpMeta = { url, sha256: sha256Hex(file.body), ...(file.etag && { etag: file.etag }), ...(file.lastModified && { lastModified: file.lastModified }) };
      writeFileSync(join(staging, 'meta.json'), JSON.stringify(meta));
      // a newer answer replaces the old one
      this.discard(this.httpPath(url));
      this.publish(staging, this.httpPath(url), () => true, url);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }

  /** The bytes kept by their sha256 (hex), when they are there and intact (a corrupted entry is removed). */
  blob(sha256: string): Uint8Array | undefined {
    const path = this.blobPath(sha256);
    let body: Uint8Array;
    try {
      body = readFileSync(path);
    } catch {
      return undefined;
    }
    if (sha256Hex(body) === sha256) return body;
    this.discard(path, `sha256 ${sha256}`);
    return undefined;
  }

  /** Keeps bytes by their sha256 (hex): a file a lock pins, so that a locked build needs no request for it. */
  storeBlob(sha256: string, body: Uint8Array): void {
    const staging = this.staging();
    makeDirectories(join(staging, '..'));
    writeFileSync(staging, body);
    makeDirectories(join(this.blobPath(sha256), '..'));
    renameSync(staging, this.blobPath(sha256));
  }

  private treeIsIntact(entry: string): boolean {
    try {
      const meta = JSON.parse(readFileSync(join(entry, 'meta.json'), 'utf8')) as TreeMeta;
      const actual = listTree(join(entry, 'tree'));
      const expected = meta.files;
      const keys = Object.keys(actual);
      return keys.length === Object.keys(expected).length && keys.every((k) => expected[k] === actual[k]);
    } catch {
      return false;
    }
  }

  /** Renames the staged entry into place; if another build got there first, keeps an intact one. */
  private publish(staging: string, entry: string, isIntact: (entry: string) => boolean, what: string): string {
    makeDirectories(join(entry, '..'));
    try {
      renameSync(staging, entry);
      return entry;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw e;
    }
    if (isIntact(entry)) return entry;
    this.discard(entry, what);
    renameSync(staging, entry);
    return entry;
  }

  /** Moves an entry out of the way (rename is atomic), then deletes it. */
  private discard(entry: string, reportAs?: string): void {
    if (!existsSync(entry)) return;
    const trash = this.staging();
    makeDirectories(join(trash, '..'));
    try {
      renameSync(entry, trash);
    } catch {
      return; // another build moved it first
    }
    rmSync(trash, { recursive: true, force: true });
    if (reportAs) this.onCorrupt(reportAs);
  }

  private writeAtomically(path: string, text: string): void {
    makeDirectories(join(path, '..'));
    const staging = this.staging();
    makeDirectories(join(staging, '..'));
    writeFileSync(staging, text);
    renameSync(staging, path);
  }

  private staging(): string {
    return join(this.dir, 'tmp', `${process.pid}-${randomBytes(8).toString('hex')}`);
  }

  private entryPath(kind: TreeKind, id: string): string {
    return join(this.dir, kind, id.replace(':', '-'));
  }

  private blobPath(sha256: string): string {
    return join(this.dir, 'sha256', sha256);
  }

  private httpPath(url: string): string {
    return join(this.dir, 'http', sha256Hex(url));
  }

  private refPath(kind: string, key: string): string {
    return join(this.dir, 'refs', sha256Hex(`${kind}\0${key}`));
  }
}

/** Every file under `dir` (relative paths) with its sha256, and symlinks with their targets. */
function listTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      const stat = lstatSync(join(dir, path));
      if (stat.isSymbolicLink()) out[path] = `link:${readlinkSync(join(dir, path))}`;
      else if (stat.isDirectory()) walk(path);
      else out[path] = sha256Hex(readFileSync(join(dir, path)));
    }
  };
  walk('');
  return out;
}

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}
