import { KustomizeError } from '../errors.js';
import { isCrd } from '../schema/crd.js';
import { parseYamlDocument, parseYamlDocuments } from '../yaml/parse.js';
import { isMap, isSeq, type Value, type YMap } from '../yaml/value.js';
import type { FieldSpec } from './fieldspec.js';
import { emptyTransformerConfig, mergeTransformerConfigs, type TransformerConfig } from './transformer-config.js';

/**
 * The `crds:` field: OpenAPI definitions of custom types (as `{"<pkg>.<Kind>": {"Schema": ...}}`)
 * whose `x-kubernetes-*` extensions say which fields hold object references, labels,
 * annotations or the object's identity. Each becomes a field spec, so name references into
 * and out of custom resources are fixed like those of builtin kinds.
 *
 * kustomize refuses a file whose definitions are not objects, a CRD's YAML among them (its
 * `apiVersion` is a string). With `crdMerge` (`--crd-merge`) a file of CRDs is taken: they give
 * no field specs, only the list types strategic-merge patches merge by (read when one needs them).
 */
export function transformerConfigFromCrds(text: string, file: string, { crdMerge }: { crdMerge: boolean }): TransformerConfig {
  if (crdMerge && holdsCrds(text, file)) return emptyTransformerConfig();
  const defs = parseYamlDocument(text, file);
  if (!isMap(defs)) throw new KustomizeError('KUSTOMIZATION_INVALID', `unable to parse open API definition from '${file}'`, { file });
  let config = emptyTransformerConfig();
  for (const [typeName, def] of Object.entries(defs)) {
    if (def !== null && !isMap(def)) {
      const hint = isCrd(defs) ? ' (a CustomResourceDefinition: kustomize reads crds: in its OpenAPI form; --crd-merge reads CRDs too)' : '';
      throw new KustomizeError('KUSTOMIZATION_INVALID', `unable to parse open API definition from '${file}': json: cannot unmarshal ${goJsonType(def)} into Go value of type accumulator.OpenAPIDefinition${hint}`, { file });
    }
    if (!looksLikeKubernetesType(propertiesOf(def))) continue;
    const kind = typeName.slice(typeName.lastIndexOf('.') + 1);
    const own = emptyTransformerConfig();
    collect(own, kind, defs, typeName, [], new Set());
    config = mergeTransformerConfigs(config, own);
  }
  return config;
}

/** Whether a `crds:` file holds CRDs (documents, or `List`s of them), not kustomize's form. */
function holdsCrds(text: string, file: string): boolean {
  const docs = parseYamlDocuments(text, file).filter((d) => d !== null);
  const crds = (d: Value): boolean => isCrd(d) || (isMap(d) && isSeq(d['items']) && d['items'].length > 0 && d['items'].every(crds));
  return docs.length > 0 && docs.every(crds);
}

/** What Go's encoding/json calls a YAML value's JSON type in its errors. */
function goJsonType(v: Value): string {
  if (isSeq(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'number' || typeof v === 'bigint' ? 'number' : 'string';
}

function propertiesOf(def: Value | undefined): YMap {
  const schema = isMap(def) ? def['Schema'] : undefined;
  const props = isMap(schema) ? schema['properties'] : undefined;
  return isMap(props) ? props : {};
}

function looksLikeKubernetesType(props: YMap): boolean {
  return 'kind' in props && 'apiVersion' in props && 'metadata' in props;
}

function collect(config: TransformerConfig, kind: string, defs: YMap, typeName: string, path: string[], seen: Set<string>): void {
  if (!(typeName in defs) || seen.has(typeName)) return;
  seen.add(typeName);
  for (const [prop, raw] of Object.entries(propertiesOf(defs[typeName]))) {
    if (!isMap(raw)) continue;
    const at = [...path, prop];
    const fs = (p: string[]): FieldSpec => ({ kind, path: p.join('/') });
    if ('x-kubernetes-annotation' in raw) config.commonAnnotations.push(fs(at));
    if ('x-kubernetes-label-selector' in raw) config.commonLabels.push(fs(at));
    if ('x-kubernetes-identity' in raw) config.namePrefix.push(fs(at));
    const version = raw['x-kubernetes-object-ref-api-version'];
    const refKind = raw['x-kubernetes-object-ref-kind'];
    if (typeof version === 'string' && typeof refKind === 'string') {
      const nameKey = typeof raw['x-kubernetes-object-ref-name-key'] === 'string' ? (raw['x-kubernetes-object-ref-name-key'] as string) : 'name';
      config.nameReference.push({ gvk: { kind: refKind, version }, fieldSpecs: [fs([...at, nameKey])] });
    }
    const ref = raw['$ref'];
    if (typeof ref === 'string') collect(config, kind, defs, ref, at, new Set(seen));
  }
}
