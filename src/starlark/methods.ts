/**
 * The methods of the built-in types (string, bytes, list, dict, set), as tables of builtins
 * looked up by `x.name`.
 */
import { noKwargs, unpackArgs } from './args.js';
import { Builtin, type BuiltinImpl } from './function.js';
import { quote } from './format.js';
import { asIndex } from './ops.js';
import { formatString } from './string-format.js';
import { capitalize, isAlnum, isAlpha, isLower, isSpace, isTitle, isUpper, lower, title, upper } from './text-case.js';
import { decodeRune, encodeRune } from './text.js';
import { Bytes, StarlarkObject, Dict, Fail, HashTable, List, StarlarkSet, Tuple, equals, isInt, iterate, toArray, typeOf, type Value } from './value.js';

type Table = Map<string, Builtin>;

function table(entries: Record<string, BuiltinImpl>): Table {
  return new Map(Object.entries(entries).map(([k, f]) => [k, new Builtin(k, f)]));
}

function optInt(v: Value | undefined, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  if (!isInt(v)) throw new Fail(`got ${typeOf(v)}, want int`);
  return Number(v);
}

/** start/end arguments of find, count, startswith...: clamp like a slice. */
function span(n: number, start: Value | undefined, end: Value | undefined): [number, number] {
  let a = optInt(start, 0);
  let b = optInt(end, n);
  if (a < 0) a = Math.max(0, a + n);
  if (b < 0) b = Math.max(0, b + n);
  return [Math.min(a, n), Math.min(b, n)];
}

/** An element of the tuple given to startswith/endswith. */
function tupleElem(e: Value, i: number): string {
  if (typeof e !== 'string') throw new Fail(`got ${typeOf(e)}, for element ${i}`);
  return e;
}

function asStr(v: Value | undefined, what: string): string {
  if (typeof v !== 'string') throw new Fail(`${what}: got ${typeOf(v ?? null)}, want string`);
  return v;
}

const WS = ' \t\n\v\f\r';

function strip(s: string, chars: Value | undefined, left: boolean, right: boolean): string {
  const set = chars === undefined || chars === null || chars === '' ? WS : asStr(chars, 'strip');
  let a = 0;
  let b = s.length;
  if (left) while (a < b && set.includes(s[a]!)) a++;
  if (right) while (b > a && set.includes(s[b - 1]!)) b--;
  if (chars === undefined || chars === null) {
    // also unicode whitespace
    return s.slice(a, b);
  }
  return s.slice(a, b);
}

function split(s: string, sep: Value | undefined, maxsplit: number, fromRight: boolean): Value[] {
  if (sep === undefined || sep === null) {
    const words = s.split(/[ \t\n\v\f\r]+/).filter((w) => w !== '');
    // with a split to spare, the last piece keeps its outer whitespace
    if (maxsplit < 0 || words.length <= maxsplit) return words;
    if (!fromRight) {
      const out: string[] = [];
      let rest = s.replace(/^[ \t\n\v\f\r]+/, '');
      for (let i = 0; i < maxsplit; i++) {
        const m = /[ \t\n\v\f\r]+/.exec(rest)!;
        out.push(rest.slice(0, m.index));
        rest = rest.slice(m.index + m[0].length);
      }
      out.push(rest);
      return out;
    }
    const out: string[] = [];
    let rest = s.replace(/[ \t\n\v\f\r]+$/, '');
    for (let i = 0; i < maxsplit; i++) {
      const m = /[ \t\n\v\f\r]+(?=[^ \t\n\v\f\r]*$)/.exec(rest)!;
      out.unshift(rest.slice(m.index + m[0].length));
      rest = rest.slice(0, m.index);
    }
    out.unshift(rest);
    return out;
  }
  const sp = asStr(sep, 'split');
  if (sp === '') throw new Fail('empty separator');
  const parts = s.split(sp);
  if (maxsplit < 0 || parts.length <= maxsplit + 1) return parts;
  if (!fromRight) return [...parts.slice(0, maxsplit), parts.slice(maxsplit).join(sp)];
  const k = parts.length - maxsplit;
  return [parts.slice(0, k).join(sp), ...parts.slice(k)];
}

