/**
 * The order kustomize prints map keys in: go-yaml v2's "natural" order (`keyList.Less` in
 * sorter.go, string keys only, since every key has been through JSON), applied the way Go's
 * `sort.Sort` applies it.
 */
import { compareUtf8 } from './go-json.js';
import type { YMap } from './value.js';

/**
 * go-yaml's "natural" key order. Compared rune by rune; at the first difference: two letters
 * compare by code point; a letter sorts after a non-letter; otherwise runs of digits starting
 * there compare by numeric value, then by run length, then by code point. A proper prefix
 * sorts first. Exported so other parts that must order keys like kustomize's output can.
 */
export function compareYamlKeys(a: string, b: string): number {
  if (a === b) return 0;
  const ar = toRunes(a);
  const br = toRunes(b);
  const n = Math.min(ar.length, br.length);
  for (let i = 0; i < n; i++) {
    const ac = runeAt(ar, i);
    const bc = runeAt(br, i);
    if (ac === bc) continue;
    const al = isLetter(ac);
    const bl = isLetter(bc);
    if (al && bl) return ac - bc;
    if (al) return 1;
    if (bl) return -1;
    return compareDigitRuns(ar, br, i, ac, bc);
  }
  return ar.length - br.length;
}

/**
 * The keys of a map in go-yaml order.
 *
 * `keyList.Less` is not transitive for some key sets (`v1`, `v10`, `v1alpha1`, `v2beta1` form a
 * cycle); kustomize's own output then depends on Go's random map iteration order. For small
 * maps Go iterates a rotation of the order the keys were inserted in, which is the JSON (byte)
 * order, and `sort.Sort` on up to 12 elements is an insertion sort: doing the same from byte
 * order prints one of the orders kustomize prints. Larger maps are random in Go anyway.
 *
 * The order depends on the key list alone, and the maps of a kind of resource share their key
 * lists: orders are kept by list (shared by builds, bounded), in a trie of the keys as listed.
 */
export function sortedKeys(m: YMap): readonly string[] {
  if (ORDERS.size >= ORDERS_LIMIT) {
    ORDERS.root = emptyNode();
    ORDERS.size = 0;
  }
  let node = ORDERS.root;
  // for-in lists the keys as Object.keys does (plain objects inherit none), with no array made
  for (const key in m) {
    let next = node.next.get(key);
    if (!next) {
      node.next.set(key, (next = emptyNode()));
      ORDERS.size++;
    }
    node = next;
  }
  return (node.sorted ??= Object.freeze(sortKeys(Object.keys(m))));
}

interface OrderNode {
  next: Map<string, OrderNode>;
  sorted?: readonly string[];
}
const emptyNode = (): OrderNode => ({ next: new Map() });
const ORDERS = { root: emptyNode(), size: 0 };
const ORDERS_LIMIT = 20_000;

/** The go-yaml order of a key list (what {@link sortedKeys} keeps); sorts `keys` in place. */
export function sortKeys(keys: string[]): string[] {
  if (keys.length > 12) return keys.sort(compareYamlKeys);
  // insertion sorts both (Array.prototype.sort allocates a work array per call)
  insertionSort(keys, compareUtf8);
  insertionSort(keys, compareYamlKeys);
  return keys;
}

function insertionSort(keys: string[], compare: (a: string, b: string) => number): void {
  for (let i = 1; i < keys.length; i++) {
    for (let j = i; j > 0 && compare(keys[j]!, keys[j - 1]!) < 0; j--) {
      const t = keys[j]!;
      keys[j] = keys[j - 1]!;
      keys[j - 1] = t;
    }
  }
}

/** A string's runes: the string itself when it has no surrogate pairs, else its code points. */
type Runes = string | number[];

function toRunes(s: string): Runes {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return Array.from(s, (ch) => ch.codePointAt(0)!);
  }
  return s;
}

function runeAt(r: Runes, i: number): number {
  return typeof r === 'string' ? r.charCodeAt(i) : r[i]!;
}

function isLetter(c: number): boolean {
  if (c < 0x80) return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  return /\p{L}/u.test(String.fromCodePoint(c));
}

function isDigitRune(c: number): boolean {
  if (c < 0x80) return c >= 0x30 && c <= 0x39;
  return /\p{Nd}/u.test(String.fromCodePoint(c));
}

/**
 * The non-letter branch of `keyList.Less`, kept faithful to Go's int64 arithmetic (including
 * its quirk of seeding both values with 1 when a `0` continues a digit run that already had a
 * non-zero digit, and wrapping on overflow).
 */
function compareDigitRuns(ar: Runes, br: Runes, i: number, ac: number, bc: number): number {
  let seed = 0;
  if (ac === 0x30 || bc === 0x30) {
    for (let j = i - 1; j >= 0 && isDigitRune(runeAt(ar, j)); j--) {
      if (runeAt(ar, j) !== 0x30) {
        seed = 1;
        break;
      }
    }
  }
  const [an, ai] = digitRun(ar, i, seed);
  const [bn, bi] = digitRun(br, i, seed);
  if (typeof an !== typeof bn) {
    const [x, y] = [BigInt(an), BigInt(bn)];
    if (x !== y) return x < y ? -1 : 1;
  } else if (an !== bn) return an < bn ? -1 : 1;
  if (ai !== bi) return ai - bi;
  return ac - bc;
}

/** Value (as Go's wrapping int64) and end of the digit run starting at `start`. */
function digitRun(r: Runes, start: number, seed: number): [bigint | number, number] {
  let end = start;
  while (end < r.length && isDigitRune(runeAt(r, end))) end++;
  // short runs stay exact in a double (non-ASCII digits add up to ~130000 each)
  if (end - start <= 10) {
    let v = seed;
    for (let k = start; k < end; k++) v = v * 10 + (runeAt(r, k) - 0x30);
    return [v, end];
  }
  let v = BigInt(seed);
  for (let k = start; k < end; k++) v = BigInt.asIntN(64, v * 10n + BigInt(runeAt(r, k) - 0x30));
  return [v, end];
}
