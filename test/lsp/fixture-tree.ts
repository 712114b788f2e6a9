import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Writes `files` (path: text) under a new temporary directory; returns it and a maker of its files' URIs (the directory's own without a path). */
export function writeTree(files: Readonly<Record<string, string>>, prefix = 'kts-lsp-'): { dir: string; uri: (path?: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return { dir, uri: (path = '') => pathToFileURL(join(dir, path)).href.replace(/\/$/, '') };
}