function codepoints(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; ) {
    const [, n] = decodeRune(s, i);
    out.push(s.slice(i, i + n));
    i += n;
  }
  return out;
}

const REPLACEMENT = encodeRune(0xfffd);

/** What string.elems() and its kin return: iterable only (no len, no index), typed as starlark-go types it. */
class StringIterable extends StarlarkObject {
  constructor(
    readonly typeName: string,
    protected readonly elems: Value[],
    /** the method that made it, for repr */
    private readonly method: string,
    private readonly src: string,
  ) {
    super();
  }
  iterate(): Iterable<Value> {
    return this.elems;
  }
  repr(): string {
    const bytes = this.typeName.startsWith('bytes');
    return `${bytes ? 'b' : ''}${quote(this.src, bytes)}.${this.method}()`;
  }
  hashKey(): string {
    throw new Fail(`unhashable type: ${this.typeName}`);
  }
}

/** elems() and elem_ords(): a byte each, so they have a length and can be indexed as well. */
class StringElems extends StringIterable {
  len(): number {
    return this.elems.length;
  }
  index(i: Value): Value {
    return this.elems[asIndex(i, this.elems.length, this.typeName)]!;
  }
}

function find(name: string, s: string, args: Value[], kwargs: [string, Value][] | undefined, fromRight: boolean): number {
  const [sub, start, end] = unpackArgs(args, kwargs, ['sub', 'start?', 'end?']);
  const needle = asStr(sub, name);
  const [a, b] = span(s.length, start, end);
  const region = s.slice(a, b);
  const i = fromRight ? region.lastIndexOf(needle) : region.indexOf(needle);
  return i < 0 ? -1 : i + a;
}

