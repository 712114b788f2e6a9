import { KustomizeError } from '../errors.js';
import type { ResId } from './resid.js';
import type { Resource } from './resource.js';
import { isMap, type YMap } from '../yaml/value.js';

/**
 * The resources of a build, in order, with O(1) lookups by current id, by any id a resource
 * has had, and by any name it has had. Steps edit resources in place, and need not say what
 * they edited: after every step the pipeline calls {@link settle}, which re-files the resources
 * whose ids changed. A step that looks up what it renamed itself, before it ends, says so with
 * {@link edited}.
 */
export class ResourceMap {
  private list: Resource[] = [];
  private indexes: Partial<Record<IndexName, ResourceIndex>> = {};
  /** what each resource (at the same place in `list`) was filed under, while there are indexes */
  private filed: FiledIds[] | undefined;
  /** each resource's place in the list, for ordering what the indexes return (gaps allowed) */
  private places: Map<Resource, number> | undefined;

  constructor(resources: Iterable<Resource> = []) {
    for (const r of resources) this.list.push(r);
  }

  get size(): number {
    return this.list.length;
  }

  resources(): readonly Resource[] {
    return this.list;
  }

  [Symbol.iterator](): Iterator<Resource> {
    return this.list[Symbol.iterator]();
  }

  /**
   * Brings the map up to date after a step edited its resources in place: a resource whose ids
   * changed is filed again under its new ones, and a resource the step emptied is dropped, as
   * kustomize drops it. (Comparing ids costs little: a resource keeps its id object while the
   * fields it is made of stay the same.)
   */
  settle(): void {
    const list = this.list;
    const filed = this.filed;
    const emptied: Resource[] = [];
    const renamed: number[] = [];
    for (let i = 0; i < list.length; i++) {
      const r = list[i]!;
      if (isEmptyObject(r.view)) emptied.push(r);
      else if (filed && !filed[i]!.still(r)) renamed.push(i);
    }
    // a step that renamed many (a prefix, a namespace) is cheaper to index afresh at the next lookup
    if (renamed.length > list.length / 8) this.forgetIndexes();
    else for (const i of renamed) this.refile(i);
    this.removeAll(emptied);
  }

  /** Files `rs` (still in the map) again now: a step that renamed them looks them up before it ends. */
  edited(rs: Iterable<Resource>): void {
    if (!this.filed) return;
    for (const r of rs) {
      const i = this.list.indexOf(r);
      if (i >= 0) this.refile(i);
    }
  }

  /** Files the resource at place `i` again, under the ids it has now. */
  private refile(i: number): void {
    const r = this.list[i]!;
    for (const index of Object.values(this.indexes)) if (index.remove(r)) index.add(r);
    this.filed![i] = new FiledIds(r);
  }

  /** Appends a resource; refuses one whose current id is already taken. */
  append(r: Resource): void {
    const clash = this.byCurrentId(r.id);
    if (clash.length > 0) {
      throw new KustomizeError('RESOURCE_CONFLICT', `may not add resource with an already registered id: ${r.id}`);
    }
    this.places?.set(r, this.list.length === 0 ? 0 : this.places.get(this.list[this.list.length - 1]!)! + 1);
    this.list.push(r);
    for (const index of Object.values(this.indexes)) index.add(r);
    this.filed?.push(new FiledIds(r));
  }

  appendAll(rs: Iterable<Resource>): void {
    for (const r of rs) this.append(r);
  }

  /** Replaces the whole list, e.g. with a plugin's output. */
  setAll(rs: Resource[]): void {
    this.list = rs;
    this.forgetIndexes();
  }

  private forgetIndexes(): void {
    this.indexes = {};
    this.filed = undefined;
    this.places = undefined;
  }

  remove(r: Resource): void {
    this.removeAll([r]);
  }

  /** Removes resources; the order of the others stays, so the indexes only forget the removed. */
  removeAll(rs: Iterable<Resource>): void {
    const gone = new Set(rs);
    if (gone.size === 0) return;
    const filed = this.filed;
    const kept = this.list.filter((r) => !gone.has(r));
    if (kept.length === this.list.length) return;
    if (filed) this.filed = filed.filter((_, i) => !gone.has(this.list[i]!));
    this.list = kept;
    for (const r of gone) {
      for (const index of Object.values(this.indexes)) index.remove(r);
      this.places?.delete(r);
    }
  }

  /** Puts `replacement` where `old` was (in the indexes too: a generator merging into a base's resource does not cost a rebuild). */
  replace(old: Resource, replacement: Resource): void {
    const i = this.list.indexOf(old);
    if (i < 0) throw new KustomizeError('RESOURCE_NOT_FOUND', `resource ${old.id} is not in the map`);
    this.list[i] = replacement;
    for (const index of Object.values(this.indexes)) if (index.remove(old)) index.add(replacement);
    if (this.filed) this.filed[i] = new FiledIds(replacement);
    const place = this.places?.get(old);
    if (place !== undefined) {
      this.places!.delete(old);
      this.places!.set(replacement, place);
    }
  }

  indexOf(r: Resource): number {
    return this.list.indexOf(r);
  }

