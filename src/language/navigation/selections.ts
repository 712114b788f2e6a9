import type { FileSystem } from '../../fs/filesystem.js';
import { dirname, resolve } from '../../fs/path.js';
import { selectTargets, targetByPatchId } from '../../filters/patch-targets.js';
import { resourcesFromValues } from '../../model/resource-factory.js';
import type { ResourceMap } from '../../model/resource-map.js';
import type { Resource } from '../../model/resource.js';
import type { Selector } from '../../model/selector.js';
import { heldTextStart } from '../../pipeline/config-positions.js';
import { selectSource, TargetSelector, type TargetIdMatching } from '../../replacements/select.js';
import { placedText, START, type PlacedText, type TextPosition } from '../../yaml/positions.js';
import { isMap, isSeq, type Value, type YMap } from '../../yaml/value.js';
import { textOf } from '../error-place.js';
import { profileOf } from '../settings.js';
import type { Workspace } from '../workspace.js';
import { linesOf } from '../text-range.js';
import type { WrittenString } from './rendered.js';
import { readable } from './workspace-files.js';

/** What a kustomization writes that selects resources of a build: a patch, a replacement's source, a replacement target's `select`. */
export interface Selection {
  /** where it names what it selects: its `name:` (a patch document's `metadata.name`), else its key (`target:`, `source:`, `select:`) */
  at: WrittenString;
  /** the lines it is written on (0-based, inclusive): a definition asked there goes to what it selects */
  lines: { file: string; from: number; to: number };
  /** the names it selects by, as written: what a rename of what it selects changes */
  names: WrittenString[];
  /** what it selects among a build's resources, as the build selects (nothing when it cannot select: a bad pattern, no unique source) */
  select(resources: ResourceMap): Resource[];
}

/**
 * Each kustomization's selections, read once (what one request asks of the kustomizations of
 * several roots), for what navigation may read, selecting as the settings' kustomize release does.
 */
export function selectionsReader(ws: Workspace): (kustomization: string) => Selection[] {
  const read = new Map<string, Selection[]>();
  const matching = profileOf(ws.settings).replacementTargetSelectors;
  return (k) => {
    let found = read.get(k);
    if (!found) read.set(k, (found = selectionsIn(ws.fs, k, readable(ws, k), matching)));
    return found;
  };
}

/** A YAML text of a kustomization (its own, or a file it names) with where its values are. */
interface Text {
  file: string;
  placed: PlacedText;
  lines: string[];
}

/**
 * What a kustomization file selects resources with: its `patches` (by `target`, or a
 * strategic-merge patch's own id), `patchesStrategicMerge`, `patchesJson6902`, and its
 * `replacements` (inline or in `path:` files: each source and each target's `select`). The files
 * they name are read when `allowed`.
 */
function selectionsIn(fs: FileSystem, kustomization: string, allowed: (path: string, directory: boolean) => boolean, matching: TargetIdMatching): Selection[] {
  const k = readText(fs, kustomization, true);
  const doc = k?.placed.docs[0];
  if (!k || !isMap(doc)) return [];
  // a replacements file is read as kustomizations are (YAML 1.1), a patch file as resources are
  const named = (path: Value | undefined, yaml11 = false) => {
    const file = typeof path === 'string' ? resolve(dirname(kustomization), path) : undefined;
    return file !== undefined && allowed(file, false) ? readText(fs, file, yaml11) : undefined;
  };
  const held = (holder: Value, key: string | number) => {
    const value = (holder as Record<string | number, Value>)[key];
    const at = k.placed.placeOf(holder, key);
    return typeof value === 'string' && at ? placedIn(k.file, value, heldTextStart(k.lines, at), false) : undefined;
  };
  const found: Selection[] = [];
  for (const entry of items(doc['patches'])) {
    if (isMap(entry['target'])) found.push(targetSelection(k, entry, 'target', selectTargets));
    else {
      const text = named(entry['path']) ?? held(entry, 'patch');
      if (text) found.push(...patchSelections(text));
    }
  }
  const smp = doc['patchesStrategicMerge'];
  if (isSeq(smp)) smp.forEach((_, i) => {
    const text = named(smp[i]) ?? held(smp, i);
    if (text) found.push(...patchSelections(text));
  });
  for (const entry of items(doc['patchesJson6902'])) if (isMap(entry['target'])) found.push(targetSelection(k, entry, 'target', selectTargets));
  for (const entry of items(doc['replacements'])) {
    const file = named(entry['path'], true);
    const first = file?.placed.docs[0];
    if (file) for (const replacement of isSeq(first) ? items(first) : isMap(first) ? [first] : []) found.push(...replacementSelections(file, replacement, matching));
    else found.push(...replacementSelections(k, entry, matching));
  }
  return found;
}

