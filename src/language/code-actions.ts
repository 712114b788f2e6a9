import type { CodeAction, Diagnostic, Range, WorkspaceEdit } from 'vscode-languageserver-types';
import { editKustomization } from '../edit/edit.js';
import type { DiagnosticData } from './diagnostics.js';
import { textOf } from './error-place.js';
import { OverlayFileSystem } from './overlay-fs.js';
import { rangesMeet, replacingEdit } from './text-range.js';
import type { Workspace } from './workspace.js';

/**
 * Quick fixes for the diagnostics at `range`: a deprecated field's is `edit fix` in its
 * kustomization's directory (for `vars`, also `edit fix --vars`), as a workspace edit that turns
 * each file into what the command would write. Nothing is written: the edit runs over the
 * editor's files with its writes kept in memory.
 */
export async function codeActions(ws: Workspace, range: Range, diagnostics: readonly Diagnostic[], uriOf: (path: string) => string): Promise<CodeAction[]> {
  const actions: CodeAction[] = [];
  const seen = new Set<string>();
  for (const diagnostic of diagnostics) {
    const fix = (diagnostic.data as DiagnosticData | undefined)?.fix;
    if (!fix || !rangesMeet(diagnostic.range, range)) continue;
    for (const vars of fix.field === 'vars' ? [false, true] : [false]) {
      const key = `${fix.dir} ${vars}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const edit = await fixEdit(ws, fix.dir, vars, uriOf);
      if (!edit) continue;
      actions.push({ title: `Run kustomize-ts edit fix${vars ? ' --vars' : ''}`, kind: 'quickfix', diagnostics: [diagnostic], isPreferred: !vars, edit });
    }
  }
  return actions;
}

/** The edit `edit fix` makes in `dir`; undefined when it cannot (a kustomization it refuses, vars it cannot convert). */
async function fixEdit(ws: Workspace, dir: string, vars: boolean, uriOf: (path: string) => string): Promise<WorkspaceEdit | undefined> {
  const scratch = new OverlayFileSystem(ws.fs);
  try {
    await editKustomization(scratch, dir, [{ op: 'fix', ...(vars && { vars }) }]);
  } catch {
    return undefined;
  }
  const changes: NonNullable<WorkspaceEdit['changes']> = {};
  for (const [path, bytes] of scratch.changes()) {
    const before = textOf(ws.fs, path);
    if (bytes === undefined || before === undefined) continue;
    const after = new TextDecoder().decode(bytes);
    if (after !== before) changes[uriOf(path)] = [replacingEdit(before, after)];
  }
  return Object.keys(changes).length > 0 ? { changes } : undefined;
}
