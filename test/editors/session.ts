/**
 * What the editor tests do with the server, and what they expect of it: the same session in
 * every editor, on a copy of test/editors/fixture (a base, and an overlay whose patch selects
 * nothing).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from '../../src/index.js';

const FIXTURE = fileURLToPath(new URL('../../../test/editors/fixture', import.meta.url));

/** the file the editor opens, in the fixture */
export const OPENED = 'overlays/prod/kustomization.yaml';

/** LSP positions (0-based) in OPENED: the definition asks at `- ../../base`, the hover at `prod-` of `namePrefix: prod-` */
export const AT_BASE = { line: 2, character: 4 };
export const AT_PREFIX = { line: 0, character: 13 };

/** the edit the preview must follow: its first line, `namePrefix: prod-`, becomes this */
export const EDIT = { line: 0, text: 'namePrefix: live-' };

/** What the server answers for OPENED's diagnostics, the hover at AT_PREFIX, the definition at AT_BASE, and "go to source" in the preview. */
export const EXPECTED = {
  /** the one diagnostic: PATCH_TARGET_UNMATCHED at `- target:` (`validate` puts it at 5:3) */
  diagnostic: { line: 4, character: 2, message: /^patches\[0\]: the target \(kind: Service\) selects no resource: the patch is not applied/ },
  /** the hover's contents: what `prod-` makes of the base's Deployment in the root's output */
  hover: /^\*\*overlays\/prod\*\*\n- `Deployment\/prod-web` `metadata\.name` = `"prod-web"` \(`namePrefix`\)$/,
  /** where the definition goes: the base's kustomization, from its start */
  definition: { file: 'base/kustomization.yaml', line: 0 },
  /** a line of the preview, and where its value was written: `prod-` of OPENED's `namePrefix: prod-` */
  source: { output: '  name: prod-web', file: OPENED, line: 0, character: 12 },
};

/** A copy of the fixture that a test may edit, in a git repository of its own: the workspace an editor finds for it. */
export function fixtureCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kustomize-ts-editor-'));
  cpSync(FIXTURE, dir, { recursive: true });
  const git = spawnSync('git', ['init', '-q'], { cwd: dir, encoding: 'utf8' });
  if (git.status !== 0) throw new Error(`git init in ${dir}: ${git.stderr}`);
  return dir;
}

/** What `kustomize-ts build` prints for the opened file's root in `dir`, as it is on disk now. */
export async function rendered(dir: string): Promise<string> {
  return (await build(join(dir, OPENED, '..'))).yaml;
}

/** OPENED in `dir`, with EDIT made: what an editor shows after making it */
export function editedText(dir: string): string {
  const lines = readFileSync(join(dir, OPENED), 'utf8').split('\n');
  lines[EDIT.line] = EDIT.text;
  return lines.join('\n');
}

export const fileUri = (dir: string, file: string): string => pathToFileURL(join(dir, file)).href;
