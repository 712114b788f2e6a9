import { CompletionItemKind, type CompletionItem, type Position } from 'vscode-languageserver-types';
import { parseDocument } from 'yaml';
import { DEFAULT_TRANSFORMER_CONFIG } from '../fieldspec/defaults.js';
import { dirname, isWithin, join, resolve } from '../fs/path.js';
import { COMPONENT_API_VERSION, DEPRECATED_FIELDS, KUSTOMIZATION_API_VERSION } from '../kinds/kustomization.js';
import { KustomizationShape } from '../kinds/shapes.js';
import { JSON_PATCH_OPS } from '../patch/json6902.js';
import type { TargetIdMatching } from '../replacements/select.js';
import { crdVersions } from '../schema/crd.js';
import { customSchemasOf, type CustomSchema } from '../schema/custom-schemas.js';
import type { SchemaNode } from '../schema/node.js';
import type { SchemaSet } from '../schema/schema-set.js';
import type { Shape, StructShape } from '../yaml/decode.js';
import { isKustomizationFile, textOf } from './error-place.js';
import { KUSTOMIZATION_FIELD_DOCS } from './kustomization-docs.js';
import type { OutputResource, RootOutput } from './root-build.js';
import { profileOf } from './settings.js';
import { fieldOffers, schemaAt, valueOffers, type Offer } from './schema-completion.js';
import type { Workspace } from './workspace.js';
import { cursorAt, keysAt, valueAt, type Cursor, type Step } from './yaml-cursor.js';

/** The values of kustomization fields that take one of a few, by their place (list indexes left out). */
const BEHAVIORS = ['create', 'replace', 'merge'];
const FIELD_VALUES: Readonly<Record<string, readonly string[]>> = {
  apiVersion: [KUSTOMIZATION_API_VERSION, COMPONENT_API_VERSION],
  kind: ['Kustomization', 'Component'],
  'configMapGenerator.behavior': BEHAVIORS,
  'secretGenerator.behavior': BEHAVIORS,
  'sortOptions.order': ['legacy', 'fifo'],
};

/** The keys of kustomization maps that take a few known keys. */
const PATCH_OPTIONS = ['allowNameChange', 'allowKindChange'];
const MAP_KEYS: Readonly<Record<string, readonly string[]>> = {
  'patches.options': PATCH_OPTIONS,
  'patchesJson6902.options': PATCH_OPTIONS,
  openapi: ['path', 'version'],
};

/**
 * The kustomization fields whose values name files or directories, relative to the
 * kustomization; `bases`: a directory holding a kustomization, which may lie outside the
 * kustomization's directory whatever the load restrictor; `keyed`: written `[key=]path`.
 */
const PATH_FIELDS: Readonly<Record<string, { bases?: true; keyed?: true }>> = {
  resources: { bases: true },
  components: { bases: true },
  bases: { bases: true },
  generators: { bases: true },
  transformers: { bases: true },
  validators: { bases: true },
  crds: {},
  configurations: {},
  patchesStrategicMerge: {},
  catalogs: {},
  'patches.path': {},
  'patchesJson6902.path': {},
  'replacements.path': {},
  'configMapGenerator.files': { keyed: true },
  'configMapGenerator.envs': {},
  'configMapGenerator.env': {},
  'secretGenerator.files': { keyed: true },
  'secretGenerator.envs': {},
  'secretGenerator.env': {},
  'helmCharts.valuesFile': {},
  'helmCharts.additionalValuesFiles': {},
  'helmGlobals.chartHome': {},
  'helmGlobals.configHome': {},
  'openapi.path': {},
};

/** The kinds whose replica count `replicas` sets. */
const REPLICATED_KINDS = new Set(DEFAULT_TRANSFORMER_CONFIG.replicas.flatMap((f) => f.kind ?? []));

/** The keys of a JSON patch's operation. */
const JSON_PATCH_KEYS = ['op', 'path', 'value', 'from'];

/** The selectors of a kustomization (by their place), whose fields select the resources of the build. */
/**
 * The places of selectors, and how each compares a resource's id fields: patch targets as
 * anchored regular expressions, a replacement's source and a var's objref exactly, replacement
 * targets as the settings' kustomize release does (regular expressions since 5.8).
 */
