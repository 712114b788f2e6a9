import type { Range } from 'vscode-languageserver-types';
import { textOf } from '../error-place.js';
import type { Workspace } from '../workspace.js';
import { pathReferences } from './path-references.js';
import { readable } from './workspace-files.js';

/** A link of a document: a path it names to the file (absolute), or a URL to itself. */
export interface PathLink {
  range: Range;
  target: { file: string } | { url: string };
}

/** The links of a kustomization, Composition or Catalog: every path it names that is there (a directory to its kustomization file), every http(s) URL. */
export function documentLinks(ws: Workspace, path: string): PathLink[] {
  const text = textOf(ws.fs, path);
  return text === undefined ? [] : pathReferences(ws.fs, path, text, readable(ws, path));
}
