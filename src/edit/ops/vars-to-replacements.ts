import { isMap, isScalar, isSeq, parseAllDocuments, type Node, type YAMLMap } from 'yaml';
import { KustomizeError } from '../../errors.js';
import { join, resolve } from '../../fs/path.js';
import { decodeKustomizationText, type FieldOptions, type Patch, type Replacement, type Var } from '../../kinds/kustomization.js';
import { KUSTOMIZATION_FILE_NAMES } from '../../load/entry.js';
import type { Selector } from '../../model/selector.js';
import type { EditContext } from '../context.js';

/** A file `$(VAR)` uses are looked for in: its path as kustomize names it (relative to the edited kustomization), and the patch entry it is the file of. */
interface ScannedFile {
  path: string;
  patch?: Patch;
}

/** The entries of a kustomization whose files are scanned: resources (directories followed) and patch files. */
interface ScannedFields {
  resources: string[];
  patches: Patch[];
}

type Target = NonNullable<Replacement['targets']>[number];

/**
 * `edit fix --vars`: one replacement for each var, as kustomize's converter makes them. The
 * source is the var's object and field; the targets are every field of the kustomization's
 * resource and patch files (directories followed through their kustomizations) whose value
 * holds `$(NAME)`, which is replaced in those files by `NAME_PLACEHOLDER`. A use inside a longer
 * value becomes a target with `options.delimiter` and `index`; a use with different characters
 * on either side cannot be expressed and fails the conversion. A field of a patch file is
 * selected by the patch's target (the patched object's name and kind when the patch may change
 * them), any other field by its object's id. The rewritten files are staged on `ctx.files`.
 */
export function varsToReplacements(ctx: EditContext, vars: Var[], fields: ScannedFields): Replacement[] {
  const files = scannedFiles(ctx, fields, '', new Set());
  return vars.map((v) => {
    const name = v.name ?? '';
    const targets = files.flatMap((f) => targetsIn(ctx, f, name));
    putPlaceholders(ctx, files, name);
    return { source: sourceOf(v), ...(targets.length > 0 && { targets }) };
  });
}

function sourceOf(v: Var): NonNullable<Replacement['source']> {
  const ref = v.objref ?? {};
  const [group, version] = ref.apiVersion ? splitApiVersion(ref.apiVersion) : [ref.group, ref.version];
  return withoutEmpty({ group, version, kind: ref.kind, name: ref.name, namespace: ref.namespace, fieldPath: v.fieldref?.fieldpath });
}