const SELECTOR_MATCHING: Readonly<Record<string, TargetIdMatching | 'profile'>> = {
  'patches.target': 'anchored-regex',
  'patchesJson6902.target': 'anchored-regex',
  'replacements.source': 'exact',
  'vars.objref': 'exact',
  'replacements.targets.select': 'profile',
  'replacements.targets.reject': 'profile',
};
const SELECTOR_FIELDS = new Set(['group', 'version', 'kind', 'name', 'namespace', 'apiVersion']);

/** The kustomization fields whose text (a block scalar) is a patch: `patches[].patch`, an inline `patchesStrategicMerge` entry. */
function isInlinePatch(path: readonly Step[]): boolean {
  const [field, index, key] = path;
  if (typeof index !== 'number') return false;
  return ((field === 'patches' || field === 'patchesJson6902') && key === 'patch' && path.length === 3) || (field === 'patchesStrategicMerge' && path.length === 2);
}

/**
 * Completion at a place of a YAML file, over the editor's texts: in a kustomization, its keys
 * (the Kustomization shape's fields, with their docs), the values of fields that take one of a
 * few, paths of files and directories, and what targets can select (from the outputs of the
 * roots that read it); in a resource or a patch (a file, or an inline `patch:`), the fields and
 * values its kind's schema allows. Keeps, per root build, the schemas its CRDs add.
 */
export class Completion {
  /** the settings' schemas with the CRDs of a root's build, by its output */
  private readonly withCrds = new WeakMap<RootOutput, SchemaSet>();
  /** the types each CRD object defines (a build answered by the cache has the same objects) */
  private readonly crdTypes = new WeakMap<object, CustomSchema[]>();

  constructor(private readonly ws: Workspace) {}

  async at(path: string, position: Position): Promise<CompletionItem[]> {
    const text = textOf(this.ws.fs, path);
    const cursor = text === undefined ? undefined : cursorAt(text, position);
    if (!cursor) return [];
    const offers = isKustomizationFile(path) ? await this.inKustomization(path, cursor) : await this.inResource(path, cursor, () => this.targetNaming(path));
    return offers.map((o) => itemOf(o, cursor));
  }

  private async inKustomization(file: string, cursor: Cursor): Promise<Offer[]> {
    if (cursor.within) {
      if (!isInlinePatch(cursor.within.path)) return [];
      const target = valueAt(cursor.within.document, [...cursor.within.path.slice(0, 2), 'target']);
      return this.inResource(file, cursor, () => (isObject(target) ? target : {}));
    }
    const place = placeOf(cursor.path);
    const shape = shapeAt(KustomizationShape, cursor.path);
    // `- ` begins an entry: of a list of objects, its first key is typed
    if (cursor.at === 'key' || (cursor.at === 'item' && shape !== undefined && isStruct(shape))) {
      const present = cursor.at === 'key' ? keysAt(cursor.document, cursor.path) : new Set<string>();
      if (shape !== undefined && isStruct(shape)) return keyOffers(shape, present, place === '');
      return (MAP_KEYS[place] ?? []).filter((k) => !present.has(k)).map((label) => ({ label, kind: CompletionItemKind.Property, insert: `${label}: ` }));
    }
    const values = FIELD_VALUES[place] ?? (shape === 'bool' ? ['true', 'false'] : undefined);
    if (values) return values.map((label) => ({ label, kind: CompletionItemKind.EnumMember }));
    const paths = PATH_FIELDS[place];
    if (paths) return this.pathOffers(file, cursor.typed, paths);
    if (place === 'replicas.name') return selectorOffers(this.outputOf(file).filter((r) => REPLICATED_KINDS.has(r.kind)), {}, 'name', 'exact');
    const field = cursor.path.at(-1);
    const selector = cursor.path.slice(0, -1);
    const matching = SELECTOR_MATCHING[placeOf(selector)];
    if (typeof field === 'string' && SELECTOR_FIELDS.has(field) && matching) {
      const given = valueAt(cursor.document, selector);
      return selectorOffers(this.outputOf(file), isObject(given) ? given : {}, field, matching === 'profile' ? profileOf(this.ws.settings).replacementTargetSelectors : matching);
    }
    return [];
  }