  /** Resources whose current id is `id` (at most one in a consistent map). */
  byCurrentId(id: ResId): Resource[] {
    return this.lookup('current', id.key);
  }

  /** Resources that have, or once had, the id `id`. */
  byAnyId(id: ResId): Resource[] {
    return this.lookup('any', id.key);
  }

  /** Resources that are, or once were, called `name`, in map order. */
  withName(name: string): Resource[] {
    return this.lookup('name', name);
  }

  /**
   * The CustomResourceDefinitions, in map order: a strategic-merge patch on a custom resource
   * looks for its CRD, patch after patch. (An index of CRDs alone: one of every kind would
   * re-file each resource a step edits in a bucket as large as its kind.)
   */
  customResourceDefinitions(): Resource[] {
    return this.lookup('crd', CRD_KIND);
  }

  /** The one resource that has, or had, `id`; kustomize's wording when there is none or several. */
  demandOne(id: ResId, what = 'Id'): Resource {
    const found = this.byAnyId(id);
    if (found.length === 1) return found[0]!;
    if (found.length > 1) throw new KustomizeError('RESOURCE_NOT_FOUND', `multiple matches for ${what} ${id}`);
    throw new KustomizeError('RESOURCE_NOT_FOUND', `no matches for ${what} ${id}`);
  }

  private lookup(index: IndexName, key: string): Resource[] {
    this.filed ??= this.list.map((r) => new FiledIds(r));
    const found = (this.indexes[index] ??= new ResourceIndex(INDEX_KEYS[index], this.list)).get(key);
    // a copy: the caller may edit what it finds, and `edited` then re-files it
    if (found.length < 2) return found.slice();
    const places = (this.places ??= new Map(this.list.map((r, i) => [r, i])));
    return [...found].sort((a, b) => places.get(a)! - places.get(b)!);
  }
}

type IndexName = 'current' | 'any' | 'name' | 'crd';

const CRD_KIND = 'CustomResourceDefinition';

/**
 * What a resource's index keys are made of, as they were when it was filed: the fields of its
 * id, as written, and its earlier ids (`previous` is only appended to, or replaced whole).
 * Comparing them is all a settle does for a resource a step left alone.
 */
class FiledIds {
  private readonly apiVersion: unknown;
  private readonly kind: unknown;
  private readonly name: unknown;
  private readonly namespace: unknown;
  private readonly previous: Resource['previous'];
  private readonly count: number;

  constructor(r: Resource) {
    const o = r.view;
    const meta = o['metadata'];
    this.apiVersion = o['apiVersion'];
    this.kind = o['kind'];
    this.name = isMap(meta) ? meta['name'] : undefined;
    this.namespace = isMap(meta) ? meta['namespace'] : undefined;
    this.previous = r.previous;
    this.count = r.previous.length;
  }

  /** Whether `r`'s ids are still these. */
  still(r: Resource): boolean {
    const o = r.view;
    if (o['apiVersion'] !== this.apiVersion || o['kind'] !== this.kind || r.previous !== this.previous || r.previous.length !== this.count) return false;
    const meta = o['metadata'];
    return isMap(meta) ? meta['name'] === this.name && meta['namespace'] === this.namespace : this.name === undefined && this.namespace === undefined;
  }
}

function isEmptyObject(o: YMap): boolean {
  // a resource almost always has a kind: no enumeration for it
  if (o['kind'] !== undefined) return false;
  for (const _ in o) return false;
  return true;
}

/** The keys a resource is found under in each index, each once (few: a resource is renamed a few times at most). */
const INDEX_KEYS: Record<IndexName, (r: Resource) => readonly string[]> = {
  current: (r) => [r.id.key],
  any: (r) => {
    const keys = [r.id.key];
    for (const id of r.previousIds) if (!keys.includes(id.key)) keys.push(id.key);
    return keys;
  },
  name: (r) => {
    const names = [r.name];
    for (const p of r.previous) if (!names.includes(p.name)) names.push(p.name);
    return names;
  },
  crd: (r) => (r.kind === CRD_KIND ? [CRD_KIND] : []),
};

/** One lookup: a map from key to the resources under it, and the keys each resource is under. */
class ResourceIndex {
  private readonly buckets = new Map<string, Resource[]>();
  private readonly keysOf = new Map<Resource, readonly string[]>();

  constructor(
    private readonly keys: (r: Resource) => readonly string[],
    resources: readonly Resource[],
  ) {
    for (const r of resources) this.add(r);
  }

  get(key: string): readonly Resource[] {
    return this.buckets.get(key) ?? [];
  }

  add(r: Resource): void {
    const keys = this.keys(r);
    this.keysOf.set(r, keys);
    for (const key of keys) {
      const bucket = this.buckets.get(key);
      if (bucket) bucket.push(r);
      else this.buckets.set(key, [r]);
    }
  }

  /** Forgets `r`; false when it was not indexed. */
  remove(r: Resource): boolean {
    const keys = this.keysOf.get(r);
    if (!keys) return false;
    this.keysOf.delete(r);
    for (const key of keys) {
      const bucket = this.buckets.get(key)!;
      if (bucket.length === 1) this.buckets.delete(key);
      else bucket.splice(bucket.indexOf(r), 1);
    }
    return true;
  }
}
