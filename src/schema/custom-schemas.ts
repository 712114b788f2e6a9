/**
 * Schemas of types Kubernetes does not have, from the files that describe them: CRDs (YAML or
 * JSON, one or many documents, `List`s of them), OpenAPI documents whose schemas carry
 * `x-kubernetes-group-version-kind` (v3 `components.schemas` or v2 `definitions`, as a
 * cluster serves them), JSON Schema files of one type (kubeconform's), and kustomize's own
 * `crds:` form (`{"<pkg>.<Kind>": {"Schema": …}}`, which names a kind but no group).
 */
import { parseAllDocuments } from 'yaml';
import { KustomizeError } from '../errors.js';
import type { FileSystem } from '../fs/filesystem.js';
import { readText } from '../fs/filesystem.js';
import { join } from '../fs/path.js';
import { crdVersions, isCrd } from './crd.js';
import { SchemaDocument } from './document.js';
import type { SchemaNode } from './node.js';

/** The schema of one type from a file. */
export interface CustomSchema {
  /** undefined for kustomize's `crds:` form, which names the kind alone */
  apiVersion: string | undefined;
  kind: string;
  node: SchemaNode;
  /** the file it came from, as it was named */
  file: string;
  /** written as a CRD (or in kustomize's `crds:` form), not as an OpenAPI document or a JSON Schema: what messages call it */
  crd: boolean;
}

type Raw = Record<string, unknown>;