  /** The directory entries the typed path's directory holds (relative to the kustomization), those the load restrictor lets it name. */
  private pathOffers(file: string, typed: string, field: { bases?: true; keyed?: true }): Offer[] {
    const dir = dirname(file);
    const key = field.keyed ? typed.indexOf('=') + 1 : 0;
    const written = typed.slice(key);
    if (/^[a-z][a-z0-9+.-]*:/i.test(written)) return [];
    const slash = written.lastIndexOf('/');
    const listed = resolve(dir, written.slice(0, slash + 1) || '.');
    const free = this.ws.settings.loadRestrictor === 'LoadRestrictionsNone';
    let names: string[];
    try {
      names = this.ws.fs.readDir(listed);
    } catch {
      return [];
    }
    const from = key + slash + 1;
    const hidden = written.slice(slash + 1).startsWith('.');
    const offers: Offer[] = [];
    for (const name of names) {
      const full = join(listed, name);
      if ((name.startsWith('.') && !hidden) || full === file) continue;
      const isDir = this.ws.fs.isDirectory(full);
      if (!free && !isWithin(dir, full) && !(field.bases && isDir)) continue;
      offers.push({ label: isDir ? `${name}/` : name, kind: isDir ? CompletionItemKind.Folder : CompletionItemKind.File, from });
    }
    // up a directory: where bases are, or anywhere when the restrictor allows
    if ((free || field.bases) && /^(\.\.\/)*$/.test(written.slice(0, slash + 1)) && listed !== '/') offers.push({ label: '../', kind: CompletionItemKind.Folder, from });
    return offers;
  }

  /**
   * In a resource or a patch: the fields and values its kind's schema allows at the cursor; at its
   * `kind`, `apiVersion` and `metadata`'s name and namespace, those of the resources of the roots
   * that read the file. Its type is its own `apiVersion` and `kind`, else the patch's `target`'s.
   */
  private async inResource(file: string, cursor: Cursor, targetOf: () => Record<string, unknown>): Promise<Offer[]> {
    if (Array.isArray(cursor.document)) return this.inJsonPatch(file, cursor, targetOf());
    const doc = isObject(cursor.document) ? cursor.document : {};
    const resources = this.outputOf(file);
    const target = str(doc['kind']) ? {} : targetOf();
    const kind = str(doc['kind']) ?? str(target['kind']);
    const key = cursor.path.join('.');
    if (cursor.at === 'value' && ['kind', 'apiVersion', 'metadata.name', 'metadata.namespace'].includes(key)) {
      const field = key === 'metadata.name' ? 'name' : key === 'metadata.namespace' ? 'namespace' : key;
      return selectorOffers(resources, field === 'kind' ? {} : { ...(kind && { kind }) }, field, 'exact');
    }
    if (!kind) return [];
    const type = await this.schemaOf(file, kind, str(doc['apiVersion']) ?? targetApiVersion(target) ?? resources.find((r) => r.kind === kind)?.apiVersion);
    const node = type && schemaAt(type, cursor.path);
    if (!node) return [];
    if (cursor.at === 'value') return valueOffers(node);
    const offers = fieldOffers(node, cursor.at === 'key' ? keysAt(doc, cursor.path) : new Set());
    return offers.length > 0 || cursor.at === 'key' ? offers : valueOffers(node);
  }

  /**
   * In a JSON patch (RFC 6902): an operation's keys, its `op`, and, along its `path` or `from`
   * (a JSON pointer), the fields of the target's kind at the pointer typed so far.
   */
  private async inJsonPatch(file: string, cursor: Cursor, target: Record<string, unknown>): Promise<Offer[]> {
    const [index, key] = cursor.path;
    if (typeof index !== 'number') return [];
    if (cursor.path.length === 1 && cursor.at !== 'value') {
      const present = cursor.at === 'key' ? keysAt(cursor.document, cursor.path) : new Set<string>();
      return JSON_PATCH_KEYS.filter((k) => !present.has(k)).map((label) => ({ label, kind: CompletionItemKind.Property, insert: `${label}: ` }));
    }
    if (cursor.path.length !== 2 || cursor.at === 'key') return [];
    if (key === 'op') return JSON_PATCH_OPS.map((label) => ({ label, kind: CompletionItemKind.EnumMember }));
    const kind = str(target['kind']);
    if ((key !== 'path' && key !== 'from') || !kind || !/^(\/|$)/.test(cursor.typed)) return [];
    const type = await this.schemaOf(file, kind, targetApiVersion(target) ?? this.outputOf(file).find((r) => r.kind === kind)?.apiVersion);
    const steps = cursor.typed.split('/').slice(1, -1).map((s): Step => (/^(\d+|-)$/.test(s) ? 0 : s.replace(/~1/g, '/').replace(/~0/g, '~')));
    const node = type && schemaAt(type, steps);
    if (!node) return [];
    const from = cursor.typed.lastIndexOf('/') + 1;
    return fieldOffers(node, new Set()).map((o) => ({ ...o, insert: `${from === 0 ? '/' : ''}${o.label.replace(/~/g, '~0').replace(/\//g, '~1')}`, from }));
  }

