/**
 * A map bounded by the size of what it holds (as `sizeOf` counts each entry, when it is set)
 * and, if given, by its number of entries: setting an entry drops the least recently used ones
 * until the rest fit, and an entry larger than the bound is not kept at all. Reading an entry
 * makes it the most recently used; setting it again measures it again (for a value that grew).
 */
export class SizedLru<K, V> {
  private readonly entries = new Map<K, { value: V; size: number }>();
  private total = 0;

  constructor(
    private readonly maxSize: number,
    private readonly sizeOf: (key: K, value: V) => number,
    private readonly maxCount = Infinity,
  ) {}

  /** The sizes of the entries held, summed. */
  get size(): number {
    return this.total;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const size = this.sizeOf(key, value);
    if (size > this.maxSize || this.maxCount < 1) return;
    this.entries.set(key, { value, size });
    this.total += size;
    for (const [k, old] of this.entries) {
      if (this.total <= this.maxSize && this.entries.size <= this.maxCount) break;
      this.entries.delete(k);
      this.total -= old.size;
    }
  }

  delete(key: K): void {
    const old = this.entries.get(key);
    if (old === undefined) return;
    this.entries.delete(key);
    this.total -= old.size;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }
}
