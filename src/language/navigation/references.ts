import type { Position } from 'vscode-languageserver-types';
import type { Resource } from '../../model/resource.js';
import { textOf } from '../error-place.js';
import type { Workspace } from '../workspace.js';
import { nameReferencesTo } from './name-references.js';
import { pathReferences } from './path-references.js';
import { distinctPlaces, exactPlaceOf, nameOrigin, placeOf, renderedReading, resourcesWrittenAt, startOf, type FilePlace, type RenderedRoot } from './rendered.js';
import { selectionsReader, type Selection } from './selections.js';
import { isCompositionFile, kustomizationsRead, readable } from './workspace-files.js';

/** A resource of a root's output, and the root. */
export interface RenderedResource {
  rendered: RenderedRoot;
  resource: Resource;
}

/**
 * What refers to what is under the cursor:
 * - on a resource's `metadata.name` or `kind` in its file (or a generator's `name`): the patches
 *   (a target, a patch's own name), the replacements (a source, a target's `select`) and the name
 *   references of other resources that touch it, in each root that renders it (and its own name,
 *   with `declaration`);
 * - elsewhere in a file: the entries of the kustomizations (Compositions) that name it, and the
 *   kustomization file of each root whose build read it.
 */
export async function references(ws: Workspace, path: string, position: Position, declaration: boolean): Promise<FilePlace[]> {
  if (textOf(ws.fs, path) === undefined) return [];
  const named = await resourcesAt(ws, path, position, ['metadata.name', 'kind']);
  if (named.length === 0) return fileReferences(ws, path);
  const selections = selectionsReader(ws);
  const found = named.flatMap(({ rendered, resource }) => [
    ...(declaration ? [nameOrigin(rendered, resource) ?? []].flat() : []).flatMap((w) => placeOf(ws, w) ?? []),
    ...touching(rendered, resource, selections).flatMap((t) => placeOf(ws, t.at) ?? []),
    // a reference's value may have been last written by a step (a prefix): only where a file holds the name
    ...nameReferencesTo(rendered, resource).flatMap((w) => exactPlaceOf(ws, w) ?? []),
  ]);
  return distinctPlaces(found);
}

/**
 * The resources, in each root reading the file (the first few; with `every`, all), whose
 * `fields` (`metadata.name`…) were first written at the position (a resource file's, a generator's name).
 */
export async function resourcesAt(ws: Workspace, path: string, position: Position, fields: readonly string[], every = false): Promise<RenderedResource[]> {
  return (await renderedReading(ws, path, every)).flatMap((rendered) =>
    resourcesWrittenAt(rendered, path, position.line + 1, position.character + 1, fields).map((resource) => ({ rendered, resource })),
  );
}

/** What, in the kustomizations a root read, selects the resource: its patches and replacements, with the names they select it by. */
export function touching(rendered: RenderedRoot, resource: Resource, selections: (kustomization: string) => Selection[]): Selection[] {
  return kustomizationsRead(rendered.root).flatMap((k) => selections(k).filter((s) => s.select(rendered.index.resources).includes(resource)));
}

/** The entries that name the file in the kustomizations (and Compositions) the builds that read it read, and those roots' kustomization files. */
function fileReferences(ws: Workspace, path: string): FilePlace[] {
  const roots = ws.rootsReading(path);
  const files = new Set(roots.flatMap((r) => [...kustomizationsRead(r), ...[...(r.outcome?.asked ?? [])].filter(isCompositionFile)]));
  const found: FilePlace[] = [];
  for (const file of files) {
    const text = textOf(ws.fs, file);
    if (text === undefined) continue;
    for (const reference of pathReferences(ws.fs, file, text, readable(ws, file))) if ('file' in reference.target && reference.target.file === path) found.push({ file, range: reference.range });
  }
  for (const root of roots) found.push(startOf(root.kustomization));
  return distinctPlaces(found);
}
