import type { EntryType, FileSystem } from '../fs/filesystem.js';
import { dirname, normalize } from '../fs/path.js';
import { fileNotFound } from '../fs/tree.js';

const encoder = new TextEncoder();

/**
 * A file system whose files held in memory lie over another's: an editor's unsaved texts over
 * the disk (a build reads what the editor shows), or an edit's output over the editor's files
 * (a code action computes a file without writing it). Writes, renames and removals stay in
 * memory; the file system below is only read.
 */
export class OverlayFileSystem implements FileSystem {
  private readonly files = new Map<string, Uint8Array>();
  /** files of the file system below that were removed here */
  private readonly removed = new Set<string>();
  /** the directories above the files held here, with how many files each holds at any depth */
  private readonly dirs = new Map<string, number>();
  readonly isTheDisk?: boolean;
  readonly entryType: (path: string) => EntryType | undefined;

  constructor(private readonly below: FileSystem) {
    if (below.isTheDisk) this.isTheDisk = true;
    this.entryType = (path) => (this.files.has(path) ? 'file' : this.removed.has(path) ? undefined : (below.entryType?.(path) ?? (this.dirs.has(path) ? 'directory' : undefined)));
  }

  /** Holds `text` at `path`, over what the file system below has there. */
  set(path: string, text: string | Uint8Array): void {
    const p = normalize(path);
    if (!this.files.has(p)) for (let d = dirname(p); ; d = dirname(d)) {
      this.dirs.set(d, (this.dirs.get(d) ?? 0) + 1);
      if (d === '/' || d === '.') break;
    }
    this.files.set(p, typeof text === 'string' ? encoder.encode(text) : text);
    this.removed.delete(p);
  }

  /** Forgets what is held at `path`: the file system below shows through again. */
  unset(path: string): void {
    const p = normalize(path);
    if (this.files.delete(p)) for (let d = dirname(p); ; d = dirname(d)) {
      const n = this.dirs.get(d)! - 1;
      if (n === 0) this.dirs.delete(d);
      else this.dirs.set(d, n);
      if (d === '/' || d === '.') break;
    }
    this.removed.delete(p);
  }

  /** The paths written or removed here, with their texts (undefined: removed). */
  changes(): Map<string, Uint8Array | undefined> {
    return new Map<string, Uint8Array | undefined>([...this.files, ...[...this.removed].map((p): [string, undefined] => [p, undefined])]);
  }

  readFile(path: string): Uint8Array {
    const held = this.files.get(path);
    if (held) return held;
    if (this.removed.has(path)) throw fileNotFound(path);
    return this.below.readFile(path);
  }
  exists(path: string): boolean {
    return this.files.has(path) || this.dirs.has(path) || (!this.removed.has(path) && this.below.exists(path));
  }
  isDirectory(path: string): boolean {
    return this.dirs.has(path) || this.below.isDirectory(path);
  }
  readDir(path: string): string[] {
    const names = new Set<string>();
    if (this.below.isDirectory(path)) for (const name of this.below.readDir(path)) names.add(name);
    else if (!this.dirs.has(path)) return this.below.readDir(path);
    const prefix = path === '/' ? '/' : `${path}/`;
    for (const p of [...this.files.keys(), ...this.dirs.keys()]) if (p.startsWith(prefix) && p.length > prefix.length) names.add(p.slice(prefix.length).split('/')[0]!);
    for (const p of this.removed) if (dirname(p) === path) names.delete(p.slice(prefix.length));
    return [...names].sort();
  }
  realPath(path: string): string {
    // a file only held here is where it is named (the editor's new file in a new directory)
    if (this.files.has(path) || this.dirs.has(path)) {
      try {
        return this.below.realPath(path);
      } catch {
        return normalize(path);
      }
    }
    if (this.removed.has(path)) throw fileNotFound(path);
    return this.below.realPath(path);
  }
  isExecutable(path: string): boolean {
    return !this.files.has(path) && !this.removed.has(path) && (this.below.isExecutable?.(path) ?? false);
  }
  writeFile(path: string, data: Uint8Array | string): void {
    this.set(path, data);
  }
  mkdirAll(): void {
    // directories hold what is written below them: none is made empty
  }
  rename(from: string, to: string): void {
    this.set(to, this.readFile(normalize(from)));
    this.remove(from);
  }
  remove(path: string): void {
    const p = normalize(path);
    const below = this.below.exists(p);
    this.unset(p);
    if (below) this.removed.add(p);
  }
}