const STRING_METHODS: Table = table({
  capitalize: (_t, args, kw, s) => {
    noKwargs(kw);
    unpackArgs(args, kw, []);
    return capitalize(s as string);
  },
  count: (_t, args, kw, s) => {
    const [sub, start, end] = unpackArgs(args, kw, ['sub', 'start?', 'end?']);
    const x = s as string;
    const [a, b] = span(x.length, start, end);
    const needle = asStr(sub, 'count');
    const region = x.slice(a, b);
    if (needle === '') return codepoints(region).length + 1;
    return region.split(needle).length - 1;
  },
  elems: (_t, args, kw, s) => {
    unpackArgs(args, kw, []);
    return new StringElems('string.elems', [...(s as string)], 'elems', s as string);
  },
  elem_ords: (_t, args, kw, s) => {
    unpackArgs(args, kw, []);
    return new StringElems('string.elems', [...(s as string)].map((c) => c.charCodeAt(0)), 'elem_ords', s as string);
  },
  codepoints: (_t, args, kw, s) => {
    unpackArgs(args, kw, []);
    return new StringIterable('string.codepoints', codepoints(s as string).map((c) => (decodeRune(c, 0)[0] < 0 ? REPLACEMENT : c)), 'codepoints', s as string);
  },
  codepoint_ords: (_t, args, kw, s) => {
    unpackArgs(args, kw, []);
    const x = s as string;
    return new StringIterable('string.codepoints', codepoints(x).map((c) => decodeRune(c, 0)[0] < 0 ? 0xfffd : decodeRune(c, 0)[0]), 'codepoint_ords', x);
  },
  endswith: (_t, args, kw, s) => {
    const [suffix, start, end] = unpackArgs(args, kw, ['suffix', 'start?', 'end?']);
    const x = s as string;
    const [a, b] = span(x.length, start, end);
    const region = x.slice(a, b);
    if (suffix instanceof Tuple) return suffix.elems.some((e, i) => region.endsWith(tupleElem(e, i)));
    return region.endsWith(asStr(suffix, 'endswith'));
  },
  startswith: (_t, args, kw, s) => {
    const [prefix, start, end] = unpackArgs(args, kw, ['prefix', 'start?', 'end?']);
    const x = s as string;
    const [a, b] = span(x.length, start, end);
    const region = x.slice(a, b);
    if (prefix instanceof Tuple) return prefix.elems.some((e, i) => region.startsWith(tupleElem(e, i)));
    return region.startsWith(asStr(prefix, 'startswith'));
  },
  find: (_t, args, kw, s) => find('find', s as string, args, kw, false),
  rfind: (_t, args, kw, s) => find('rfind', s as string, args, kw, true),
  index: (_t, args, kw, s) => {
    const i = find('index', s as string, args, kw, false);
    if (i < 0) throw new Fail('substring not found');
    return i;
  },
  rindex: (_t, args, kw, s) => {
    const i = find('rindex', s as string, args, kw, true);
    if (i < 0) throw new Fail('substring not found');
    return i;
  },
  format: (t, args, kw, s) => formatString(t, s as string, args, kw),
  isalnum: (_t, args, kw, s) => (unpackArgs(args, kw, []), isAlnum(s as string)),
  isalpha: (_t, args, kw, s) => (unpackArgs(args, kw, []), isAlpha(s as string)),
  isdigit: (_t, args, kw, s) => (unpackArgs(args, kw, []), /^[0-9]+$/.test(s as string)),
  islower: (_t, args, kw, s) => (unpackArgs(args, kw, []), isLower(s as string)),
  isupper: (_t, args, kw, s) => (unpackArgs(args, kw, []), isUpper(s as string)),
  isspace: (_t, args, kw, s) => (unpackArgs(args, kw, []), isSpace(s as string)),
  istitle: (_t, args, kw, s) => (unpackArgs(args, kw, []), isTitle(s as string)),
  join: (t, args, kw, s) => {
    const [iterable] = unpackArgs(args, kw, ['iterable']);
    const it = iterate(iterable!);
    if (it === undefined) throw new Fail(`got ${typeOf(iterable!)}, want iterable`);
    const parts: string[] = [];
    let size = 0;
    for (const e of it) {
      if (typeof e !== 'string') throw new Fail(`in list, want string, got ${typeOf(e)}`);
      parts.push(e);
      size += e.length + (s as string).length;
    }
    t.checkSize(size, 'join');
    return parts.join(s as string);
  },
  lower: (_t, args, kw, s) => (unpackArgs(args, kw, []), lower(s as string)),
  upper: (_t, args, kw, s) => (unpackArgs(args, kw, []), upper(s as string)),
  title: (_t, args, kw, s) => (unpackArgs(args, kw, []), title(s as string)),
  lstrip: (_t, args, kw, s) => strip(s as string, unpackArgs(args, kw, ['cutset?'])[0], true, false),
  rstrip: (_t, args, kw, s) => strip(s as string, unpackArgs(args, kw, ['cutset?'])[0], false, true),
  strip: (_t, args, kw, s) => strip(s as string, unpackArgs(args, kw, ['cutset?'])[0], true, true),
  partition: (_t, args, kw, s) => partition(s as string, unpackArgs(args, kw, ['sep'])[0]!, false),
  rpartition: (_t, args, kw, s) => partition(s as string, unpackArgs(args, kw, ['sep'])[0]!, true),
  removeprefix: (_t, args, kw, s) => {
    const p = asStr(unpackArgs(args, kw, ['prefix'])[0], 'removeprefix');
    const x = s as string;
    return x.startsWith(p) ? x.slice(p.length) : x;
  },
  removesuffix: (_t, args, kw, s) => {
    const p = asStr(unpackArgs(args, kw, ['suffix'])[0], 'removesuffix');
    const x = s as string;
    return p !== '' && x.endsWith(p) ? x.slice(0, x.length - p.length) : x;
  },
  replace: (t, args, kw, s) => {
    const [oldV, newV, countV] = unpackArgs(args, kw, ['old', 'new', 'count?']);
    const x = s as string;
    const o = asStr(oldV, 'replace');
    const n = asStr(newV, 'replace');
    let count = optInt(countV, -1);
    if (count < 0) count = Infinity;
    let out = '';
    let i = 0;
    let done = 0;
    if (o === '') {
      const cps = codepoints(x);
      const parts: string[] = [];
      for (let k = 0; k <= cps.length; k++) {
        if (done < count) {
          parts.push(n);
          done++;
        }
        if (k < cps.length) parts.push(cps[k]!);
      }
      return parts.join('');
    }
    while (done < count) {
      const j = x.indexOf(o, i);
      if (j < 0) break;
      out += x.slice(i, j) + n;
      i = j + o.length;
      done++;
      t.checkSize(out.length, 'replace');
    }
    return out + x.slice(i);
  },
  split: (_t, args, kw, s) => {
    const [sep, max] = unpackArgs(args, kw, ['sep?', 'maxsplit?']);
    return new List(split(s as string, sep, optInt(max, -1), false));
  },
  rsplit: (_t, args, kw, s) => {
    const [sep, max] = unpackArgs(args, kw, ['sep?', 'maxsplit?']);
    return new List(split(s as string, sep, optInt(max, -1), true));
  },
  splitlines: (_t, args, kw, s) => {
    const [keep] = unpackArgs(args, kw, ['keepends?']);
    if (keep !== undefined && typeof keep !== 'boolean') throw new Fail(`got ${typeOf(keep)}, want bool`);
    const x = s as string;
    const out: string[] = [];
    const re = /\r\n|\n|\r/g;
    let last = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(x))) {
      out.push(x.slice(last, keep ? m.index + m[0].length : m.index));
      last = m.index + m[0].length;
    }
    if (last < x.length) out.push(x.slice(last));
    return new List(out);
  },
});