  /** The `target` of the first `patches` entry that names the file, in the kustomizations the roots that read it read. */
  private targetNaming(file: string): Record<string, unknown> {
    for (const root of this.ws.rootsReading(file)) {
      for (const k of root.outcome?.asked ?? []) {
        if (!isKustomizationFile(k)) continue;
        const doc = parseDocument(textOf(this.ws.fs, k) ?? '', { uniqueKeys: false }).toJS() as unknown;
        for (const field of ['patches', 'patchesJson6902']) {
          const entries = isObject(doc) ? doc[field] : undefined;
          for (const entry of Array.isArray(entries) ? entries : []) {
            if (isObject(entry) && typeof entry['path'] === 'string' && resolve(dirname(k), entry['path']) === file && isObject(entry['target'])) return entry['target'];
          }
        }
      }
    }
    return {};
  }

  /** The resources of the outputs of the roots that read the file: a kustomization that is a root, its own. */
  private outputOf(file: string): OutputResource[] {
    const roots = this.ws.rootsReading(file);
    const own = roots.find((r) => r.kustomization === file);
    return (own ? [own] : roots).flatMap((r) => r.outcome?.output?.resources ?? []);
  }

  /**
   * The schema of a kind in a file (of `apiVersion`, else of the version that has the kind): the
   * settings' (Kubernetes', `schemas`), else that of a CRD the build of the first root that reads
   * the file knows (read once per build, each CRD once).
   */
  private async schemaOf(file: string, kind: string, apiVersion: string | undefined): Promise<SchemaNode | undefined> {
    const root = this.ws.rootsReading(file).find((r) => r.outcome?.output);
    const given = await this.ws.schemasFor(root?.folder ?? this.ws.allRoots().find((r) => isWithin(r.folder, file))?.folder ?? dirname(file));
    const inSet = (set: SchemaSet): SchemaNode | undefined => {
      const version = apiVersion ?? set.apiVersionOf(kind);
      const type = version === undefined ? undefined : set.forType(version, kind);
      // a custom resource's `metadata` is an ObjectMeta, whatever its CRD writes
      return type?.custom ? { allOf: [{ properties: set.customResourceFields }, type.node] } : type?.node;
    };
    const output = root?.outcome?.output;
    const found = inSet(given);
    if (found || !output) return found;
    let withCrds = this.withCrds.get(output);
    if (!withCrds) this.withCrds.set(output, (withCrds = given.with(this.customSchemas(output))));
    return inSet(withCrds);
  }

  /** The schemas of the custom kinds a build knows: its CRDs, and its `crds:` files; any that do not read are left out (validation says why). */
  private customSchemas(output: RootOutput): CustomSchema[] {
    const out: CustomSchema[] = [];
    for (const crd of output.crds.objects) {
      let types = this.crdTypes.get(crd);
      if (!types) {
        try {
          types = crdVersions(crd as Record<string, unknown>, '').flatMap((v) => (v.schema ? [{ apiVersion: v.apiVersion, kind: v.kind, node: v.schema, file: '', crd: true }] : []));
        } catch {
          // a CRD that does not read adds nothing
          types = [];
        }
        this.crdTypes.set(crd, types);
      }
      out.push(...types);
    }
    for (const { text, file } of output.crds.files) {
      try {
        out.push(...customSchemasOf(text, file));
      } catch {
        // as above
      }
    }
    return out;
  }
}

/** The keys of a kustomization object not written yet (deprecated fields left out); at the top, with what each does. */
function keyOffers(shape: StructShape, present: ReadonlySet<string>, top: boolean): Offer[] {
  return Object.entries(fieldsOf(shape))
    .filter(([name]) => !present.has(name) && !(top && DEPRECATED_FIELDS.has(name)))
    .map(([name, s]) => ({
      label: name,
      kind: CompletionItemKind.Property,
      insert: typeof s === 'string' ? `${name}: ` : `${name}:`,
      detail: shapeText(s),
      ...(top && KUSTOMIZATION_FIELD_DOCS[name] && { documentation: KUSTOMIZATION_FIELD_DOCS[name] }),
    }));
}

/**
 * The values a selector's `field` can take: those of the resources that match what the selector
 * already says (each field exactly or as an anchored regular expression, as `matching` says).
 * Names and namespaces are offered as the resources had them first and as they are in the
 * output: a selector matches either.
 */
