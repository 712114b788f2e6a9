import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before } from 'node:test';
import { pathToFileURL } from 'node:url';
import { LspClient } from './client.js';

/** Writes `files` (path: text) under a new temporary directory; returns it and a maker of its files' URIs (the directory's own without a path). */
export function writeTree(files: Readonly<Record<string, string>>, prefix = 'kts-lsp-'): { dir: string; uri: (path?: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return { dir, uri: (path = '') => pathToFileURL(join(dir, path)).href.replace(/\/$/, '') };
}

/**
 * The server on a tree for a test file: started on `folder` before its tests (`ready`, such as a
 * listener, runs before the roots are built and waited for), stopped after them, and `dir` removed.
 * Returns the client, for the tests to ask once started.
 */
export function serverOn(dir: string, folder: string, ready: (client: LspClient) => void = () => {}): () => LspClient {
  let client: LspClient | undefined;
  before(async () => {
    client = await LspClient.start([folder]);
    ready(client);
    await client.settled();
  });
  after(async () => {
    if (client && client.process.exitCode === null) await client.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return () => client!;
}