function partition(s: string, sepV: Value, fromRight: boolean): Value {
  const sep = asStr(sepV, fromRight ? 'rpartition' : 'partition');
  if (sep === '') throw new Fail('empty separator');
  const i = fromRight ? s.lastIndexOf(sep) : s.indexOf(sep);
  if (i < 0) return fromRight ? new Tuple(['', '', s]) : new Tuple([s, '', '']);
  return new Tuple([s.slice(0, i), sep, s.slice(i + sep.length)]);
}

const BYTES_METHODS: Table = table({
  elems: (_t, args, kw, b) => {
    unpackArgs(args, kw, []);
    return new StringElems('bytes.elems', [...(b as Bytes).b].map((c) => c.charCodeAt(0)), 'elems', (b as Bytes).b);
  },
});

function list(v: Value): List {
  return v as List;
}

const LIST_METHODS: Table = table({
  append: (t, args, kw, l) => {
    const [x] = unpackArgs(args, kw, ['x']);
    const self = list(l);
    self.checkMutable('append to');
    t.checkSize(self.elems.length + 1, 'append');
    self.elems.push(x!);
    return null;
  },
  clear: (_t, args, kw, l) => {
    unpackArgs(args, kw, []);
    list(l).checkMutable('clear');
    list(l).elems.length = 0;
    return null;
  },
  extend: (t, args, kw, l) => {
    const [x] = unpackArgs(args, kw, ['iterable']);
    const self = list(l);
    self.checkMutable('extend');
    const add = toArray(x!);
    t.checkSize(self.elems.length + add.length, 'extend');
    for (const e of add) self.elems.push(e);
    return null;
  },
  index: (_t, args, kw, l) => {
    const [x, start, end] = unpackArgs(args, kw, ['x', 'start?', 'end?']);
    const self = list(l);
    const [a, b] = span(self.elems.length, start, end);
    for (let i = a; i < b; i++) if (equals(self.elems[i]!, x!)) return i;
    throw new Fail('value not in list');
  },
  insert: (_t, args, kw, l) => {
    const [iv, x] = unpackArgs(args, kw, ['index', 'x']);
    const self = list(l);
    self.checkMutable('insert into');
    const n = self.elems.length;
    let i = optInt(iv, 0);
    if (i < 0) i = Math.max(0, i + n);
    if (i > n) i = n;
    self.elems.splice(i, 0, x!);
    return null;
  },
  pop: (_t, args, kw, l) => {
    const [iv] = unpackArgs(args, kw, ['i?']);
    const self = list(l);
    self.checkMutable('pop from');
    const n = self.elems.length;
    let i = optInt(iv, n - 1);
    if (iv !== undefined && i < 0) i += n;
    if (i < 0 || i >= n) throw new Fail(`index ${optInt(iv, n - 1)} out of range [${-n}:${n - 1}]`);
    return self.elems.splice(i, 1)[0]!;
  },
  remove: (_t, args, kw, l) => {
    const [x] = unpackArgs(args, kw, ['x']);
    const self = list(l);
    self.checkMutable('remove from');
    const i = self.elems.findIndex((e) => equals(e, x!));
    if (i < 0) throw new Fail(`remove: element not found`);
    self.elems.splice(i, 1);
    return null;
  },
});

