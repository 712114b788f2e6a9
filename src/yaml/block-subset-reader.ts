import { isTextValuedField, markSourceTexts, markStyled, markWrittenEmpty, setKey, type Value, type YMap, type YSeq } from './value.js';

/**
 * A fast reader for the part of YAML that manifests are almost always written in: documents
 * whose root is a block mapping or sequence, nested block mappings and sequences, plain,
 * single- and double-quoted scalars (also folded over several lines, as CRD descriptions are),
 * literal block scalars (`|`, `|-`), flow sequences of scalars (also over several lines, as
 * container commands are), `{}` and comments.
 *
 * It reads straight from the text, without building a syntax tree, and returns the same values
 * the full reader (parse.ts, on the `yaml` package) returns — or `undefined` as soon as the text
 * leaves that subset (anchors, tags, other flow collections, folded block scalars, tabs,
 * duplicate keys, anything doubtful), so that the full reader reads it, and
 * reports its errors, exactly as before. It never throws.
 */
export interface BlockSubsetOptions {
  /** Plain scalars resolved by this (yaml.v3's or go-yaml v2's rules). */
  resolve: (text: string) => Value;
  /** go-yaml v2 keys: a plain key that resolves to a non-string scalar is that scalar's text. */
  scalarKeysAsText: boolean;
  /** Every map keeps the text its plain values were written with, where they read as something else (a patch's: see ParseOptions). */
  sourceTexts: boolean;
}

/** Deeper than this, the full reader (with its own depth limit) takes over. */
const MAX_DEPTH = 100;
/** The `yaml` package refuses longer implicit keys. */
const MAX_KEY_LENGTH = 1000;
/** Characters the subset leaves to the full reader wherever they occur. */
const OUTSIDE_SUBSET = /[\r\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u0085\u2028\u2029\ufeff]/;
/** Characters a plain scalar or key may not start with (YAML indicators), beyond `-`, which is checked apart. */
const INDICATORS = new Set('?:,[]{}#&*!|>\'"%@`');

/** First characters of a plain scalar's continuation line left to the full reader before a space or the line's end: `- x` reads like an item, `? x`/`: x` like a key. */
const CONTINUATION_DECLINED = new Set([0x2d, 0x3f, 0x3a]);

const SPACE = 0x20;
const QUESTION = 0x3f;
const BACKSLASH = 0x5c;
const TAB = 0x09;

