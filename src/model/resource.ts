import { isMap, cloneValue, owned, ownValue, setKey, shareValue, unshared, writableChild, type Value, type YMap } from '../yaml/value.js';
import { ResId, parseApiVersion, type Gvk } from './resid.js';
import type { Origin } from './origin.js';

/** How a generated resource combines with one of the same id from a base (`unspecified` acts as `create`). */
export type GenerationBehavior = 'create' | 'merge' | 'replace' | 'unspecified';

/**
 * A Kubernetes object plus the build state kustomize tracks for it. The state lives here,
 * not in annotations inside the object, so no step has to parse it back out.
 *
 * The object may share parts with other builds (a cache's parsed files, see `shareValue`),
 * frozen. {@link obj} is the object writable throughout: the resource copies what it shares
 * the first time it is asked, so a plugin that edits `obj` needs to know nothing of sharing.
 * The builtins, which touch a few fields of many resources, read {@link view} instead and
 * write through what copies only the parts on their way: the object itself, its `metadata`
 * and the labels and annotations maps there are always the resource's own, field specs copy
 * the path they visit (`visitField`), and {@link ownPath} or {@link ownField} make one field
 * writable.
 */
export class Resource {
  private object: YMap;
  /** whether the object may hold shared parts: cleared once `obj` has copied them, set again by anything that puts a new object in */
  private mayShare = true;
  /** ids before each rename, oldest first; their group/version are the current ones, as in kustomize */
  previous: { kind: string; name: string; namespace: string }[] = [];
  /** prefixes and suffixes added to the name, innermost first */
  namePrefixes: string[] = [];
  nameSuffixes: string[] = [];
  /** ids of resources whose name references were resolved to this one */
  refBy: ResId[] = [];
  /** names of vars that read this resource */
  refVarNames: string[] = [];
  /** set by generators */
  behavior: GenerationBehavior | undefined;
  needsHashSuffix = false;
  /** rendered by Helm, under a kustomize release that leaves its namespace to Helm (5.8 on): the `namespace` field passes it over */
  helmGenerated = false;
  /** where the resource came from, when buildMetadata asks to record it */
  origin: Origin | undefined;
  /** the file it was read from (absolute, or a URL), when it was read from one */
  sourceFile: string | undefined;
  /** which transformers changed it, when buildMetadata asks to record it */
  transformations: Origin[] | undefined;

  private cachedId: ResId | undefined;
  /** the identifying fields cachedId was made from (fields, not an array: the id is read for every resource by every step) */
  private idApiVersion: unknown;
  private idKind: unknown;
  private idName: unknown;
  private idNamespace: unknown;
  /**
   * previousIds as last made: `previous` is only appended to (or replaced whole), so the ids made
   * for its first `count` entries stay right while the group and version stay the same
   */
  private cachedPrevious: { of: Resource['previous']; apiVersion: unknown; count: number; ids: ResId[] } | undefined;

  constructor(obj: YMap) {
    this.object = withOwnMetadata(obj);
  }

  /** The object, writable throughout: every part shared with another build copied first (see the class). */
  get obj(): YMap {
    if (this.mayShare) {
      this.object = owned(this.object);
      this.mayShare = false;
    }
    return this.object;
  }

  set obj(obj: YMap) {
    this.object = withOwnMetadata(obj);
    this.mayShare = true;
  }

  /**
   * The object as it is: parts below its top level, `metadata`, labels and annotations may be
   * shared with other builds, frozen. For reading, and for the builtins' writes that copy
   * their way (see the class).
   */
  get view(): YMap {
    return this.object;
  }

  /** The value of one top-level field, writable throughout; undefined when absent. */
  ownField(key: string): Value | undefined {
    this.ownPath([key]);
    return ownValue(this.object, key);
  }

  /**
   * Makes writable what a step that follows `keys` from the top may write: the maps the keys
   * lead through (copied where shared, what they hold besides staying shared), and the value
   * where they end, throughout. The keys end early at a value that is not a map, which is made
   * writable throughout, or at a missing one (a step that creates it creates it in a writable map).
   */
  ownPath(keys: readonly string[]): void {
    let node = this.object;
    for (const key of keys) {
      const child = ownValue(node, key);
      if (child === undefined) return;
      if (!isMap(child)) {
        setKey(node, key, owned(child));
        return;
      }
      node = writableChild(node, key) as YMap;
    }
    owned(node);
  }

  /** The current id, read from the object (cached while the identifying fields stay the same). */
  get id(): ResId {
    const obj = this.object;
    const meta = obj['metadata'];
    const m = isMap(meta) ? meta : undefined;
    const apiVersion = obj['apiVersion'];
    const kind = obj['kind'];
    const name = m?.['name'];
    const namespace = m?.['namespace'];
    const cached = this.cachedId;
    if (cached && this.idApiVersion === apiVersion && this.idKind === kind && this.idName === name && this.idNamespace === namespace) return cached;
    this.idApiVersion = apiVersion;
    this.idKind = kind;
    this.idName = name;
    this.idNamespace = namespace;
    return (this.cachedId = new ResId({ ...parseApiVersion(str(apiVersion)), kind: str(kind) }, str(name), str(namespace)));
  }