function isObject(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function invalid(file: string, message: string): KustomizeError {
  return new KustomizeError('SCHEMA_INVALID', `${file}: ${message}`, { file });
}

/** The documents of a schema file: JSON when it starts with `{`, else YAML (any number of documents). */
function documentsOf(text: string, file: string): unknown[] {
  try {
    if (text.trimStart().startsWith('{')) return [JSON.parse(text)];
    const docs = parseAllDocuments(text);
    const list = Array.isArray(docs) ? docs : [docs];
    const error = list.flatMap((d) => d.errors)[0];
    if (error) throw error;
    return list.map((d) => d.toJS({ maxAliasCount: -1 })).filter((d) => d !== null && d !== undefined);
  } catch (e) {
    throw invalid(file, `not JSON or YAML: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** The schemas a file's text describes; a text that is none of the forms above is SCHEMA_INVALID, naming `file`. */
export function customSchemasOf(text: string, file: string): CustomSchema[] {
  const out: CustomSchema[] = [];
  for (const doc of documentsOf(text, file)) out.push(...schemasOfDocument(doc, file));
  return out;
}

function schemasOfDocument(doc: unknown, file: string): CustomSchema[] {
  if (!isObject(doc)) throw invalid(file, 'not a CRD, an OpenAPI document or a JSON Schema');
  if (isCrd(doc)) return crdSchemas(doc, file);
  if (typeof doc['kind'] === 'string' && doc['kind'].endsWith('List') && Array.isArray(doc['items'])) return doc['items'].flatMap((item) => schemasOfDocument(item, file));
  const components = isObject(doc['components']) ? doc['components']['schemas'] : undefined;
  if (isObject(components)) return openApiSchemas(doc, components, '#/components/schemas/', file);
  if ((typeof doc['swagger'] === 'string' || typeof doc['openapi'] === 'string') && isObject(doc['definitions'])) return openApiSchemas(doc, doc['definitions'], '#/definitions/', file);
  const values = Object.values(doc);
  // (kustomize's `crds:` form with no definitions)
  if (values.length === 0) return [];
  // (kustomize reads each value as an OpenAPI definition: one without a Schema is no type)
  if (values.every(isObject) && values.some((v) => isObject(v['Schema']))) return kustomizeCrdsForm(doc, file);
  return [jsonSchema(doc, file)];
}

/** A CRD's versions; one whose schema is not structural is SCHEMA_INVALID. */
function crdSchemas(crd: Raw, file: string): CustomSchema[] {
  const name = isObject(crd['metadata']) ? String(crd['metadata']['name'] ?? '') : '';
  return crdVersions(crd, file).map((v) => {
    if (v.unstructural || !v.schema) {
      const why = v.unstructural ? `${v.unstructural.why} at ${v.unstructural.pointer}` : 'no schema';
      throw invalid(file, `CustomResourceDefinition ${name}, version ${v.version}: not a structural schema: ${why}`);
    }
    return { apiVersion: v.apiVersion, kind: v.kind, node: v.schema, file, crd: true };
  });
}

function gvksOf(schema: Raw): { apiVersion: string; kind: string }[] {
  const raw = schema['x-kubernetes-group-version-kind'];
  const list = Array.isArray(raw) ? raw : isObject(raw) ? [raw] : [];
  return list.filter(isObject).flatMap((g) => {
    const { group, version, kind } = g;
    if (typeof version !== 'string' || typeof kind !== 'string') return [];
    return [{ apiVersion: typeof group === 'string' && group !== '' ? `${group}/${version}` : version, kind }];
  });
}

function openApiSchemas(doc: Raw, schemas: Raw, prefix: string, file: string): CustomSchema[] {
  const document = SchemaDocument.of(doc, file);
  return Object.entries(schemas).flatMap(([name, schema]) =>
    isObject(schema) ? gvksOf(schema).map(({ apiVersion, kind }) => ({ apiVersion, kind, node: document.node(prefix + name.replace(/~/g, '~0').replace(/\//g, '~1'))!, file, crd: false })) : [],
  );
}

/** kustomize's `crds:` form: kinds, read as kustomize reads them (a definition with `kind`, `apiVersion` and `metadata` properties). */
function kustomizeCrdsForm(doc: Raw, file: string): CustomSchema[] {
  const document = SchemaDocument.of(doc, file);
  return Object.keys(doc).flatMap((name) => {
    const schema = (doc[name] as Raw)['Schema'];
    const props = isObject(schema) && isObject(schema['properties']) ? schema['properties'] : {};
    if (!('kind' in props && 'apiVersion' in props && 'metadata' in props)) return [];
    return [{ apiVersion: undefined, kind: name.slice(name.lastIndexOf('.') + 1), node: document.node(name)!, file, crd: true }];
  });
}

/** A JSON Schema of one type: its `x-kubernetes-group-version-kind`, else the single values its `apiVersion` and `kind` properties allow. */
function jsonSchema(doc: Raw, file: string): CustomSchema {
  const document = SchemaDocument.of(doc, file);
  const node = document.node('#')!;
  const gvk = gvksOf(doc)[0];
  if (gvk) return { ...gvk, node, file, crd: false };
  const props = isObject(doc['properties']) ? doc['properties'] : {};
  const single = (p: unknown) => (isObject(p) && Array.isArray(p['enum']) && p['enum'].length === 1 && typeof p['enum'][0] === 'string' ? p['enum'][0] : undefined);
  const apiVersion = single(props['apiVersion']);
  const kind = single(props['kind']);
  if (!apiVersion || !kind) {
    const form = typeof doc['$schema'] === 'string' || 'properties' in doc || 'type' in doc ? 'a JSON Schema that does not say which type it describes (give it x-kubernetes-group-version-kind, or apiVersion and kind properties with one enum value each)' : 'not a CRD, an OpenAPI document or a JSON Schema';
    throw invalid(file, form);
  }
  return { apiVersion, kind, node, file, crd: false };
}

/**
 * The schemas of `--schema PATH`s: each a file, or a directory whose `.yaml`, `.yml` and `.json`
 * files (at any depth, in name order) are read (by `read`: a caller may keep what it read). `paths`
 * are resolved against `cwd`; a missing one is FILE_NOT_FOUND.
 */
export function readSchemaPaths(fs: FileSystem, paths: readonly string[], cwd: string, read: (text: string, file: string) => CustomSchema[] = customSchemasOf): CustomSchema[] {
  const out: CustomSchema[] = [];
  const visit = (abs: string, shown: string): void => {
    if (fs.isDirectory(abs)) {
      for (const name of fs.readDir(abs)) {
        const child = join(abs, name);
        if (fs.isDirectory(child) || /\.(ya?ml|json)$/.test(name)) visit(child, join(shown, name));
      }
      return;
    }
    out.push(...read(readText(fs, abs), shown));
  };
  for (const path of paths) {
    const abs = path.startsWith('/') ? path : join(cwd, path);
    if (!fs.exists(abs)) throw new KustomizeError('FILE_NOT_FOUND', `--schema ${path}: no such file or directory`, { file: path });
    visit(abs, path);
  }
  return out;
}
