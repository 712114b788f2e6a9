import { readText, type FileSystem } from '../fs/filesystem.js';
import { normalize } from '../fs/path.js';

/**
 * The files an edit changes besides the kustomization (the resource files `edit fix` with `vars`
 * puts placeholders in): their new texts are held here, and read back by later steps of the same
 * edit, until the edit writes them together with the kustomization.
 */
export class StagedFiles {
  private readonly texts = new Map<string, string>();

  constructor(private readonly fs: FileSystem) {}

  /** The file's text as the edit has left it so far; undefined when it is not a readable file. */
  read(path: string): string | undefined {
    const p = normalize(path);
    const staged = this.texts.get(p);
    if (staged !== undefined) return staged;
    if (!this.fs.exists(p) || this.fs.isDirectory(p)) return undefined;
    try {
      return readText(this.fs, p);
    } catch {
      return undefined;
    }
  }

  write(path: string, text: string): void {
    this.texts.set(normalize(path), text);
  }

  /** path (absolute) → new text, for the files whose text changed */
  changed(): Map<string, string> {
    return new Map([...this.texts].filter(([path, text]) => text !== this.readOriginal(path)));
  }

  private readOriginal(path: string): string | undefined {
    try {
      return readText(this.fs, path);
    } catch {
      return undefined;
    }
  }
}
