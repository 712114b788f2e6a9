import { KustomizeError } from '../errors.js';
import type { EntryType, FileSystem } from './filesystem.js';
import { basename, dirname, normalize } from './path.js';

const encoder = new TextEncoder();

/**
 * A file system held in memory: for tests, browsers and tools that hold their manifests
 * elsewhere. Directories exist implicitly above every file; symlinks are `link(from, to)`.
 */
export class MemoryFileSystem implements FileSystem {
  private readonly files = new Map<string, { data: Uint8Array; executable: boolean }>();
  private readonly dirs = new Set<string>(['/']);
  private readonly links = new Map<string, string>();

  /** Creates a file system from `{ "path": "content" }`, paths relative to `/`. */
  static from(tree: Record<string, string | Uint8Array>): MemoryFileSystem {
    const fs = new MemoryFileSystem();
    for (const [p, content] of Object.entries(tree)) fs.writeFile(normalize('/' + p), content);
    return fs;
  }

  readFile(path: string): Uint8Array {
    const f = this.files.get(this.resolveLinks(path));
    if (!f) throw notFound(path);
    return f.data;
  }
  exists(path: string): boolean {
    const p = this.resolveLinks(path);
    return this.files.has(p) || this.dirs.has(p);
  }
  isDirectory(path: string): boolean {
    return this.dirs.has(this.resolveLinks(path));
  }
  readDir(path: string): string[] {
    const dir = this.resolveLinks(path);
    if (!this.dirs.has(dir)) throw notFound(path);
    const prefix = dir === '/' ? '/' : dir + '/';
    const names = new Set<string>();
    for (const p of [...this.files.keys(), ...this.dirs, ...this.links.keys()]) {
      if (p.startsWith(prefix) && p.length > prefix.length) names.add(p.slice(prefix.length).split('/')[0]!);
    }
    return [...names].sort();
  }
  realPath(path: string): string {
    const p = this.resolveLinks(path);
    if (!this.files.has(p) && !this.dirs.has(p)) throw notFound(path);
    return p;
  }
  entryType(path: string): EntryType | undefined {
    let parent: string;
    try {
      parent = this.resolveLinks(dirname(normalize(path)));
    } catch {
      return undefined; // a loop of links on the way: nothing is there
    }
    const p = (parent === '/' ? '/' : parent + '/') + basename(path);
    if (this.links.has(p)) return 'symlink';
    return this.files.has(p) ? 'file' : this.dirs.has(p) ? 'directory' : undefined;
  }
  isExecutable(path: string): boolean {
    return this.files.get(this.resolveLinks(path))?.executable ?? false;
  }
  writeFile(path: string, data: Uint8Array | string, executable = false): void {
    const p = normalize(path);
    this.mkdirAll(dirname(p));
    this.files.set(p, { data: typeof data === 'string' ? encoder.encode(data) : data, executable });
  }
  mkdirAll(path: string): void {
    for (let p = normalize(path); !this.dirs.has(p); p = dirname(p)) this.dirs.add(p);
  }
  rename(from: string, to: string): void {
    const source = normalize(from);
    const f = this.files.get(source);
    if (!f) throw notFound(from);
    this.writeFile(to, f.data, f.executable);
    this.files.delete(source);
  }
  remove(path: string): void {
    this.files.delete(normalize(path));
  }
  /** Makes `from` a symbolic link to `to` (absolute). */
  link(from: string, to: string): void {
    const p = normalize(from);
    this.mkdirAll(dirname(p));
    this.links.set(p, normalize(to));
  }
  /** Every file, for copying a tree elsewhere. */
  entries(): [string, Uint8Array][] {
    return [...this.files].map(([p, f]) => [p, f.data]);
  }

  /** The path with every symbolic link on it (including links to links) replaced by its target. */
  private resolveLinks(path: string): string {
    let hops = 0;
    const resolveFrom = (p: string): string => {
      const parts = normalize(p).split('/').filter(Boolean);
      let cur = '';
      for (let i = 0; i < parts.length; i++) {
        cur = `${cur}/${parts[i]}`;
        const target = this.links.get(cur);
        if (target !== undefined) {
          if (++hops > 40) throw new KustomizeError('FILE_INVALID', `too many levels of symbolic links: ${path}`, { file: path });
          return resolveFrom([target, ...parts.slice(i + 1)].join('/'));
        }
      }
      return cur || '/';
    };
    return resolveFrom(path);
  }
}

function notFound(path: string): KustomizeError {
  return new KustomizeError('FILE_NOT_FOUND', `'${path}' doesn't exist`, { file: path });
}
