/**
 * editors/neovim with Debian's Neovim as a real language client: Neovim runs headless, sets the
 * plugin up as docs/editor.md says, and drives the server through test/editors/neovim-session.lua
 * (diagnostics, hover, definition, :KustomizePreview following an edit); this test asserts what
 * Neovim saw.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCommand } from '../cli/run-command.js';
import { requireTool } from '../require-tool.js';
import { languageServer, languageServerCommand } from './language-server.js';
import { AT_BASE, AT_PREFIX, EDIT, EXPECTED, OPENED, fileUri, fixtureCopy, rendered } from './session.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const neovim = requireTool('neovim');

interface Location {
  uri: string;
  range: { start: { line: number; character: number } };
}

/** what the session wrote: what Neovim saw */
interface Seen {
  error?: string;
  filetype: string;
  clients: number;
  root_dir: string;
  diagnostics: { line: number; col: number; severity: number; message: string }[];
  hover: { contents: { kind: string; value: string } };
  definition: Location | Location[];
  /** why the definition request failed, if it did */
  definition_error?: string;
  preview: { text: string; shown: boolean; modifiable: boolean; filetype: string; focus_stayed: boolean };
  preview_after_edit: string;
  /** where `gd` on EXPECTED.source.output in the preview went */
  source: { file: string; line: number; col: number };
}

test('Neovim, with editors/neovim, gets diagnostics, hover, definition and a preview that follows edits', { skip: neovim.skip || languageServer.skip, timeout: 120_000 }, async (t) => {
  const dir = fixtureCopy();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'seen.json');
  const session = { plugin: join(REPO, 'editors', 'neovim'), cmd: languageServerCommand(), file: join(dir, OPENED), out, hover: AT_PREFIX, definition: AT_BASE, edit: EDIT, source: EXPECTED.source.output };
  const before = await rendered(dir);
  const run = await runCommand(neovim.path, ['--headless', '--clean', '-n', '-i', 'NONE', '-c', `luafile ${join(REPO, 'test', 'editors', 'neovim-session.lua')}`], {
    cwd: dir,
    // Neovim's own files (its LSP log) in the copy, not in the home directory
    env: { ...process.env, XDG_CACHE_HOME: dir, XDG_STATE_HOME: dir, XDG_DATA_HOME: dir, KUSTOMIZE_TS_NVIM_SESSION: JSON.stringify(session) },
  });
  const seen = JSON.parse(readFileSync(out, 'utf8')) as Seen;
  assert.equal(seen.error, undefined, `the session failed: ${seen.error}\n${run.stderr}`);
  assert.equal(run.status, 0, run.stderr);

  assert.equal(seen.filetype, 'yaml');
  assert.equal(seen.clients, 1, 'one server attached to the buffer');
  assert.equal(seen.root_dir, dir, 'its workspace: the repository the file is in');
  assert.equal(seen.diagnostics.length, 1, JSON.stringify(seen.diagnostics));
  const [diagnostic] = seen.diagnostics;
  assert.deepEqual([diagnostic!.line, diagnostic!.col], [EXPECTED.diagnostic.line, EXPECTED.diagnostic.character]);
  assert.match(diagnostic!.message, EXPECTED.diagnostic.message);
  assert.match(seen.hover.contents.value, EXPECTED.hover);

  assert.equal(seen.preview.text, before, 'the preview is what build prints');
  assert.deepEqual([seen.preview.shown, seen.preview.modifiable, seen.preview.filetype, seen.preview.focus_stayed], [true, false, 'yaml', true]);
  assert.deepEqual(seen.source, { file: join(dir, EXPECTED.source.file), line: EXPECTED.source.line, col: EXPECTED.source.character }, '`gd` in the preview goes to the source of the line');
  // the session saved the edit: the file on disk is what Neovim shows
  const after = await rendered(dir);
  assert.match(after, /name: live-web/);
  assert.equal(seen.preview_after_edit, after, 'the preview followed the edit');

  assert.equal(seen.definition_error, undefined, 'the definition');
  const [definition] = Array.isArray(seen.definition) ? seen.definition : [seen.definition];
  assert.equal(definition!.uri, fileUri(dir, EXPECTED.definition.file));
  assert.equal(definition!.range.start.line, EXPECTED.definition.line);
});
