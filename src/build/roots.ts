import { KustomizeError } from '../errors.js';
import type { FileSystem } from '../fs/filesystem.js';
import { matchPattern } from '../fs/glob.js';
import { join } from '../fs/path.js';
import { kustomizationFilesIn } from '../load/entry.js';
import { parseYamlDocuments } from '../yaml/parse.js';

/** Directories never searched for roots. */
const NEVER_SEARCHED = new Set(['.git', 'node_modules']);

/**
 * The kustomization roots under the directory `dir` (absolute), as paths relative to it (`.`
 * for `dir` itself), in path order: every directory holding a kustomization file whose kind is
 * not `Component` (a file that does not read is a root: its build says what is wrong).
 * `.git`, `node_modules` and the directories an `exclude` pattern matches are not searched,
 * and symbolic links to directories are not followed (a link may lead back up).
 *
 * A pattern without `/` matches a directory of that name anywhere (`test`, `*-old`); one with
 * `/` matches the path from `dir` (`apps/legacy`, `clusters/*` `/prod`), where `**` stands for
 * any number of directories (`**` `/staging`). `*`, `?` and `[…]` match within a name.
 */
export function findRoots(fs: FileSystem, dir: string, exclude: readonly string[] = []): string[] {
  if (!fs.isDirectory(dir)) throw new KustomizeError('USAGE', `'${dir}' is not a directory`, { file: dir });
  const patterns = exclude.map(compileExclude);
  const roots: string[] = [];
  const visit = (rel: string): void => {
    const abs = rel === '.' ? dir : join(dir, rel);
    if (isRoot(fs, abs)) roots.push(rel);
    for (const name of fs.readDir(abs)) {
      const child = rel === '.' ? name : `${rel}/${name}`;
      const path = join(abs, name);
      if (NEVER_SEARCHED.has(name) || fs.entryType?.(path) === 'symlink' || !fs.isDirectory(path)) continue;
      if (!patterns.some((matches) => matches(child))) visit(child);
    }
  };
  visit('.');
  return roots.sort(byPath);
}

/** Paths in the order of their characters, as `sort` puts them (`.` first). */
export function byPath(a: string, b: string): number {
  if (a === '.' || b === '.') return a === b ? 0 : a === '.' ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether `dir` is a kustomization root: it holds a kustomization file whose kind is not `Component` (or which does not read). */
export function isRoot(fs: FileSystem, dir: string): boolean {
  const names = kustomizationFilesIn(fs, dir);
  if (names.length !== 1) return names.length > 1;
  let kind: unknown;
  try {
    const doc = parseYamlDocuments(new TextDecoder().decode(fs.readFile(join(dir, names[0]!))), names[0], { dialect: 'yaml11' })[0];
    kind = typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? doc['kind'] : undefined;
  } catch {
    // a kustomization that does not read is built, and its build reports why
    return true;
  }
  return kind !== 'Component';
}

/** A test of a directory's path (relative to the search's top) against one `--exclude` pattern. */
function compileExclude(pattern: string): (path: string) => boolean {
  const trimmed = pattern.replace(/^\.\/|\/+$/g, '');
  if (trimmed === '') throw new KustomizeError('USAGE', `--exclude '${pattern}' names no directory`);
  if (!trimmed.includes('/')) return (path) => path.split('/').some((name) => matchPattern(trimmed, name));
  const parts = trimmed.split('/');
  return (path) => matchParts(parts, 0, path.split('/'), 0);
}

/** Whether pattern parts from `p` on match path names from `n` on, `**` standing for any number of names. */
function matchParts(parts: readonly string[], p: number, names: readonly string[], n: number): boolean {
  if (p === parts.length) return n === names.length;
  if (parts[p] === '**') {
    for (let skip = n; skip <= names.length; skip++) if (matchParts(parts, p + 1, names, skip)) return true;
    return false;
  }
  return n < names.length && matchPattern(parts[p]!, names[n]!) && matchParts(parts, p + 1, names, n + 1);
}

/** Which part of a list `--shard I/N` takes: the I-th of N runs of consecutive items, their lengths differing by one at most. */
export interface Shard {
  /** 1-based */
  index: number;
  count: number;
}

/** Reads `--shard I/N`: 1 ≤ I ≤ N. */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) {
    throw new KustomizeError('USAGE', `--shard '${text}': expected I/N with 1 <= I <= N (the I-th of N parts), such as 1/3`);
  }
  return { index, count };
}

/**
 * The items of one shard: runs of consecutive items (roots in path order, so the overlays of one
 * base mostly stay together), balanced by count. The same list always splits the same way, and
 * the N shards together hold every item once.
 */
export function shardOf<T>(items: readonly T[], shard: Shard): T[] {
  const start = Math.floor(((shard.index - 1) * items.length) / shard.count);
  const end = Math.floor((shard.index * items.length) / shard.count);
  return items.slice(start, end);
}
