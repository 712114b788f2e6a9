import { textOf } from '../error-place.js';
import type { Workspace } from '../workspace.js';
import { pathReferences, type PathReference } from './path-references.js';
import { readable } from './workspace-files.js';

/** The links of a kustomization, Composition or Catalog: every path it names that is there (a directory to its kustomization file), every http(s) URL. */
export function documentLinks(ws: Workspace, path: string): PathReference[] {
  const text = textOf(ws.fs, path);
  return text === undefined ? [] : pathReferences(ws.fs, path, text, readable(ws, path));
}