function dict(v: Value): Dict {
  return v as Dict;
}

export function updateDict(d: HashTable, args: Value[], kwargs: [string, Value][] | undefined, what: string): void {
  if (args.length > 1) throw new Fail(`got ${args.length} arguments, want at most 1`);
  if (args.length === 1) {
    const src = args[0]!;
    if (src instanceof HashTable && !(src instanceof StarlarkSet)) {
      for (const e of src.entries()) d.set(e.k, e.v);
    } else {
      const it = iterate(src);
      if (it === undefined) throw new Fail(`${what}got ${typeOf(src)}, want iterable`);
      let i = 0;
      for (const pair of it) {
        const kv = iterate(pair);
        if (kv === undefined) throw new Fail(`${what}dictionary update sequence element #${i} is not iterable (${typeOf(pair)})`);
        const arr = Array.from(kv);
        if (arr.length !== 2) throw new Fail(`${what}dictionary update sequence element #${i} has length ${arr.length}, want 2`);
        d.set(arr[0]!, arr[1]!);
        i++;
      }
    }
  }
  if (kwargs) {
    const seen = new Set<string>();
    for (const [k, v] of kwargs) {
      if (seen.has(k)) throw new Fail(`${what}duplicate keyword arg: ${quote(k, false)}`);
      seen.add(k);
      d.set(k, v);
    }
  }
}

const DICT_METHODS: Table = table({
  clear: (_t, args, kw, d) => (unpackArgs(args, kw, []), dict(d).clear(), null),
  get: (_t, args, kw, d) => {
    noKwargs(kw);
    const [k, dflt] = unpackArgs(args, kw, ['key', 'default?']);
    return dict(d).get(k!) ?? dflt ?? null;
  },
  items: (_t, args, kw, d) => {
    unpackArgs(args, kw, []);
    return new List(Array.from(dict(d).entries(), (e) => new Tuple([e.k, e.v])));
  },
  keys: (_t, args, kw, d) => (unpackArgs(args, kw, []), new List(dict(d).keys())),
  values: (_t, args, kw, d) => (unpackArgs(args, kw, []), new List(Array.from(dict(d).entries(), (e) => e.v))),
  pop: (_t, args, kw, d) => {
    const [k, dflt] = unpackArgs(args, kw, ['key', 'default?']);
    const self = dict(d);
    const v = self.delete(k!);
    if (v !== undefined) return v;
    if (dflt !== undefined) return dflt;
    throw new Fail(`missing key`);
  },
  popitem: (_t, args, kw, d) => {
    unpackArgs(args, kw, []);
    const self = dict(d);
    const first = self.entries().next();
    if (first.done) throw new Fail('empty dict');
    self.delete(first.value.k);
    return new Tuple([first.value.k, first.value.v]);
  },
  setdefault: (_t, args, kw, d) => {
    const [k, dflt] = unpackArgs(args, kw, ['key', 'default?']);
    const self = dict(d);
    const v = self.get(k!);
    if (v !== undefined) return v;
    self.set(k!, dflt ?? null);
    return dflt ?? null;
  },
  update: (_t, args, kw, d) => {
    updateDict(dict(d), args, kw, '');
    return null;
  },
});

function set(v: Value): StarlarkSet {
  return v as StarlarkSet;
}

function setFrom(v: Value, what: string): StarlarkSet {
  const it = iterate(v);
  if (it === undefined) throw new Fail(`${what}: got ${typeOf(v)}, want iterable`);
  return setOf(it);
}