function selectorOffers(resources: readonly OutputResource[], selector: Record<string, unknown>, field: string, matching: TargetIdMatching): Offer[] {
  const tests = Object.entries(selector)
    .filter(([k, v]) => k !== field && SELECTOR_FIELDS.has(k) && typeof v === 'string' && v !== '')
    .map(([k, v]) => [k, matching === 'exact' ? (value: string) => value === v : matcher(v as string)] as const);
  const found = new Map<string, Set<string>>();
  for (const r of resources) {
    if (!tests.every(([k, matches]) => valuesOf(r, k).some(matches))) continue;
    for (const value of valuesOf(r, field)) {
      if (value === '') continue;
      let kinds = found.get(value);
      if (!kinds) found.set(value, (kinds = new Set()));
      kinds.add(r.kind);
    }
  }
  return [...found]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([label, kinds]) => ({ label, kind: CompletionItemKind.Value, ...(field !== 'kind' && { detail: [...kinds].join(', ') }) }));
}

/** What a resource has for a selector's field (names and namespaces: the first and the current). */
function valuesOf(r: OutputResource, field: string): string[] {
  const slash = r.apiVersion.lastIndexOf('/');
  switch (field) {
    case 'kind':
      return [r.kind];
    case 'apiVersion':
      return [r.apiVersion];
    case 'group':
      return [slash < 0 ? '' : r.apiVersion.slice(0, slash)];
    case 'version':
      return [r.apiVersion.slice(slash + 1)];
    case 'name':
      return r.originalName === r.name ? [r.name] : [r.originalName, r.name];
    case 'namespace':
      return r.originalNamespace === r.namespace ? [r.namespace] : [r.originalNamespace, r.namespace];
    default:
      return [];
  }
}

/** Whether a value matches a selector's field: as a regular expression of the whole value, else (one that does not compile) as written. */
function matcher(pattern: string): (value: string) => boolean {
  try {
    const re = new RegExp(`^(?:${pattern})$`);
    return (value) => re.test(value);
  } catch {
    return (value) => value === pattern;
  }
}

/** A target's `group` and `version` as an apiVersion, when it gives the version. */
function targetApiVersion(target: Record<string, unknown>): string | undefined {
  const version = str(target['version']);
  const group = str(target['group']);
  return version && (group ? `${group}/${version}` : version);
}

/** A completion as LSP has it: an edit of the word at the cursor. */
function itemOf(o: Offer, cursor: Cursor): CompletionItem {
  const start = { line: cursor.range.start.line, character: cursor.range.start.character + (o.from ?? 0) };
  return {
    label: o.label,
    kind: o.kind,
    ...(o.detail && { detail: o.detail }),
    ...(o.documentation && { documentation: { kind: 'markdown', value: o.documentation } }),
    textEdit: { range: { start, end: cursor.range.end }, newText: cursor.glue + (o.insert ?? o.label) },
  };
}

/** A place in a kustomization as the tables above name it: its keys, without list indexes (`patches.target`). */
function placeOf(path: readonly Step[]): string {
  return path.filter((s) => typeof s === 'string').join('.');
}

function isStruct(shape: Shape): shape is StructShape {
  return typeof shape === 'object' && 'struct' in shape;
}

/** A struct's fields, with those of the structs it inlines. */
function fieldsOf(shape: StructShape): Record<string, Shape> {
  return Object.assign({}, shape.fields, ...(shape.inline ?? []).map(fieldsOf));
}

/** The shape of the value at `path` of a kustomization; undefined where it has none. */
function shapeAt(shape: Shape, path: readonly Step[]): Shape | undefined {
  let at: Shape | undefined = shape;
  for (const step of path) {
    if (at === undefined || typeof at === 'string') return undefined;
    if ('list' in at) at = typeof step === 'number' ? at.list : undefined;
    else if ('map' in at) at = typeof step === 'string' ? at.map : undefined;
    else at = typeof step === 'string' ? fieldsOf(at)[step] : undefined;
  }
  return at;
}

/** A shape as Go would write its type: `string`, `[]Patch`, `map[string]string`. */
function shapeText(shape: Shape): string {
  if (typeof shape === 'string') return shape;
  if ('list' in shape) return `[]${shapeText(shape.list)}`;
  if ('map' in shape) return `map[string]${shapeText(shape.map)}`;
  return shape.struct;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}