/** The maps of a list. */
function items(list: Value | undefined): YMap[] {
  return isSeq(list) ? list.filter(isMap) : [];
}

function readText(fs: FileSystem, file: string, yaml11: boolean): Text | undefined {
  const text = textOf(fs, file);
  return text === undefined ? undefined : placedIn(file, text, START, yaml11);
}

/** A text written in `file` from `offset` (an inline patch's, in its kustomization), read in YAML 1.1 (as kustomizations are) or not. */
function placedIn(file: string, text: string, offset: TextPosition, yaml11: boolean): Text {
  const placed = placedText(text, { keys: true, offset, ...(yaml11 && { dialect: 'yaml11' as const }) });
  return { file, placed, lines: linesOf(text) };
}

/** A selector written as a map: its string fields. */
function selectorOf(map: YMap): Selector {
  const selector: Selector = {};
  for (const key of ['group', 'version', 'kind', 'name', 'namespace', 'labelSelector', 'annotationSelector'] as const) {
    const value = map[key];
    if (typeof value === 'string') selector[key] = value;
  }
  return selector;
}

/** What selects: nothing when it cannot (a bad pattern, no unique source: the build fails there, and says so). */
function selecting(select: (resources: ResourceMap) => Resource[]): (resources: ResourceMap) => Resource[] {
  return (resources) => {
    try {
      return select(resources);
    } catch {
      return [];
    }
  };
}

/** The selection written as the map at `key` of `holder` (a `target`, a `source`, a `select`). */
function targetSelection(text: Text, holder: YMap, key: string, select: (resources: ResourceMap, selector: Selector) => Resource[]): Selection {
  const map = holder[key] as YMap;
  const selector = selectorOf(map);
  const keyAt = text.placed.keyOf(holder, key) ?? text.placed.placeOf(holder, key) ?? START;
  const name = typeof map['name'] === 'string' ? text.placed.placeOf(map, 'name') : undefined;
  const names = name ? [{ file: text.file, at: name, value: map['name'] as string }] : [];
  const last = Math.max(keyAt.line, ...Object.keys(map).map((k) => text.placed.placeOf(map, k)?.line ?? 0));
  return {
    at: names[0] ?? { file: text.file, at: keyAt, value: key },
    lines: { file: text.file, from: keyAt.line - 1, to: last - 1 },
    names,
    select: selecting((resources) => select(resources, selector)),
  };
}

/** A strategic-merge patch's documents without a target: each selects the resource with its own id, at its `metadata.name`. */
function patchSelections(text: Text): Selection[] {
  return text.placed.docs.flatMap((doc) => {
    const meta = isMap(doc) ? doc['metadata'] : undefined;
    const at = isMap(meta) && typeof meta['name'] === 'string' ? text.placed.placeOf(meta, 'name') : undefined;
    if (!isMap(doc) || !at) return [];
    let patch: Resource | undefined;
    try {
      patch = resourcesFromValues([doc], text.file)[0];
    } catch {
      // not a resource (no kind): the build fails on it, and says so
    }
    if (!patch) return [];
    const name = { file: text.file, at, value: (meta as YMap)['name'] as string };
    const byId = patch;
    return [{ at: name, lines: { file: text.file, from: at.line - 1, to: at.line - 1 }, names: [name], select: selecting((resources) => [targetByPatchId(resources, byId)]) }];
  });
}

/** A replacement's source and its targets' `select`s (matching ids as `matching` says). */
function replacementSelections(text: Text, replacement: YMap, matching: TargetIdMatching): Selection[] {
  const found: Selection[] = [];
  if (isMap(replacement['source'])) found.push(targetSelection(text, replacement, 'source', (m, s) => [selectSource(m.resources(), s)]));
  for (const target of items(replacement['targets'])) {
    if (!isMap(target['select'])) continue;
    const reject = items(target['reject']).map(selectorOf);
    found.push(
      targetSelection(text, target, 'select', (m, s) => {
        const selector = new TargetSelector(s, reject, matching);
        return m.resources().filter((r) => selector.matches(r));
      }),
    );
  }
  return found;
}
