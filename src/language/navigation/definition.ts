import type { Position } from 'vscode-languageserver-types';
import { isKustomizationFile, textOf } from '../error-place.js';
import type { Workspace } from '../workspace.js';
import { pathReferences, referenceAt } from './path-references.js';
import { distinctPlaces, nameOrigin, placeOf, renderedRoot, rootsAsked, startOf, type FilePlace } from './rendered.js';
import { selectionsReader } from './selections.js';
import { kustomizationsRead, readable } from './workspace-files.js';

/**
 * Where what is under the cursor is defined:
 * - a path a kustomization, Composition or Catalog names: the file (a directory's kustomization
 *   file), from its start;
 * - a patch's `target`, a strategic-merge patch's `metadata.name` (in its file, or inline), a
 *   replacement's `source` or a target's `select`: each resource it selects in the builds of the
 *   roots that read the file, at the name the resource's source file (or its generator) wrote.
 * Nothing for a URL (a document link opens it), nor where nothing is written.
 */
export async function definition(ws: Workspace, path: string, position: Position): Promise<FilePlace[]> {
  const text = textOf(ws.fs, path);
  if (text === undefined) return [];
  const reference = referenceAt(pathReferences(ws.fs, path, text, readable(ws, path)), position.line, position.character);
  if (reference) return 'file' in reference.target ? [startOf(reference.target.file)] : [];
  const found: FilePlace[] = [];
  const selections = selectionsReader(ws);
  for (const root of rootsAsked(ws, path)) {
    const kustomizations = isKustomizationFile(path) ? [path] : kustomizationsRead(root);
    const here = kustomizations.flatMap(selections).filter(({ lines: { file, from, to } }) => file === path && from <= position.line && position.line <= to);
    // the root's records are asked for only when something here selects
    if (here.length === 0) continue;
    const rendered = await renderedRoot(ws, root);
    for (const selection of here) {
      for (const resource of selection.select(rendered.index.resources)) {
        const origin = nameOrigin(rendered, resource);
        const place = origin && placeOf(ws, origin);
        if (place) found.push(place);
      }
    }
  }
  return distinctPlaces(found);
}
