import type { Position, Range, TextEdit } from 'vscode-languageserver-types';
import { rangesMeet } from '../text-range.js';
import type { Workspace } from '../workspace.js';
import { nameReferencesTo } from './name-references.js';
import { distinctPlaces, exactPlaceOf, nameOrigin, type FilePlace, type WrittenString } from './rendered.js';
import { resourcesAt, touching, type RenderedResource } from './references.js';
import { selectionsReader } from './selections.js';

/** Why a rename cannot be made: the position is on no name it can rename, or the new name cannot be one. */
export class RenameRefused extends Error {}

/** A name a rename may change: where it is written, as written, and the resources it names in the roots that render it. */
interface RenamedName {
  range: Range;
  name: string;
  resources: RenderedResource[];
}

/** A name a resource may have in every kind: letters, digits, `-`, `.`, `_`, `:` (an RBAC role's `system:…`), and no mark at either end. */
const NAME = /^[A-Za-z0-9]([A-Za-z0-9._:-]*[A-Za-z0-9])?$/;

/** The resource name under the cursor that a rename may change, and where it is written; refused elsewhere. */
export async function prepareRename(ws: Workspace, path: string, position: Position): Promise<{ range: Range; placeholder: string }> {
  const { range, name } = await renamedName(ws, path, position);
  return { range, placeholder: name };
}

/**
 * Renames the resource whose `metadata.name` is under the cursor, in its resource file (or whose
 * generator's `name` is, in its kustomization): the edits, by file, that change the name there
 * and wherever a source file names the resource by it, as written: the patches that select it (a target's `name`, a strategic-merge patch's own
 * `metadata.name`), the replacements (a source's, a target's `select`'s `name`), the fields of
 * other resources that refer to it by name, in every root that renders it. A name some step made
 * (a prefix, a suffix, a hash) is not written anywhere, a pattern is not the name, and a target
 * that selects other resources too must keep selecting them: none is changed.
 */
export async function rename(ws: Workspace, path: string, position: Position, newName: string): Promise<Map<string, TextEdit[]>> {
  if (!NAME.test(newName)) throw new RenameRefused(`'${newName}' cannot be a resource's name: letters, digits, '-', '.', '_' or ':', starting and ending with a letter or digit`);
  const { name, resources } = await renamedName(ws, path, position);
  const selections = selectionsReader(ws);
  const renamed = new Set(resources.map((r) => r.resource));
  const written: WrittenString[] = resources.flatMap(({ rendered, resource }) => [
    nameOrigin(rendered, resource) ?? [],
    // a target that also selects other resources (`name: web` of any kind) would stop selecting them: it keeps its name
    ...touching(rendered, resource, selections)
      .filter((s) => s.select(rendered.index.resources).every((r) => renamed.has(r)))
      .flatMap((t) => t.names),
    ...nameReferencesTo(rendered, resource),
  ].flat());
  const places = distinctPlaces(written.filter((w) => w.value === name).flatMap((w) => exactPlaceOf(ws, w) ?? []));
  const edits = new Map<string, TextEdit[]>();
  for (const place of places) edits.set(place.file, [...(edits.get(place.file) ?? []), { range: place.range, newText: newName }]);
  return edits;
}

/** The name under the cursor: a resource's `metadata.name` as its resource file (its generator) first wrote it. */
async function renamedName(ws: Workspace, path: string, position: Position): Promise<RenamedName> {
  const resources = await resourcesAt(ws, path, position, ['metadata.name'], true);
  const here = (place: FilePlace | undefined) => place !== undefined && place.file === path && rangesMeet(place.range, { start: position, end: position });
  for (const { rendered, resource } of resources) {
    const origin = nameOrigin(rendered, resource);
    const place = origin && exactPlaceOf(ws, origin);
    if (origin && place && here(place)) return { range: place.range, name: origin.value, resources: resources.filter((r) => nameOrigin(r.rendered, r.resource)?.value === origin.value) };
  }
  throw new RenameRefused("Only a resource's name can be renamed: its metadata.name in its resource file, or a generator's name");
}
