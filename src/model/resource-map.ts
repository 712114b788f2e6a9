import { KustomizeError } from '../errors.js';
import type { ResId } from './resid.js';
import type { Resource } from './resource.js';

/**
 * The resources of a build, in order, with O(1) lookups by current id and by any id a
 * resource has had. Transformers edit resources in place, so the index is rebuilt lazily:
 * whoever renames resources calls `changed()` before the next lookup (the pipeline does so
 * after every transformer).
 */
export class ResourceMap {
  private list: Resource[] = [];
  private byCurrent: Map<string, Resource[]> | undefined;
  private byAny: Map<string, Resource[]> | undefined;

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
    this.byCurrent = undefined;
    this.byAny = undefined;
  }

  /** Appends a resource; refuses one whose current id is already taken. */
  append(r: Resource): void {
    const clash = this.byCurrentId(r.id);
    if (clash.length > 0) {
      throw new KustomizeError('RESOURCE_CONFLICT', `may not add resource with an already registered id: ${r.id}`);
    }
    this.list.push(r);
    this.add(this.byCurrent, r.id.key, r);
    if (this.byAny) for (const id of r.allIds) this.add(this.byAny, id.key, r);
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
    const i = this.list.indexOf(r);
    if (i >= 0) {
      this.list.splice(i, 1);
      this.changed();
    }
  }

  removeAll(rs: Iterable<Resource>): void {
    const gone = new Set(rs);
    if (gone.size === 0) return;
    this.list = this.list.filter((r) => !gone.has(r));
    this.changed();
  }

  /** Puts `replacement` where `old` was. */
  replace(old: Resource, replacement: Resource): void {
    const i = this.list.indexOf(old);
    if (i < 0) throw new Error(`resource ${old.id} is not in the map`);
    this.list[i] = replacement;
    this.changed();
  }

  indexOf(r: Resource): number {
    return this.list.indexOf(r);
  }

  /** Resources whose current id is `id` (at most one in a consistent map). */
  byCurrentId(id: ResId): Resource[] {
    if (!this.byCurrent) {
      this.byCurrent = new Map();
      for (const r of this.list) this.add(this.byCurrent, r.id.key, r);
    }
    return this.byCurrent.get(id.key) ?? [];
  }

  /** Resources that have, or once had, the id `id`. */
  byAnyId(id: ResId): Resource[] {
    if (!this.byAny) {
      this.byAny = new Map();
      for (const r of this.list) for (const rid of new Set(r.allIds.map((i) => i.key))) this.add(this.byAny, rid, r);
    }
    return this.byAny.get(id.key) ?? [];
  }

  /** The one resource that has, or had, `id`; kustomize's wording when there is none or several. */
  demandOne(id: ResId, what = 'Id'): Resource {
    const found = this.byAnyId(id);
    if (found.length === 1) return found[0]!;
    if (found.length > 1) throw new KustomizeError('RESOURCE_NOT_FOUND', `multiple matches for ${what} ${id}`);
    throw new KustomizeError('RESOURCE_NOT_FOUND', `no matches for ${what} ${id}`);
  }

  private add(index: Map<string, Resource[]> | undefined, key: string, r: Resource): void {
    if (!index) return;
    const bucket = index.get(key);
    if (bucket) bucket.push(r);
    else index.set(key, [r]);
  }
}
