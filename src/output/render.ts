import type { Resource } from '../model/resource.js';
import { ORIGIN_ANNOTATION, TRANSFORMATIONS_ANNOTATION, originYaml, transformationsYaml } from '../model/origin.js';
import { yamlPrinter } from '../yaml/emit.js';
import { isMap, scalarSourceText, type Value } from '../yaml/value.js';
import { wrapError } from '../errors.js';
import { stringMapText } from '../yaml/string-map.js';

interface RenderOptions {
  originAnnotations: boolean;
  transformerAnnotations: boolean;
}

/**
 * Annotations kustomize (and kio) use for bookkeeping, never printed: kustomize strips them
 * from every resource at the end of a build.
 */
const BUILD_ANNOTATIONS = [
  'internal.config.kubernetes.io/previousKinds',
  'internal.config.kubernetes.io/previousNames',
  'internal.config.kubernetes.io/prefixes',
  'internal.config.kubernetes.io/suffixes',
  'internal.config.kubernetes.io/previousNamespaces',
  'internal.config.kubernetes.io/allowNameChange',
  'internal.config.kubernetes.io/allowKindChange',
  'internal.config.kubernetes.io/refBy',
  'internal.config.kubernetes.io/generatorBehavior',
  'internal.config.kubernetes.io/needsHashSuffix',
  'internal.config.kubernetes.io/fileMergeMode',
  'internal.config.kubernetes.io/path',
  'internal.config.kubernetes.io/index',
  'internal.config.kubernetes.io/seqindent',
  'internal.config.kubernetes.io/id',
  'internal.config.kubernetes.io/annotations-migration-resource-id',
  'config.kubernetes.io/path',
  'config.kubernetes.io/index',
  'config.k8s.io/id',
  'internal.config.kubernetes.io/helm-generated',
];

/** Removed from every resource before the build's own records are added back (when asked for). */
const DROPPED_ANNOTATIONS = new Set([...BUILD_ANNOTATIONS, ORIGIN_ANNOTATION, TRANSFORMATIONS_ANNOTATION]);

/** What separates two resources in the output. */
export const DOCUMENT_SEPARATOR = '---\n';

export interface Rendered {
  resources: Resource[];
  yaml: string;
  /** where each resource's text starts in `yaml` */
  starts: Uint32Array;
}

/**
 * The build's output: resources with the build-metadata annotations asked for and the
 * bookkeeping ones removed, as YAML documents joined by `---` (nothing for an empty build).
 * `printedBefore` gives the text an earlier build printed for a resource, when it printed the same object.
 */
export function renderResources(resources: readonly Resource[], options: RenderOptions, printedBefore?: (r: Resource) => string | undefined): Rendered {
  for (const r of resources) finishAnnotations(r, options);
  const print = yamlPrinter();
  const texts = resources.map((r) => printedBefore?.(r) ?? printed(print, r));
  const starts = new Uint32Array(texts.length);
  for (let i = 1; i < texts.length; i++) starts[i] = starts[i - 1]! + texts[i - 1]!.length + DOCUMENT_SEPARATOR.length;
  return { resources: [...resources], yaml: texts.join(DOCUMENT_SEPARATOR), starts };
}

/** A resource's YAML; what cannot be printed (an infinity, which has no JSON) is an error naming the resource. */
function printed(print: (value: Value) => string, r: Resource): string {
  try {
    return print(r.view);
  } catch (e) {
    throw wrapError(e, r.id.toString());
  }
}

/**
 * kustomize rewrites every resource's annotations at the end: values become strings
 * (`happy: true` prints as `happy: "true"`), bookkeeping keys go, origin and transformation
 * records stay only when asked for, and an empty annotation map is removed.
 */
function finishAnnotations(r: Resource, options: RenderOptions): void {
  const meta = r.view['metadata'];
  if (!isMap(meta)) return;
  let ann = meta['annotations'];
  if (!isMap(ann)) {
    // `annotations:` with no value goes too (kustomize clears the field when it sets no annotations)
    if (ann === null) delete meta['annotations'];
    if (!options.originAnnotations && !options.transformerAnnotations) return;
    ann = {};
  }
  // (the map's own few keys are visited, rather than every key that might need deleting)
  for (const k of Object.keys(ann)) {
    const v = ann[k];
    if (DROPPED_ANNOTATIONS.has(k)) delete ann[k];
    else if (typeof v !== 'string' || scalarSourceText(ann, k) !== undefined) ann[k] = stringMapText(ann, k, v!);
  }
  if (options.originAnnotations && r.origin) ann[ORIGIN_ANNOTATION] = originYaml(r.origin);
  if (options.transformerAnnotations && r.transformations?.length) {
    ann[TRANSFORMATIONS_ANNOTATION] = transformationsYaml(r.transformations);
  }
  if (Object.keys(ann).length > 0) meta['annotations'] = ann;
  else delete meta['annotations'];
}
