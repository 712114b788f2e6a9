import { KustomizeError } from '../errors.js';
import { goJson } from '../yaml/go-json.js';
import { parseYamlDocuments } from '../yaml/parse.js';
import { isMap, isSeq, type Value, type YMap } from '../yaml/value.js';
import { Resource } from './resource.js';
import type { KustomizeProfile } from '../versions/profiles.js';
import { ORIGIN_ANNOTATION, TRANSFORMATIONS_ANNOTATION, parseOrigin, parseTransformations } from './origin.js';

/**
 * Turns the documents of a resource file into resources, as kustomize does: empty documents
 * dropped, every object needs a kind (and a name unless it is a list), `FooList` objects with
 * `items` expanded into their items (which go after the file's other objects); a `FooList`
 * without `items` is kept, or dropped as an empty list when `listWithoutItems` says so (the
 * build's profile: kustomize before 5.5).
 */
export function resourcesFromText(text: string, file: string, listWithoutItems: KustomizeProfile['listWithoutItems'] = 'kept'): Resource[] {
  return resourcesFromValues(parseYamlDocuments(text, file), file, listWithoutItems);
}

export function resourcesFromValues(docs: Value[], file = '', listWithoutItems: KustomizeProfile['listWithoutItems'] = 'kept'): Resource[] {
  const queue: YMap[] = [];
  for (const doc of docs) {
    if (doc === null || (isMap(doc) && Object.keys(doc).length === 0)) continue;
    queue.push(validated(doc, file));
  }
  const out: Resource[] = [];
  while (queue.length > 0) {
    const obj = queue.shift()!;
    const kind = obj['kind'];
    const list = typeof kind === 'string' && kind.endsWith('List');
    if (list && !('items' in obj) && listWithoutItems === 'dropped') continue;
    if (!list || !('items' in obj)) {
      out.push(withRecordedOrigins(new Resource(obj)));
      continue;
    }
    const items = obj['items'];
    if (items === null) continue;
    if (!isSeq(items)) throw invalid(`expected array in ${kind}/items, but found ${goTypeName(items)}`, file);
    for (const item of items) queue.push(validated(item, file));
  }
  return out;
}

/**
 * Origin and transformation records arriving as annotations (e.g. from a plugin's output)
 * become build state, like those kustomize makes itself.
 */
function withRecordedOrigins(r: Resource): Resource {
  const ann = r.stringMap('annotations');
  if (!ann) return r;
  const origin = ann[ORIGIN_ANNOTATION];
  if (typeof origin === 'string') r.origin = parseOrigin(origin);
  const transformations = ann[TRANSFORMATIONS_ANNOTATION];
  if (typeof transformations === 'string') r.transformations = parseTransformations(transformations);
  return r;
}

function validated(doc: Value, file: string): YMap {
  if (!isMap(doc)) throw invalid(`expected a YAML object, found ${goTypeName(doc)}`, file);
  const kind = doc['kind'];
  const meta = doc['metadata'];
  const name = isMap(meta) ? meta['name'] : undefined;
  if (typeof kind !== 'string' || kind === '') throw invalid(`missing kind in object ${describe(doc)}`, file);
  if (!kind.endsWith('List') && (name === undefined || name === null || name === '')) {
    throw invalid(`missing metadata.name in object ${describe(doc)}`, file);
  }
  return doc;
}

function describe(doc: YMap): string {
  try {
    return goJson(doc);
  } catch {
    return '{...}';
  }
}

function goTypeName(v: Value): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  if (isMap(v)) return 'map[string]interface {}';
  return typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : Number.isInteger(v) ? 'int' : 'float64';
}

function invalid(message: string, file: string): KustomizeError {
  return new KustomizeError('RESOURCE_INVALID', file ? `${message} in File: ${file}` : message, { file });
}
