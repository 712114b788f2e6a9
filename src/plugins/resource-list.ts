import { KustomizeError } from '../errors.js';
import type { ResId } from '../model/resid.js';
import { resourcesFromValues } from '../model/resource-factory.js';
import type { Resource } from '../model/resource.js';
import { objectWithBuildState } from '../model/build-state-annotations.js';
import { emitYaml } from '../yaml/emit.js';
import { parseYamlDocuments } from '../yaml/parse.js';
import { cloneValue, isMap, isSeq, type Value, type YMap } from '../yaml/value.js';

/** The annotation carrying a resource's id to a transformer plugin, so its output can be matched back. */
const ID_ANNOTATION = 'kustomize.config.k8s.io/id';
export const NEEDS_HASH_ANNOTATION = 'kustomize.config.k8s.io/needs-hash';
export const BEHAVIOR_ANNOTATION = 'kustomize.config.k8s.io/behavior';

/** Annotations the build adds on the way to a plugin, removed from what comes back. */
const WIRE_ANNOTATIONS = [
  ID_ANNOTATION,
  'config.kubernetes.io/index',
  'internal.config.kubernetes.io/index',
  'internal.config.kubernetes.io/id',
  'config.k8s.io/id',
  'internal.config.kubernetes.io/annotations-migration-resource-id',
  'config.kubernetes.io/path',
  'internal.config.kubernetes.io/path',
  'internal.config.kubernetes.io/seqindent',
];

/** The YAML of a resource id as kustomize writes it into the id annotation. */
function idAnnotationValue(id: ResId): string {
  const fields: [string, string][] = [
    ['group', id.group],
    ['kind', id.kind],
    ['name', id.name],
    ['namespace', id.namespace],
    ['version', id.version],
  ];
  return fields
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}: ${v}\n`)
    .join('');
}

/** A resource's object as kustomize gives it to a plugin, its build state and the given extra annotations in it (a copy; the resource is untouched). */
function annotated(r: Resource, extra: Record<string, string>): YMap {
  const obj = cloneValue(objectWithBuildState(r));
  let meta = obj['metadata'];
  if (!isMap(meta)) meta = obj['metadata'] = {};
  let ann = meta['annotations'];
  if (!isMap(ann)) ann = meta['annotations'] = {};
  Object.assign(ann, extra);
  return obj;
}

/** The input of a KRM function: a ResourceList of the items plus the function's config. */
export function resourceListInput(items: readonly Resource[], functionConfig: YMap): string {
  const wireItems = items.map((r, i) =>
    annotated(r, {
      [ID_ANNOTATION]: idAnnotationValue(r.id),
      'config.kubernetes.io/index': String(i),
      'internal.config.kubernetes.io/index': String(i),
      'internal.config.kubernetes.io/annotations-migration-resource-id': String(i),
      'internal.config.kubernetes.io/id': String(i + 1),
      'config.k8s.io/id': String(i + 1),
    }),
  );
  return emitYaml({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items: wireItems, functionConfig });
}

/** The input of a legacy exec transformer: the resources as multi-document YAML, each with its id. */
export function legacyTransformerInput(items: readonly Resource[]): string {
  return items.map((r) => emitYaml(annotated(r, { [ID_ANNOTATION]: idAnnotationValue(r.id) }))).join('---\n');
}

/** A function's report about its run. */
interface FunctionResult {
  message: string;
  severity: string;
  where: string;
}

/**
 * Reads what a plugin printed: a ResourceList (its items and results) or plain YAML documents
 * (all items), with the wire annotations removed.
 */
export function parsePluginOutput(stdout: string, describe: string): { resources: Resource[]; results: FunctionResult[] } {
  let docs: Value[];
  try {
    docs = parseYamlDocuments(stdout, describe);
  } catch (e) {
    throw new KustomizeError('PLUGIN_FAILED', `${describe} printed invalid YAML: ${(e as Error).message}`, { cause: e });
  }
  let items = docs;
  let results: FunctionResult[] = [];
  const first = docs[0];
  if (docs.length === 1 && isMap(first) && first['kind'] === 'ResourceList') {
    const list = first['items'];
    items = isSeq(list) ? list : [];
    results = readResults(first['results']);
  }
  for (const item of items) if (isMap(item)) stripWireAnnotations(item);
  try {
    return { resources: resourcesFromValues(items, describe), results };
  } catch (e) {
    throw new KustomizeError('PLUGIN_FAILED', `${describe} printed an invalid resource: ${(e as Error).message}`, { cause: e });
  }
}

function stripWireAnnotations(obj: YMap): void {
  const meta = obj['metadata'];
  const ann = isMap(meta) ? meta['annotations'] : undefined;
  if (!isMap(ann) || !isMap(meta)) return;
  for (const k of WIRE_ANNOTATIONS) delete ann[k];
  if (Object.keys(ann).length === 0) delete meta['annotations'];
}

/** A function's `results`, read leniently (anything that is not a result is skipped). */
export function readResults(v: Value | undefined): FunctionResult[] {
  if (!isSeq(v)) return [];
  return v.filter(isMap).map((r) => {
    const ref = r['resourceRef'];
    const field = r['field'];
    const file = r['file'];
    const where = [
      isMap(ref) ? [ref['kind'], ref['namespace'], ref['name']].filter((x) => typeof x === 'string' && x).join('/') : '',
      isMap(field) && typeof field['path'] === 'string' ? `field ${field['path']}` : '',
      isMap(file) && typeof file['path'] === 'string' ? `file ${file['path']}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    return { message: String(r['message'] ?? ''), severity: typeof r['severity'] === 'string' ? r['severity'] : 'error', where };
  });
}

/** kustomize drops function results; we print them (they are the function's own account of its run). */
export function formatResult(describe: string, r: FunctionResult): string {
  return `# ${describe} result [${r.severity}]${r.where ? ` ${r.where}` : ''}: ${r.message}`;
}
