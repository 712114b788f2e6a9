/**
 * A map bounded by the size of what it holds (as `sizeOf` counts each entry): setting an
 * entry drops the least recently used ones until the rest fit, and an entry larger than the
 * bound is not kept at all. Reading an entry makes it the most recently used.
 */
export class SizedLru<K, V> {
  private readonly entries = new Map<K, V>();
  private size = 0;

  constructor(
    private readonly maxSize: number,
    private readonly sizeOf: (key: K, value: V) => number,
  ) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const size = this.sizeOf(key, value);
    if (size > this.maxSize) return;
    this.entries.set(key, value);
    this.size += size;
    for (const [k, v] of this.entries) {
      if (this.size <= this.maxSize) break;
      this.entries.delete(k);
      this.size -= this.sizeOf(k, v);
    }
  }

  delete(key: K): void {
    const old = this.entries.get(key);
    if (old === undefined) return;
    this.entries.delete(key);
    this.size -= this.sizeOf(key, old);
  }

  clear(): void {
    this.entries.clear();
    this.size = 0;
  }
}
