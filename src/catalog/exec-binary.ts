import { chmodSync, existsSync, renameSync, writeFileSync } from 'node:fs';
import { makeDirectories } from '../fs/disk.js';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { KustomizeError } from '../errors.js';
import { readTreeArchive, sha256Digest } from '../oci/index.js';
import { normalizeSha256, type ExecPlatform } from './catalog.js';
import type { LoadedCatalog } from './catalog-store.js';

/** The cache directory: the build's choice, else $XDG_CACHE_HOME/kustomize-ts, else ~/.cache/kustomize-ts. */
export function cacheDirectory(chosen: string | undefined): string {
  if (chosen) return chosen;
  const xdg = process.env['XDG_CACHE_HOME'];
  return join(xdg || join(homedir(), '.cache'), 'kustomize-ts');
}

/** Where an exec function's program comes from, and what is shown about it. */
interface ExecSource {
  platform: ExecPlatform;
  catalog: LoadedCatalog;
  /** names the function in messages */
  describe: string;
}

/**
 * The path of a runnable copy of an exec function's program, made once per digest under
 * `cacheDir/exec/<sha256>/` and reused from there (also offline). A download is checked
 * against the catalog's sha256 before anything is written: on a mismatch it is an error and
 * the program never reaches the disk. A `.tar.gz` (or `.tgz`) is unpacked and its `bin` kept.
 */
export async function executablePath(source: ExecSource, cacheDir: string): Promise<string> {
  const { platform, describe } = source;
  const digest = normalizeSha256(platform.sha256)!;
  source.catalog.usesExec(platform.uri, digest);
  const dir = join(cacheDir, 'exec', digest.replace(':', '-'));
  const path = join(dir, basename(platform.bin));
  if (existsSync(path)) return path;
  const bytes = await source.catalog.readUri(platform.uri, describe, digest.slice('sha256:'.length));
  const actual = await sha256Digest(bytes);
  if (actual !== digest) {
    throw new KustomizeError(
      'DIGEST_MISMATCH',
      `${describe}: ${platform.uri} has digest ${actual}, but catalog '${source.catalog.reference.raw}' says ${digest}; it was not run`,
      { remote: source.catalog.reference.raw },
    );
  }
  const program = isArchive(platform.uri) ? await programInArchive(bytes, platform, describe) : bytes;
  makeDirectories(dir);
  // written aside and renamed, so a concurrent build never runs half a file
  const temp = `${path}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(temp, program);
  chmodSync(temp, 0o755);
  renameSync(temp, path);
  return path;
}

function isArchive(uri: string): boolean {
  return /\.(tar\.gz|tgz)$/i.test(new URL(uri, 'file:///').pathname);
}

async function programInArchive(bytes: Uint8Array, platform: ExecPlatform, describe: string): Promise<Uint8Array> {
  const files = await readTreeArchive(bytes, platform.uri);
  const wanted = platform.bin.replace(/^\.\//, '');
  const found = files.find((f) => f.path === wanted);
  if (!found) {
    throw new KustomizeError('PLUGIN_NOT_FOUND', `${describe}: ${platform.uri} holds no '${platform.bin}' (it holds: ${files.map((f) => f.path).join(', ') || 'nothing'})`, {
      remote: platform.uri,
    });
  }
  return found.bytes;
}
