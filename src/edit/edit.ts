import { readText, type FileSystem } from '../fs/filesystem.js';
import { basename, normalize } from '../fs/path.js';
import { checkOptionNames, optionNames } from '../options.js';
import type { EditContext } from './context.js';
import { findKustomizationFile, replaceFiles } from './kustomization-file.js';
import { KustomizationDocument } from './kustomization-document.js';
import { applyEditOp, type EditOp } from './ops.js';
import { fixKustomization } from './ops/fix.js';
import { StagedFiles } from './staged-files.js';

export interface EditOptions {
  /** called with what kustomize only logs (`resource x already in kustomization file`); also returned */
  notice?: (message: string) => void;
}

const EDIT_OPTION_NAMES = optionNames<EditOptions>({ notice: true });

export interface EditResult {
  /** the kustomization file (absolute) */
  file: string;
  /** its new text (unchanged text when no operation changed anything) */
  text: string;
  notices: string[];
  /** the other files the edit rewrote (absolute; `fix` with `vars` rewrites resource files) */
  rewritten: string[];
}

/**
 * Applies edits to the kustomization file in `dir` (absolute), as `kustomize edit` does: the
 * file is read as a YAML document, each operation changes only the nodes it must (comments,
 * field order and fields it does not know stay), the result is checked with the shapes the
 * build uses, and the file (with any other file an operation rewrote) is replaced in one step.
 * If any operation fails, nothing is written. Asynchronous like the library's other entries,
 * though the work is synchronous today.
 */
export async function editKustomization(fs: FileSystem, dir: string, ops: EditOp[], options: EditOptions = {}): Promise<EditResult> {
  checkOptionNames(options, EDIT_OPTION_NAMES, 'editKustomization()');
  const root = normalize(dir);
  const file = findKustomizationFile(fs, root);
  const original = readText(fs, file);
  const doc = KustomizationDocument.parse(original, file);
  const notices: string[] = [];
  const files = new StagedFiles(fs);
  let idle = 0;
  const ctx: EditContext = {
    fs,
    dir: root,
    fileName: basename(file),
    doc,
    files,
    notice: (m) => {
      notices.push(m);
      options.notice?.(m);
    },
    nothingToWrite: () => idle++,
  };
  fixKustomization(ctx);
  for (const op of ops) applyEditOp(ctx, op);
  // when every operation found nothing to do where kustomize writes nothing, the file stays as it is
  const text = ops.length > 0 && idle >= ops.length ? original : doc.editedText();
  const changed = files.changed();
  const rewritten = [...changed.keys()];
  if (text !== original) changed.set(file, text);
  replaceFiles(fs, changed);
  return { file, text, notices, rewritten };
}