  get gvk(): Gvk {
    return this.id;
  }
  get kind(): string {
    return str(this.object['kind']);
  }
  get apiVersion(): string {
    return str(this.object['apiVersion']);
  }
  get name(): string {
    return this.id.name;
  }
  get namespace(): string {
    return this.id.namespace;
  }

  /** The id the resource had first. */
  get originalId(): ResId {
    return this.previousIds[0] ?? this.id;
  }

  get previousIds(): readonly ResId[] {
    const previous = this.previous;
    // group and version come from the apiVersion alone: comparing it spares reading the whole id
    const apiVersion = this.object['apiVersion'];
    const c = this.cachedPrevious;
    const kept = c && c.of === previous && c.apiVersion === apiVersion ? c : undefined;
    if (kept && kept.count === previous.length) return kept.ids;
    // a rename appended an entry: the ids made so far stay, only the new entries get ids
    const cur = this.id;
    const ids = kept ? [...kept.ids] : [];
    for (let i = ids.length; i < previous.length; i++) {
      const p = previous[i]!;
      ids.push(new ResId({ group: cur.group, version: cur.version, kind: p.kind }, p.name, p.namespace));
    }
    this.cachedPrevious = { of: previous, apiVersion, count: previous.length, ids };
    return ids;
  }

  /** The current id and every earlier one. */
  get allIds(): ResId[] {
    return [...this.previousIds, this.id];
  }

  /** Whether the resource is, or was, called `name` (cheaper than going through its ids). */
  hasHadName(name: string): boolean {
    return this.name === name || this.previous.some((p) => p.name === name);
  }

  /** Remembers the current id before a transformer renames the resource. */
  storePreviousId(): void {
    const id = this.id;
    this.previous.push({ kind: id.kind, name: id.name, namespace: id.effectiveNamespace });
  }

  metadata(create = false): YMap | undefined {
    const m = this.object['metadata'];
    if (isMap(m)) return m;
    if (!create) return undefined;
    const fresh: YMap = {};
    this.object['metadata'] = fresh;
    return fresh;
  }

  setName(name: string): void {
    this.metadata(true)!['name'] = name;
  }

  setNamespace(namespace: string): void {
    this.metadata(true)!['namespace'] = namespace;
  }

  /** labels or annotations as a map; undefined when absent */
  stringMap(field: 'labels' | 'annotations'): YMap | undefined {
    const v = this.metadata()?.[field];
    return isMap(v) ? v : undefined;
  }

  setStringMapEntry(field: 'labels' | 'annotations', key: string, value: string): void {
    const meta = this.metadata(true)!;
    let m = meta[field];
    if (!isMap(m)) {
      m = {};
      meta[field] = m;
    }
    setKey(m, key, value);
  }

  /** A deep copy with its build state; generators and bases that are reused need independent copies. */
  clone(): Resource {
    const r = new Resource(cloneValue(this.object));
    r.copyStateFrom(this);
    return r;
  }

  /**
   * Freezes the object (see `shareValue`) and returns it, for other resources to share; this one
   * then owns its top level and metadata again (see the class). What a cache keeps of a base is
   * its resources' objects so shared.
   */
  share(): YMap {
    const frozen = shareValue(this.object);
    this.obj = frozen;
    return frozen;
  }

  copyStateFrom(o: Resource): void {
    this.previous = o.previous.map((p) => ({ ...p }));
    this.namePrefixes = [...o.namePrefixes];
    this.nameSuffixes = [...o.nameSuffixes];
    this.refBy = [...o.refBy];
    this.refVarNames = [...o.refVarNames];
    this.behavior = o.behavior;
    this.needsHashSuffix = o.needsHashSuffix;
    this.helmGenerated = o.helmGenerated;
    this.origin = o.origin;
    this.sourceFile = o.sourceFile;
    this.transformations = o.transformations && [...o.transformations];
  }

  /** Whether it is marked `config.kubernetes.io/local-config: "true"` (dropped from the output). */
  get isLocalConfig(): boolean {
    return this.stringMap('annotations')?.['config.kubernetes.io/local-config'] === 'true';
  }

  toString(): string {
    return this.id.toString();
  }

  /** What `JSON.stringify` shows of it: its object (the manifest), not the build's bookkeeping. */
  toJSON(): YMap {
    return this.object;
  }
}

/** The object with its top level, `metadata` and the labels and annotations there its own (copied where shared). */
function withOwnMetadata(shared: YMap): YMap {
  const obj = unshared(shared);
  if (!isMap(obj['metadata'])) return obj;
  const meta = writableChild(obj, 'metadata') as YMap;
  for (const field of ['labels', 'annotations']) if (isMap(meta[field])) writableChild(meta, field);
  return obj;
}

function str(v: Value | undefined): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  return typeof v === 'object' ? '' : String(v);
}
