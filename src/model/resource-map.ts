import { KustomizeError } from '../errors.js';
import type { ResId } from './resid.js';
import type { Resource } from './resource.js';

/**
 * The resources of a build, in order, with O(1) lookups by current id, by any id a resource
 * has had, and by any name it has had. Transformers edit resources in place, so the indexes
 * are kept two ways: whoever may have renamed anything calls `changed()` (the indexes are
 * rebuilt at the next lookup; the pipeline does so after every transformer that does not say
 * what it edited), and a transformer that knows which resources it edited says so with
 * `edited()` (only those are re-indexed, so a long run of patches does not re-read the map).
 */
export class ResourceMap {
  private list: Resource[] = [];
  private indexes: Partial<Record<IndexName, ResourceIndex>> = {};
  /** each resource's place in the list, for ordering what the indexes return (gaps allowed) */
  private places: Map<Resource, number> | undefined;
  /** resources edited since `trackEdits` started, when it runs */
  private editLog: Set<Resource> | undefined;

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

  /** Invalidates the indexes after resources were renamed, added or removed behind the map's back. */
  changed(): void {
    this.indexes = {};
    this.places = undefined;
  }

  /** Records that `rs` (still in the map) were edited in place: their ids may have changed, no other resource's did. */
  edited(rs: Iterable<Resource>): void {
    for (const r of rs) {
      for (const index of Object.values(this.indexes)) if (index.remove(r)) index.add(r);
      this.editLog?.add(r);
    }
  }

  /** Runs `edit`, which reports its edits with `edited()`; returns the resources it reported. */
  async trackEdits(edit: () => Promise<void>): Promise<Set<Resource>> {
    const log = new Set<Resource>();
    this.editLog = log;
    try {
      await edit();
    } finally {
      this.editLog = undefined;
    }
    return log;
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
  }

  appendAll(rs: Iterable<Resource>): void {
    for (const r of rs) this.append(r);
  }

  /** Replaces the whole list, e.g. with a plugin's output. */
  setAll(rs: Resource[]): void {
    this.list = rs;
    this.changed();
  }

  remove(r: Resource): void {
    this.removeAll([r]);
  }

  /** Removes resources; the order of the others stays, so the indexes only forget the removed. */
  removeAll(rs: Iterable<Resource>): void {
    const gone = new Set(rs);
    if (gone.size === 0) return;
    const kept = this.list.filter((r) => !gone.has(r));
    if (kept.length === this.list.length) return;
    this.list = kept;
    for (const r of gone) {
      for (const index of Object.values(this.indexes)) index.remove(r);
      this.places?.delete(r);
    }
  }

  /** Puts `replacement` where `old` was (in the indexes too: a generator merging into a base's resource does not cost a rebuild). */
  replace(old: Resource, replacement: Resource): void {
    const i = this.list.indexOf(old);
    if (i < 0) throw new Error(`resource ${old.id} is not in the map`);
    this.list[i] = replacement;
    for (const index of Object.values(this.indexes)) if (index.remove(old)) index.add(replacement);
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

  /** The one resource that has, or had, `id`; kustomize's wording when there is none or several. */
  demandOne(id: ResId, what = 'Id'): Resource {
    const found = this.byAnyId(id);
    if (found.length === 1) return found[0]!;
    if (found.length > 1) throw new KustomizeError('RESOURCE_NOT_FOUND', `multiple matches for ${what} ${id}`);
    throw new KustomizeError('RESOURCE_NOT_FOUND', `no matches for ${what} ${id}`);
  }

  private lookup(index: IndexName, key: string): Resource[] {
    const found = (this.indexes[index] ??= new ResourceIndex(INDEX_KEYS[index], this.list)).get(key);
    // a copy: the caller may edit what it finds, and `edited` then re-files it
    if (found.length < 2) return found.slice();
    const places = (this.places ??= new Map(this.list.map((r, i) => [r, i])));
    return [...found].sort((a, b) => places.get(a)! - places.get(b)!);
  }
}

type IndexName = 'current' | 'any' | 'name';

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
