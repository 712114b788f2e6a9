import { readText, type FileSystem } from '../fs/filesystem.js';
import { basename, normalize } from '../fs/path.js';
import type { EditContext } from './context.js';
import { findKustomizationFile, replaceFile } from './kustomization-file.js';
import { KustomizationDocument } from './kustomization-document.js';
import { applyEditOp, type EditOp } from './ops.js';

export interface EditOptions {
  /** called with what kustomize only logs (`resource x already in kustomization file`); also returned */
  notice?: (message: string) => void;
}

export interface EditResult {
  /** the kustomization file (absolute) */
  file: string;
  /** its new text (unchanged text when no operation changed anything) */
  text: string;
  notices: string[];
}

/**
 * Applies edits to the kustomization file in `dir` (absolute), as `kustomize edit` does: the
 * file is read as a YAML document, each operation changes only the nodes it must (comments,
 * field order and fields it does not know stay), the result is checked with the shapes the
 * build uses, and the file is replaced in one step. If any operation fails, nothing is written.
 */
export function editKustomization(fs: FileSystem, dir: string, ops: EditOp[], options: EditOptions = {}): EditResult {
  const root = normalize(dir);
  const file = findKustomizationFile(fs, root);
  const original = readText(fs, file);
  const doc = KustomizationDocument.parse(original, file);
  const notices: string[] = [];
  const ctx: EditContext = {
    fs,
    dir: root,
    fileName: basename(file),
    doc,
    notice: (m) => {
      notices.push(m);
      options.notice?.(m);
    },
  };
  for (const op of ops) applyEditOp(ctx, op);
  doc.validate();
  const text = doc.toString();
  if (text !== original) replaceFile(fs, file, text);
  return { file, text, notices };
}
