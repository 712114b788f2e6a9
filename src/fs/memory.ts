import type { EntryType, FileSystem } from './filesystem.js';
import { dirname, normalize } from './path.js';
import { fileNotFound, TreeFileSystem } from './tree.js';

const encoder = new TextEncoder();

/**
 * A file system held in memory: for tests, browsers and tools that hold their manifests
 * elsewhere. Directories exist implicitly above every file; symlinks are `link(from, to)`.
 */
export class MemoryFileSystem extends TreeFileSystem implements FileSystem {
  private readonly files = new Map<string, { data: Uint8Array; executable: boolean }>();
  private readonly dirs = new Set<string>(['/']);
  private readonly links = new Map<string, string>();

  constructor() {
    super('/');
  }

  /** Creates a file system from `{ "path": "content" }`, paths relative to `/`. */
  static from(tree: Record<string, string | Uint8Array>): MemoryFileSystem {
    const fs = new MemoryFileSystem();
    for (const [p, content] of Object.entries(tree)) fs.writeFile(normalize('/' + p), content);
    return fs;
  }

  protected typeOf(path: string): EntryType | undefined {
    if (this.links.has(path)) return 'symlink';
    return this.files.has(path) ? 'file' : this.dirs.has(path) ? 'directory' : undefined;
  }
  protected readLink(path: string): string {
    return this.links.get(path)!;
  }
  protected contentOf(path: string): Uint8Array {
    return this.files.get(path)!.data;
  }
  protected namesIn(dir: string): string[] {
    const prefix = dir === '/' ? '/' : dir + '/';
    const names = new Set<string>();
    for (const p of [...this.files.keys(), ...this.dirs, ...this.links.keys()]) {
      if (p.startsWith(prefix) && p.length > prefix.length) names.add(p.slice(prefix.length).split('/')[0]!);
    }
    return [...names].sort();
  }
  protected executableAt(path: string): boolean {
    return this.files.get(path)!.executable;
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
    if (!f) throw fileNotFound(from);
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
}