/** kustomize's resid.ParseGroupVersion: `apps/v1` → group and version, `v1` → version only. */
function splitApiVersion(apiVersion: string): [string | undefined, string] {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? [undefined, apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

/**
 * The files a kustomization's vars may be used in, in kustomize's order: each resource (a
 * directory stands for the files of its kustomization, at any depth), then the patch files.
 * A file reached twice is scanned once.
 */
function scannedFiles(ctx: EditContext, fields: ScannedFields, prefix: string, seen: Set<string>): ScannedFile[] {
  const out: ScannedFile[] = [];
  const add = (path: string, patch?: Patch) => {
    const absolute = resolve(ctx.dir, path);
    if (seen.has(absolute)) return false;
    seen.add(absolute);
    out.push({ path, ...(patch && { patch }) });
    return true;
  };
  for (const resource of fields.resources) {
    const path = join(prefix, resource);
    const absolute = resolve(ctx.dir, path);
    if (!ctx.fs.isDirectory(absolute)) {
      add(path);
      continue;
    }
    if (seen.has(absolute)) continue;
    seen.add(absolute);
    for (const name of KUSTOMIZATION_FILE_NAMES) {
      const text = ctx.files.read(join(absolute, name));
      if (text !== undefined) out.push(...scannedFiles(ctx, fieldsOf(decodeKustomizationText(text, join(path, name))), path, seen));
    }
  }
  for (const patch of fields.patches) if (patch.path) add(join(prefix, patch.path), patch);
  return out;
}

/** A kustomization below the edited one, read as the build reads it: deprecated fields count as their successors. */
function fieldsOf(k: ReturnType<typeof decodeKustomizationText>): ScannedFields {
  return {
    resources: [...(k.resources ?? []), ...(k.bases ?? []), ...(k.components ?? [])],
    patches: [...(k.patches ?? []), ...(k.patchesStrategicMerge ?? []).map((path) => ({ path })), ...(k.patchesJson6902 ?? [])],
  };
}

/** The replacement targets for the uses of `$(name)` in a file's objects; a file that is not a list of objects has none (kustomize skips it). */
function targetsIn(ctx: EditContext, file: ScannedFile, name: string): Target[] {
  const text = ctx.files.read(resolve(ctx.dir, file.path));
  const objects = text === undefined ? undefined : objectsIn(text);
  const use = `$(${name})`;
  return (objects ?? []).flatMap((object) => {
    const select = selectorFor(object, file.patch);
    return usesIn(object, use, [], file.path).map(({ fieldPath, options }) => ({ select, fieldPaths: [fieldPath], ...(options && { options }) }));
  });
}

/** The objects in a YAML stream (a single `List` unwrapped to its items), or undefined when a document does not parse or is not a mapping. */
function objectsIn(text: string): YAMLMap[] | undefined {
  const objects: YAMLMap[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) return undefined;
    if (doc.contents === null) continue;
    if (!isMap(doc.contents)) return undefined;
    objects.push(doc.contents);
  }
  const only = objects.length === 1 ? objects[0]! : undefined;
  const items = only?.get('items', true);
  if (only && ['List', 'ResourceList'].includes(String(only.get('kind'))) && isSeq(items)) return items.items.filter((i): i is YAMLMap => isMap(i));
  return objects;
}

/**
 * How a target selects the object a use was found in: by its id; in a patch file, by the
 * patch's target, with the patch object's name or kind when the patch may change them (when it
 * may change both, the patch object is selected by its id) and its namespace when it has one.
 */
function selectorFor(object: YAMLMap, patch: Patch | undefined): Selector {
  const name = stringAt(object, ['metadata', 'name']);
  const namespace = stringAt(object, ['metadata', 'namespace']);
  const kind = stringAt(object, ['kind']);
  const { allowNameChange, allowKindChange } = patch?.options ?? {};
  if (patch && !(allowNameChange && allowKindChange)) {
    return withoutEmpty({ ...patch.target, ...(allowNameChange && { name }), ...(allowKindChange && { kind }), ...(namespace && { namespace }) });
  }
  const apiVersion = stringAt(object, ['apiVersion']);
  const [group, version] = apiVersion ? splitApiVersion(apiVersion) : [];
  return withoutEmpty({ group, version, kind, name, namespace });
}

function stringAt(object: YAMLMap, path: string[]): string | undefined {
  const value: unknown = object.getIn(path);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

interface Use {
  fieldPath: string;
  options?: FieldOptions;
}

/** Every scalar under `node` that holds `use`, with its field path (`spec.containers.0.env.0.value`; a key with a dot in brackets). */
function usesIn(node: Node | null, use: string, path: string[], file: string): Use[] {
  if (isSeq(node)) return node.items.flatMap((item, i) => usesIn(item as Node, use, [...path, String(i)], file));
  if (isMap(node)) {
    return node.items.flatMap((pair) => {
      const key = String(isScalar(pair.key) ? pair.key.value : pair.key).trim();
      return usesIn(pair.value as Node | null, use, [...path, key.includes('.') ? `[${key}]` : key], file);
    });
  }
  if (!isScalar(node) || typeof node.value !== 'string' || !node.value.includes(use)) return [];
  const fieldPath = path.join('.');
  const options = delimitedOptions(node.value, use, file, fieldPath);
  return [{ fieldPath, ...(options && { options }) }];
}

/**
 * Where `use` stands in a longer value, as a replacement's delimiter and index: the character
 * after it when it starts the value, before it when it ends it, else the character on both
 * sides, which must be the same.
 */
function delimitedOptions(value: string, use: string, file: string, field: string): FieldOptions | undefined {
  if (value === use) return undefined;
  const at = value.indexOf(use);
  const end = at + use.length;
  if (at === 0) return { delimiter: value[end]! };
  const delimiter = value[at - 1]!;
  if (end < value.length && value[end] !== delimiter) {
    throw new KustomizeError('VARS_UNCONVERTIBLE', `error with ${file}: cannot convert all vars to replacements; ${use} is not delimited`, { file, field });
  }
  const parts = value.split(delimiter);
  const index = end >= value.length ? parts.length - 1 : parts.indexOf(use);
  // -1 only when the delimiter is inside the var's name itself
  if (index < 0) throw new KustomizeError('VARS_UNCONVERTIBLE', `error with ${file}: cannot convert all vars to replacements; ${use} contains its delimiter ${delimiter}`, { file, field });
  return { delimiter, index };
}

/** Puts `NAME_PLACEHOLDER` for `$(NAME)` in every scanned file's text (comments included, as kustomize does). */
function putPlaceholders(ctx: EditContext, files: ScannedFile[], name: string): void {
  for (const file of files) {
    const path = resolve(ctx.dir, file.path);
    const text = ctx.files.read(path);
    if (text !== undefined && text.includes(`$(${name})`)) ctx.files.write(path, text.split(`$(${name})`).join(`${name}_PLACEHOLDER`));
  }
}

function withoutEmpty<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== '')) as T;
}