/** Escapes of double-quoted scalars that name one character. */
const ESCAPES: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b',
  ' ': ' ', '"': '"', '/': '/', '\\': '\\', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
};
/** Plain flow scalars left to the full reader: pairs, comments, nested collections, quotes. */
const FLOW_PLAIN_DECLINED = /[:#[\]{}"']/;
const HASH = 0x23;
const DASH = 0x2d;
const COLON = 0x3a;
/** Where a plain scalar in a flow sequence ends, and in a flow mapping. */
const FLOW_SEQ_PLAIN_ENDS = new Set([0x2c, 0x5d]);
const FLOW_MAP_PLAIN_ENDS = new Set([0x2c, 0x7d]);
/** Where a plain key in a flow mapping ends: at its `:`, or at a separator (a key with no value, for the full reader). */
const FLOW_KEY_ENDS = new Set([COLON, 0x2c, 0x7d]);

class OutsideSubset {}
const OUTSIDE = new OutsideSubset();

/**
 * Where the values read start in the text (offsets), when a caller asks (`explain`'s positions):
 * each document's, and each value's by the map or sequence holding it and its key or index;
 * with `keys`, where each map's keys start too. (Maps, not weak ones: they live as long as the
 * documents they place, and a weak map's entries cost every garbage collection more.)
 */
export interface Placements {
  documents: number[];
  within: Map<YMap | YSeq, Map<string | number, number>>;
  keys?: Map<YMap, Map<string, number>>;
}

export function readBlockSubset(text: string, options: BlockSubsetOptions, placements?: Placements): Value[] | undefined {
  if (OUTSIDE_SUBSET.test(text)) return undefined;
  try {
    return new BlockSubsetReader(text, options, placements).documents();
  } catch (e) {
    if (e === OUTSIDE) return undefined;
    throw e;
  }
}

/** Whether the character `code` is in `t` between `from` and `end`: a search bounded on both sides, as a reader of long texts needs. */
function hasCode(t: string, code: number, from: number, end: number): boolean {
  for (let i = from; i < end; i++) if (t.charCodeAt(i) === code) return true;
  return false;
}

function outside(): never {
  throw OUTSIDE;
}

/** A line that is neither blank nor only a comment. */
interface Line {
  start: number;
  /** Index of the first non-space character. */
  content: number;
  end: number;
  indent: number;
}

class BlockSubsetReader {
  /** Start of the next line not yet consumed. */
  private pos = 0;
  private depth = 0;
  /** The written text of the last value read, when it was a plain scalar. */
  private plainText: string | undefined;
  /** Where the last scalar {@link flowScalar} read ends. */
  private flowScalarEnd = 0;
  /** Tabs are allowed in literal block scalars only (each line is checked when the text has any). */
  private readonly hasTabs: boolean;
  /** Where the last value read starts. */
  private valueStart = 0;

  constructor(
    private readonly text: string,
    private readonly options: BlockSubsetOptions,
    private readonly placements?: Placements,
  ) {
    this.hasTabs = text.includes('\t');
  }

  /** Notes, when asked to, that the value at `key` of `holder` starts at {@link valueStart}. */
  private place(holder: YMap | YSeq, key: string | number): void {
    if (!this.placements) return;
    let keys = this.placements.within.get(holder);
    if (!keys) this.placements.within.set(holder, (keys = new Map()));
    keys.set(key, this.valueStart);
  }

  /** {@link place} for a map's value, noting where its key starts (`keyStart`) too when asked to. */
  private placeEntry(holder: YMap, key: string, keyStart: number): void {
    if (!this.placements) return;
    this.place(holder, key);
    const keys = this.placements.keys;
    if (!keys) return;
    let starts = keys.get(holder);
    if (!starts) keys.set(holder, (starts = new Map()));
    starts.set(key, keyStart);
  }

  documents(): Value[] {
    const out: Value[] = [];
    for (;;) {
      const line = this.peek();
      if (line === undefined) return out;
      if (this.isDocumentStart(line)) {
        this.pos = line.end + 1;
        continue;
      }
      if (line.indent !== 0) outside();
      this.placements?.documents.push(line.content);
      if (this.isItemAt(line.content, line.end)) out.push(this.seq(0, line));
      else if (this.isKeyAt(line.content, line.end)) out.push(this.map(0, line.content, line));
      else outside();
      const after = this.peek();
      if (after !== undefined && !this.isDocumentStart(after)) outside();
    }
  }

  /** {@link peek}'s last answer, and the position it was for: a line is often peeked at more than once. */
  private peekedLine: Line | undefined;
  private peekedAt = -1;

  /** The next significant line (skipping blank and comment-only lines), without consuming it. */
  private peek(): Line | undefined {
    if (this.peekedAt !== this.pos) {
      this.peekedLine = this.scanLine();
      // (at the end, scanLine moved pos past the trailing blank lines)
      this.peekedAt = this.pos;
    }
    return this.peekedLine;
  }

  private scanLine(): Line | undefined {
    const t = this.text;
    let p = this.pos;
    while (p < t.length) {
      let end = t.indexOf('\n', p);
      if (end < 0) end = t.length;
      const c = this.afterSpaces(p);
      if (c < end && t.charCodeAt(c) !== HASH) {
        if (this.hasTabs && hasCode(t, TAB, c, end)) outside();
        return { start: p, content: c, end, indent: c - p };
      }
      p = end + 1;
    }
    this.pos = p;
    return undefined;
  }

  private isDocumentStart(line: Line): boolean {
    const t = this.text;
    if (line.indent !== 0) return false;
    const three = t.slice(line.start, line.start + 3);
    if (three !== '---' && three !== '...') return false;
    const rest = line.start + 3;
    if (three === '---' && (rest === line.end || (t.charCodeAt(rest) === SPACE && this.onlyComment(rest, line.end)))) return true;
    return outside();
  }

  /** Spaces then nothing or a comment. */
  private onlyComment(from: number, end: number): boolean {
    let p = from;
    while (p < end && this.text.charCodeAt(p) === SPACE) p++;
    return p === end || (this.text.charCodeAt(p) === HASH && p > from);
  }

  /** Whether a mapping key (plain or quoted, then `:` and a space or the line end) starts at `p`. */
  private isKeyAt(p: number, end: number): boolean {
    return this.keyEnd(p, end) !== undefined;
  }

  /** The index just past the `:` of a key starting at `p`, or undefined when no key starts there. */
  private keyEnd(p: number, end: number): number | undefined {
    const t = this.text;
    const c = t.charCodeAt(p);
    if (c === 0x27 && this.singleQuotedEnd(p + 1, end) === undefined) return undefined; // a multi-line value
    if (c === 0x22) {
      const close = this.doubleQuotedEndOnLine(p + 1, end);
      if (close === undefined) return undefined; // a multi-line value
      if (t.charCodeAt(close) !== COLON || (close + 1 !== end && t.charCodeAt(close + 1) !== SPACE)) return undefined;
      if (hasCode(t, BACKSLASH, p + 1, close)) outside(); // a key with escapes: left to the full reader
      return close + 1;
    }
    if (c === 0x27) {
      const close = this.quotedEnd(p, end);
      if (close === undefined) return undefined;
      return t.charCodeAt(close) === COLON && (close + 1 === end || t.charCodeAt(close + 1) === SPACE) ? close + 1 : undefined;
    }
    if (!this.plainStart(p, end)) return undefined;
    const { colon } = this.colonAndComment(p, end);
    return colon < 0 ? undefined : colon + 1;
  }

  /**
   * In the text from `p` (not a `#`) to the line's `end`: where a comment starts (the `#` of
   * ` #`, or `end`), and the first `:` before it that ends a key (before a space or the line's
   * end), or -1. Searched natively in the line (a slice shares the text): a loop over its
   * characters is slow until the JIT has compiled it, and a build from the command line runs cold.
   */
  private colonAndComment(p: number, end: number): { colon: number; comment: number } {
    const line = this.text.slice(p, end);
    const hash = line.indexOf(' #');
    const comment = hash < 0 ? end : p + hash + 1;
    for (let c = line.indexOf(':'); c >= 0 && p + c < comment; c = line.indexOf(':', c + 1)) {
      if (c + 1 === line.length || line.charCodeAt(c + 1) === SPACE) return { colon: p + c, comment };
    }
    return { colon: -1, comment };
  }

  /** Whether a plain scalar may start at `p`: not an indicator, and `-` only before a non-space. */
  private plainStart(p: number, end: number): boolean {
    const t = this.text;
    const c = t.charCodeAt(p);
    if (c === DASH) return p + 1 < end && t.charCodeAt(p + 1) !== SPACE && !t.startsWith('---', p);
    // `:x` and `?x` are plain scalars too (`record: :node_memory:sum`)
    if (c === COLON || c === QUESTION) return p + 1 < end && t.charCodeAt(p + 1) !== SPACE;
    return !INDICATORS.has(t[p]!);
  }

  /** Index just past the closing quote of a single-quoted scalar opened at `p`, which must close on its line. */
  private quotedEnd(p: number, end: number): number {
    return this.singleQuotedEnd(p + 1, end) ?? outside();
  }

  /** Index just past the closing quote of a double-quoted scalar whose content starts at `from`, on this line. */
  private doubleQuotedEndOnLine(from: number, end: number): number | undefined {
    const t = this.text;
    for (let i = from; i < end; i++) {
      const ch = t.charCodeAt(i);
      if (ch === BACKSLASH) i++;
      else if (ch === 0x22) return i + 1;
    }
    return undefined;
  }

  /**
   * A double-quoted scalar opened at `p` on `line`, over as many lines as it takes (each indented
   * deeper than the collection at `indent`), folded as YAML folds them: a line break becomes a
   * space, n+1 breaks become n, and the spaces around a break go. Escapes are decoded; an escaped
   * line break, and escapes naming surrogates, are left to the full reader.
   */
  private doubleQuoted(indent: number, p: number, line: Line): string {
    const t = this.text;
    let out = '';
    /** raw spaces at the end of `out`, which a line break removes (escaped ones stay) */
    let trailing = 0;
    let i = p + 1;
    let end = line.end;
    for (;;) {
      if (this.hasTabs && hasCode(t, TAB, i, end)) outside();
      for (; i < end; i++) {
        const ch = t.charCodeAt(i);
        if (ch === 0x22) {
          if (!this.onlyComment(i + 1, end)) outside();
          this.pos = end + 1;
          return out;
        }
        if (ch === BACKSLASH) {
          const [decoded, next] = this.escape(i + 1, end);
          out += decoded;
          trailing = 0;
          i = next - 1;
        } else {
          out += t[i];
          trailing = ch === SPACE ? trailing + 1 : 0;
        }
      }
      out = out.slice(0, out.length - trailing);
      trailing = 0;
      // the next non-blank line continues the scalar
      let breaks = 0;
      let q = end + 1;
      for (;;) {
        if (q >= t.length) outside(); // never closed
        const raw = this.rawLine(q);
        if (raw.content < raw.end) {
          if (raw.content - q <= indent) outside();
          i = raw.content;
          end = raw.end;
          break;
        }
        breaks++;
        q = raw.end + 1;
      }
      out += breaks === 0 ? ' ' : '\n'.repeat(breaks);
    }
  }

  /** The character an escape (after its backslash, at `p`) stands for, and the index after it. */
  private escape(p: number, end: number): [string, number] {
    if (p >= end) outside(); // an escaped line break
    const c = this.text[p]!;
    const named = ESCAPES[c];
    if (named !== undefined) return [named, p + 1];
    const digits = c === 'x' ? 2 : c === 'u' ? 4 : c === 'U' ? 8 : outside();
    const hex = this.text.slice(p + 1, p + 1 + digits);
    if (hex.length !== digits || !/^[0-9a-fA-F]+$/.test(hex)) outside();
    const code = Number.parseInt(hex, 16);
    if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) outside();
    return [String.fromCodePoint(code), p + 1 + digits];
  }

  /**
   * A flow sequence of scalars only (no nested flow collections, pairs or comments inside),
   * `[a, "b", 'c']` or `[a, b,]`, which may break lines between its items and separators (each
   * line indented deeper than the collection at `indent`, as hand-written `args:` lists are);
   * anything else is left to the full reader.
   */
  private flowSequence(indent: number, p: number, line: Line): YSeq {
    const t = this.text;
    const out: YSeq = [];
    let i = p + 1;
    let end = line.end;
    const skipSpaces = (): void => {
      while (i < end && t.charCodeAt(i) === SPACE) i++;
    };
    /** Skips spaces and line breaks, to the next item or separator. */
    const skipToToken = (): void => {
      for (skipSpaces(); i === end; skipSpaces()) {
        const q = end + 1;
        if (q >= t.length) outside(); // never closed
        const raw = this.rawLine(q);
        // a blank line, or one no deeper than the collection: left to the full reader
        if (raw.content === raw.end || raw.content - q <= indent || (this.hasTabs && hasCode(t, TAB, q, raw.end))) outside();
        i = raw.content;
        end = raw.end;
      }
    };
    skipToToken();
    if (t.charCodeAt(i) === 0x5d) i++;
    else {
      for (;;) {
        out.push(this.flowScalar(i, end, FLOW_SEQ_PLAIN_ENDS));
        this.place(out, out.length - 1);
        i = this.flowScalarEnd;
        // (a plain item ended at its line's end: a next line that does not open with a separator would continue it)
        skipToToken();
        const sep = t.charCodeAt(i++);
        if (sep === 0x5d) break;
        if (sep !== 0x2c) outside();
        skipToToken();
        if (t.charCodeAt(i) === 0x5d) {
          // a trailing comma
          i++;
          break;
        }
      }
    }
    if (!this.onlyComment(i, end)) outside();
    this.pos = end + 1;
    return out;
  }

  /**
   * A flow mapping of scalars on one line, `{op: remove, path: /x}` (JSON patches are often
   * written so): keys plain or quoted, each followed by `: `, values plain or quoted, no
   * nesting, no comments inside; anything else is left to the full reader. An annotations
   * map's plain values keep the text they were written with, as in a block mapping.
   */
  private flowMap(p: number, line: Line, annotations: boolean): YMap {
    const t = this.text;
    const end = line.end;
    const out: YMap = {};
    const plainTexts = annotations || this.options.sourceTexts ? new Map<string, string>() : undefined;
    let styled: Set<string> | undefined;
    let i = p + 1;
    while (i < end && t.charCodeAt(i) === SPACE) i++;
    if (t.charCodeAt(i) === 0x7d) i++;
    else {
      for (;;) {
        const keyStart = i;
        const c = t.charCodeAt(i);
        let colon: number;
        if (c === 0x22 || c === 0x27) {
          colon = this.flowQuotedEnd(i, end);
        } else {
          if (!this.plainStart(i, end)) outside();
          colon = i;
          while (colon < end && !FLOW_KEY_ENDS.has(t.charCodeAt(colon))) colon++;
          if (FLOW_PLAIN_DECLINED.test(t.slice(keyStart, colon))) outside();
        }
        if (t.charCodeAt(colon) !== COLON || t.charCodeAt(colon + 1) !== SPACE) outside();
        const key = this.key(keyStart, colon + 1);
        if (Object.prototype.hasOwnProperty.call(out, key)) outside(); // the full reader decides: error or override
        i = colon + 2;
        while (i < end && t.charCodeAt(i) === SPACE) i++;
        setKey(out, key, this.flowScalar(i, end, FLOW_MAP_PLAIN_ENDS));
        this.placeEntry(out, key, keyStart);
        if (this.plainText === undefined) (styled ??= new Set()).add(key);
        else if (plainTexts) plainTexts.set(this.writtenKey(keyStart, colon + 1), this.plainText);
        i = this.flowScalarEnd;
        while (i < end && t.charCodeAt(i) === SPACE) i++;
        const sep = t.charCodeAt(i++);
        if (sep === 0x7d) break;
        if (sep !== 0x2c) outside();
        while (i < end && t.charCodeAt(i) === SPACE) i++;
      }
    }
    if (!this.onlyComment(i, end)) outside();
    if (plainTexts) this.recordSourceTexts(out, plainTexts);
    if (styled) markStyled(out, styled);
    return out;
  }

  /**
   * A scalar in a flow collection at `p`, before `end`: quoted (closed on the line, without
   * escapes), or plain up to one of `plainEnds`, without indicators the subset leaves to the full
   * reader. Sets {@link flowScalarEnd} and {@link plainText}.
   */
  private flowScalar(p: number, end: number, plainEnds: ReadonlySet<number>): Value {
    const t = this.text;
    this.valueStart = p;
    const c = t.charCodeAt(p);
    if (c === 0x22 || c === 0x27) {
      const close = this.flowQuotedEnd(p, end);
      this.flowScalarEnd = close;
      this.plainText = undefined;
      return this.quotedValue(p, close);
    }
    let i = p;
    while (i < end && !plainEnds.has(t.charCodeAt(i))) i++;
    const text = t.slice(p, i).trimEnd();
    if (text === '' || !this.plainStart(p, end) || FLOW_PLAIN_DECLINED.test(text)) outside();
    this.flowScalarEnd = i;
    this.plainText = text;
    return this.options.resolve(text);
  }

  /** Index just past the closing quote of a scalar quoted at `p` that closes on its line without escapes. */
  private flowQuotedEnd(p: number, end: number): number {
    const t = this.text;
    const double = t.charCodeAt(p) === 0x22;
    const close = double ? this.doubleQuotedEndOnLine(p + 1, end) : this.singleQuotedEnd(p + 1, end);
    if (close === undefined || (double && hasCode(t, BACKSLASH, p + 1, close))) outside();
    return close;
  }

  private quotedValue(p: number, close: number): string {
    const inner = this.text.slice(p + 1, close - 1);
    return this.text.charCodeAt(p) === 0x27 ? inner.replaceAll("''", "'") : inner;
  }

  private key(p: number, colon: number): string {
    const t = this.text;
    const c = t.charCodeAt(p);
    if (c === 0x22 || c === 0x27) return this.quotedValue(p, colon - 1);
    const raw = t.slice(p, colon - 1).trimEnd();
    if (raw.length > MAX_KEY_LENGTH || raw === '<<') outside();
    const v = this.options.resolve(raw);
    if (typeof v === 'string') return v;
    if (this.options.scalarKeysAsText && (v === null || typeof v !== 'object')) return String(v);
    return outside(); // the full reader reports non-string keys
  }

  /**
   * A block mapping at `indent` whose first key starts at `first` (on `firstLine`: for a
   * mapping inside a sequence item, after the `- `). An annotations map (or, asked to, any)
   * keeps the written text of its plain scalar values that read as something else.
   */
  private map(indent: number, first: number, firstLine: Line, annotations = false): YMap {
    this.enter();
    const out: YMap = {};
    const plainTexts = annotations || this.options.sourceTexts ? new Map<string, string>() : undefined;
    let styled: Set<string> | undefined;
    let line: Line | undefined = firstLine;
    let p = first;
    for (;;) {
      const colon = this.keyEnd(p, line.end);
      if (colon === undefined) outside();
      const key = this.key(p, colon);
      if (Object.prototype.hasOwnProperty.call(out, key)) outside(); // the full reader decides: error or override
      const value = this.value(indent, colon, line, true, isTextValuedField(key));
      setKey(out, key, value);
      this.placeEntry(out, key, p);
      // `key:` with nothing after it (see markWrittenEmpty)
      if (value === null && this.plainText === '') markWrittenEmpty(out, key);
      // a string not read from plain text was quoted or a block scalar
      if (typeof value === 'string' && this.plainText === undefined) (styled ??= new Set()).add(key);
      else if (plainTexts && this.plainText !== undefined) plainTexts.set(this.writtenKey(p, colon), this.plainText);
      line = this.peek();
      if (line === undefined || line.indent < indent || this.isDocumentMarker(line)) break;
      if (line.indent > indent) outside();
      p = line.content;
    }
    this.depth--;
    if (plainTexts) this.recordSourceTexts(out, plainTexts);
    if (styled) markStyled(out, styled);
    return out;
  }

  /** A key as written: a plain key's text, a quoted key's content. */
  private writtenKey(p: number, colon: number): string {
    const c = this.text.charCodeAt(p);
    return c === 0x22 || c === 0x27 ? this.quotedValue(p, colon - 1) : this.text.slice(p, colon - 1).trimEnd();
  }

  private isDocumentMarker(line: Line): boolean {
    return line.indent === 0 && (this.text.startsWith('---', line.start) || this.text.startsWith('...', line.start)) && this.isDocumentStart(line);
  }

  private seq(indent: number, firstLine: Line): YSeq {
    this.enter();
    const out: YSeq = [];
    let line: Line | undefined = firstLine;
    for (;;) {
      const t = this.text;
      const afterDash = line.content + 1;
      let p = afterDash;
      while (p < line.end && t.charCodeAt(p) === SPACE) p++;
      if (p < line.end && t.charCodeAt(p) !== HASH && this.isKeyAt(p, line.end)) {
        out.push(this.map(p - line.start, p, line));
        this.valueStart = p;
      } else {
        if (p < line.end && this.isItemAt(p, line.end)) outside(); // `- - x`
        out.push(this.value(indent, afterDash, line, false, false));
      }
      this.place(out, out.length - 1);
      line = this.peek();
      if (line === undefined || line.indent < indent || this.isDocumentMarker(line)) break;
      if (line.indent > indent) outside();
      if (!this.isItemAt(line.content, line.end)) break;
    }
    this.depth--;
    return out;
  }

  /** Whether a sequence item (`-` then a space or the line end) starts at `p`. */
  private isItemAt(p: number, end: number): boolean {
    return this.text.charCodeAt(p) === DASH && (p + 1 === end || this.text.charCodeAt(p + 1) === SPACE);
  }

  /**
   * The value that starts after `from` on `line` (after a key's `:` or an item's `-`, which are
   * followed by a space or the line end), in a collection at `indent`. Consumes the line and
   * any lines the value spans, and sets {@link plainText}.
   */
  private value(indent: number, from: number, line: Line, inMap: boolean, annotations: boolean): Value {
    const t = this.text;
    let p = from;
    while (p < line.end && t.charCodeAt(p) === SPACE) p++;
    this.pos = line.end + 1;
    const c = t.charCodeAt(p);
    let value: Value;
    let start = p;
    if (p === line.end || c === HASH) {
      const next = this.peek();
      value = this.nestedValue(indent, inMap, annotations);
      // (an empty value is where its key's line ends)
      if (next !== undefined && this.plainText !== '') start = next.content;
    } else value = this.scalarOrFlow(indent, p, line, annotations);
    this.valueStart = start;
    return value;
  }

  /**
   * A scalar, literal block scalar, flow sequence or flow mapping starting at `p` on `line` (whose
   * following lines are not yet consumed), in a collection at `indent`; `annotations` when it is
   * the value of an `annotations` key. Sets {@link plainText}.
   */
  private scalarOrFlow(indent: number, p: number, line: Line, annotations: boolean): Value {
    const t = this.text;
    this.pos = line.end + 1;
    let value: Value;
    let plain: string | undefined;
    const c = t.charCodeAt(p);
    if (c === 0x27 && this.singleQuotedEnd(p + 1, line.end) === undefined) {
      value = this.multiLineSingleQuoted(indent, p, line);
    } else if (c === 0x27) {
      const close = this.quotedEnd(p, line.end)!;
      if (!this.onlyComment(close, line.end)) outside();
      value = this.quotedValue(p, close);
    } else if (c === 0x22) {
      value = this.doubleQuoted(indent, p, line);
    } else if (c === 0x7c) {
      value = this.literal(indent, p, line);
    } else if (c === 0x7b) {
      value = this.flowMap(p, line, annotations);
    } else if (c === 0x5b) {
      value = this.flowSequence(indent, p, line);
    } else {
      if (!this.plainStart(p, line.end)) outside();
      plain = this.plainScalar(indent, p, line);
      value = this.options.resolve(plain);
    }
    // a line indented deeper than the collection would continue the scalar (or be an error)
    const next = this.peek();
    if (next !== undefined && next.indent > indent) outside();
    this.plainText = plain;
    return value;
  }

  /**
   * A plain scalar starting at `p` on `line`, with the lines that continue it (indented deeper
   * than the collection at `indent`), folded: one line break becomes a space, n+1 become n.
   */
  private plainScalar(indent: number, p: number, line: Line): string {
    const t = this.text;
    const firstEnd = this.plainEnd(p, line.end);
    let text = t.slice(p, firstEnd);
    if (this.endsInComment(firstEnd, line.end)) return text;
    let blanks = 0;
    for (let q = line.end + 1; q < t.length; ) {
      const { end, content: c } = this.rawLine(q);
      if (c === end) {
        blanks++;
        q = end + 1;
        continue;
      }
      if (c - q <= indent || t.charCodeAt(c) === HASH) break;
      // a continuation line may start with any indicator (`"Secret"`, `|| x`, `> 0`): it is in a scalar already
      if ((this.hasTabs && hasCode(t, TAB, q, end)) || (CONTINUATION_DECLINED.has(t.charCodeAt(c)) && (c + 1 === end || t.charCodeAt(c + 1) === SPACE))) outside();
      const contentEnd = this.plainEnd(c, end);
      text += (blanks === 0 ? ' ' : '\n'.repeat(blanks)) + t.slice(c, contentEnd);
      blanks = 0;
      this.pos = end + 1;
      if (this.endsInComment(contentEnd, end)) break;
      q = end + 1;
    }
    return text;
  }

  /** The raw line starting at `q`: its end, and its first non-space character (`end` when it is blank). */
  private rawLine(q: number): { end: number; content: number } {
    const t = this.text;
    let end = t.indexOf('\n', q);
    if (end < 0) end = t.length;
    return { end, content: this.afterSpaces(q) };
  }

  /** Spaces, matched natively: indentation runs long, and a loop is slow until the JIT compiles it. */
  private readonly spaces = / */y;

  /** The index after the spaces at `p` (they never cross a line's end). */
  private afterSpaces(p: number): number {
    this.spaces.lastIndex = p;
    this.spaces.test(this.text);
    return this.spaces.lastIndex;
  }

  /** Whether what follows a plain scalar's end on its line is a comment (which ends the scalar). */
  private endsInComment(contentEnd: number, end: number): boolean {
    let i = contentEnd;
    while (i < end && this.text.charCodeAt(i) === SPACE) i++;
    return i < end;
  }

  /** Index just past the closing quote of a single-quoted scalar whose content starts at `from`, on this line. */
  private singleQuotedEnd(from: number, end: number): number | undefined {
    for (let i = from; i < end; i++) {
      if (this.text.charCodeAt(i) !== 0x27) continue;
      if (this.text.charCodeAt(i + 1) === 0x27) {
        i++;
        continue;
      }
      return i + 1;
    }
    return undefined;
  }

  /**
   * A single-quoted scalar opened at `p` that goes on over the following lines (each indented
   * deeper than the collection at `indent`), folded like a plain one; spaces around line breaks go.
   */
  private multiLineSingleQuoted(indent: number, p: number, line: Line): string {
    const t = this.text;
    let text = t.slice(p + 1, line.end).replace(/ +$/, '');
    let blanks = 0;
    for (let q = line.end + 1; q < t.length; ) {
      const { end, content: c } = this.rawLine(q);
      if (this.hasTabs && hasCode(t, TAB, q, end)) outside();
      if (c === end) {
        blanks++;
        q = end + 1;
        continue;
      }
      if (c - q <= indent) outside();
      const fold = blanks === 0 ? ' ' : '\n'.repeat(blanks);
      blanks = 0;
      const close = this.singleQuotedEnd(c, end);
      if (close === undefined) {
        text += fold + t.slice(c, end).replace(/ +$/, '');
        q = end + 1;
        continue;
      }
      if (!this.onlyComment(close, end)) outside();
      this.pos = end + 1;
      return (text + fold + t.slice(c, close - 1)).replaceAll("''", "'");
    }
    return outside(); // never closed
  }

  /** End of a single-line plain scalar starting at `p` (before a comment and trailing spaces). */
  private plainEnd(p: number, end: number): number {
    const { colon, comment } = this.colonAndComment(p, end);
    if (colon >= 0) outside(); // a mapping on the same line
    let e = comment;
    while (e > p && this.text.charCodeAt(e - 1) === SPACE) e--;
    return e;
  }

  /** The value of a key or item written on the following lines (a nested collection), or null. */
  private nestedValue(indent: number, inMap: boolean, annotations: boolean): Value {
    const line = this.peek();
    const empty = line === undefined || line.indent < indent || this.isDocumentMarker(line) || (line.indent === indent && !(inMap && this.isItemAt(line.content, line.end)));
    // no value at all reads as an empty plain scalar
    this.plainText = empty ? '' : undefined;
    if (empty) return this.options.resolve('');
    let value: Value;
    if (line.indent === indent) {
      // a sequence may sit at its key's indentation
      value = this.seq(indent, line);
    } else if (this.isItemAt(line.content, line.end)) {
      value = this.seq(line.indent, line);
    } else if (!this.isKeyAt(line.content, line.end)) {
      // a scalar on the next line (not a block scalar's header, whose indentation rules differ)
      if (this.text.charCodeAt(line.content) === 0x7c) outside();
      return this.scalarOrFlow(indent, line.content, line, annotations);
    } else {
      value = this.map(line.indent, line.content, line, annotations);
    }
    this.plainText = undefined;
    return value;
  }

  private recordSourceTexts(m: YMap, plainTexts: Map<string, string>): void {
    let texts: Record<string, string> | undefined;
    for (const [key, text] of plainTexts) if (m[key] !== text) (texts ??= {})[key] = text;
    if (texts) markSourceTexts(m, texts);
  }

  /** A literal block scalar (`|` or `|-`) whose header is at `p` on `line`, in a collection at `indent`. */
  private literal(indent: number, p: number, line: Line): string {
    const t = this.text;
    let h = p + 1;
    const strip = t.charCodeAt(h) === DASH;
    if (strip) h++;
    if (h !== line.end) outside(); // keep (`+`), indentation indicators and header comments
    const lines: string[] = [];
    let q = line.end + 1;
    let contentIndent = -1;
    let lastContentEnd = -1;
    let blanks = 0;
    while (q < t.length) {
      const { end, content: c } = this.rawLine(q);
      if (c === end) {
        if (contentIndent >= 0 ? c - q > contentIndent : false) outside(); // spaces beyond the indentation are content
        blanks++;
        q = end + 1;
        continue;
      }
      if (t.charCodeAt(c) === 0x09 && (contentIndent < 0 || c - q < contentIndent)) outside(); // a tab in the indentation
      if (contentIndent < 0) {
        if (c - q <= indent) break;
        contentIndent = c - q;
        if (this.blankLinesTooLong(line.end + 1, q, contentIndent)) outside();
      } else if (c - q < contentIndent) break;
      for (; blanks > 0; blanks--) lines.push('');
      lines.push(t.slice(q + contentIndent, end));
      lastContentEnd = end;
      q = end + 1;
    }
    if (contentIndent < 0) outside(); // an empty block scalar
    this.pos = lastContentEnd + 1;
    const body = lines.join('\n');
    // yaml.v3 keeps no final line break after a last line that ends the input without one
    return strip || lastContentEnd === t.length ? body : `${body}\n`;
  }

  /** Whether a blank line before the first content line has more spaces than the content's indentation (a YAML error). */
  private blankLinesTooLong(from: number, to: number, contentIndent: number): boolean {
    for (let q = from; q < to; ) {
      const end = this.text.indexOf('\n', q);
      if (end - q > contentIndent) return true;
      q = end + 1;
    }
    return false;
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) outside();
  }
}
