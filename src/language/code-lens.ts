import type { CodeLens } from 'vscode-languageserver-types';
import { isKustomizationFile, textOf } from './error-place.js';
import type { RootOutcome } from './root-build.js';
import type { Workspace } from './workspace.js';

/** The client command that opens a root's rendered output (the VS Code extension registers it; its argument: the kustomization's URI). */
const PREVIEW_COMMAND = 'kustomize.preview';

/**
 * The lenses of a kustomization file, at its first line: for a root, how many resources its last
 * build made (or that it failed, or is not built yet); for another (a Component, one outside
 * the roots), that it is not a root; `Preview` where a root renders it; and how many roots'
 * last builds read it. Lenses that only tell have an empty command: nothing runs.
 */
export function codeLenses(ws: Workspace, path: string, uri: string): CodeLens[] {
  const text = isKustomizationFile(path) ? textOf(ws.fs, path) : undefined;
  if (text === undefined) return [];
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const lens = (title: string, command = '', args?: unknown[]): CodeLens => ({ range, command: { title, command, ...(args && { arguments: args }) } });
  const root = ws.allRoots().find((r) => r.kustomization === path);
  const readers = ws.rootsReading(path);
  const lenses = [lens(root ? builtTitle(root.outcome) : /^kind:\s*["']?Component["']?\s*(#.*)?$/m.test(text) ? 'Component: not a root' : 'not a root')];
  if (root || readers.length > 0) lenses.push(lens('Preview', PREVIEW_COMMAND, [uri]));
  lenses.push(lens(readers.length === 0 ? 'rendered by no root' : `rendered by ${readers.length} root${readers.length === 1 ? '' : 's'}`));
  return lenses;
}

function builtTitle(outcome: RootOutcome | undefined): string {
  if (!outcome) return 'not built yet';
  if (!outcome.built || !outcome.output) return 'build failed';
  const n = outcome.output.resources.length;
  return `${n} resource${n === 1 ? '' : 's'}`;
}