function setOf(it: Iterable<Value>): StarlarkSet {
  const s = new StarlarkSet();
  for (const e of it) s.set(e, null);
  return s;
}

/** The elements of each argument of a method that takes any number of iterables. */
function iterablesOf(args: Value[]): Iterable<Value>[] {
  return args.map((a, i) => {
    const it = iterate(a);
    if (it === undefined) throw new Fail(`argument #${i + 1} is not iterable: ${typeOf(a)}`);
    return it;
  });
}

const SET_METHODS: Table = table({
  add: (_t, args, kw, s) => {
    const [x] = unpackArgs(args, kw, ['elem']);
    set(s).set(x!, null);
    return null;
  },
  clear: (_t, args, kw, s) => {
    unpackArgs(args, kw, []);
    // an empty set is left alone, frozen or not (starlark-go)
    if (set(s).size > 0) set(s).clear();
    return null;
  },
  difference: (_t, args, kw, s) => {
    noKwargs(kw);
    const out = new StarlarkSet();
    const others = iterablesOf(args).map((it) => setOf(it));
    for (const k of set(s).keys()) if (!others.some((o) => o.has(k))) out.set(k, null);
    return out;
  },
  discard: (_t, args, kw, s) => {
    const [x] = unpackArgs(args, kw, ['elem']);
    const self = set(s);
    if (self.has(x!)) self.delete(x!);
    else if (self.frozen) throw new Fail('cannot delete from frozen hash table');
    else if (self.iterating) throw new Fail('cannot delete from hash table during iteration');
    return null;
  },
  intersection: (_t, args, kw, s) => {
    noKwargs(kw);
    const others = iterablesOf(args).map((it) => setOf(it));
    const out = new StarlarkSet();
    for (const k of set(s).keys()) if (others.every((o) => o.has(k))) out.set(k, null);
    return out;
  },
  issubset: (_t, args, kw, s) => {
    const [o] = unpackArgs(args, kw, ['other']);
    const other = setFrom(o!, 'issubset');
    return set(s).keys().every((k) => other.has(k));
  },
  issuperset: (_t, args, kw, s) => {
    const [o] = unpackArgs(args, kw, ['other']);
    const other = setFrom(o!, 'issuperset');
    return other.keys().every((k) => set(s).has(k));
  },
  pop: (_t, args, kw, s) => {
    unpackArgs(args, kw, []);
    const self = set(s);
    const first = self.entries().next();
    if (first.done) throw new Fail('empty set');
    self.delete(first.value.k);
    return first.value.k;
  },
  remove: (_t, args, kw, s) => {
    const [x] = unpackArgs(args, kw, ['elem']);
    const self = set(s);
    if (self.delete(x!) === undefined) throw new Fail('missing key');
    return null;
  },
  symmetric_difference: (_t, args, kw, s) => {
    const [o] = unpackArgs(args, kw, ['other']);
    const other = setFrom(o!, 'symmetric_difference');
    const out = new StarlarkSet();
    for (const k of set(s).keys()) if (!other.has(k)) out.set(k, null);
    for (const k of other.keys()) if (!set(s).has(k)) out.set(k, null);
    return out;
  },
  union: (_t, args, kw, s) => {
    noKwargs(kw);
    const out = new StarlarkSet();
    for (const k of set(s).keys()) out.set(k, null);
    for (const it of iterablesOf(args)) for (const k of it) out.set(k, null);
    return out;
  },
  update: (_t, args, kw, s) => {
    if (kw?.length) throw new Fail('does not accept keyword arguments');
    const self = set(s);
    for (const it of iterablesOf(args)) for (const k of it) self.set(k, null);
    return null;
  },
});

/** The method table for a value's type, if it has one. */
export function methodsOf(v: Value): Table | undefined {
  if (typeof v === 'string') return STRING_METHODS;
  if (v instanceof List) return LIST_METHODS;
  if (v instanceof StarlarkSet) return SET_METHODS;
  if (v instanceof Dict) return DICT_METHODS;
  if (v instanceof Bytes) return BYTES_METHODS;
  return undefined;
}
