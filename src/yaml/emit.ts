/**
 * Prints one resource the way kustomize does, byte for byte.
 *
 * kustomize prints a resource by encoding it as JSON and handing that to
 * `sigs.k8s.io/yaml.JSONToYAML`, which reads the JSON with go-yaml v2 and marshals the result
 * with go-yaml v2 again. What comes out is therefore decided by three things, each reproduced
 * from observation of kustomize (see `test/yaml/emit.test.ts`) and from reading go-yaml v2:
 *
 *  - the JSON round trip: what go-yaml reads back from Go's JSON (json-round-trip.ts), and
 *    numbers as int64, uint64 or float64 printed the way Go prints them (go-number.ts);
 *  - the encoder (`encode.go`): map keys in go-yaml's natural order (key-order.ts), a string's
 *    preferred style (scalar-style.ts, with yaml11-resolve.ts deciding which plain texts
 *    would read back as something other than a string);
 *  - the emitter (`emitterc.go`), here: indentation (2, sequences not indented under their
 *    key), the explicit `? key` form for long or multi-line keys, line folding at a space once
 *    a line has passed column 80, escapes in double quotes, literal block headers.
 *
 * The emitter keeps go-yaml's output state (column, "after whitespace", "in indentation")
 * because its decisions depend on exactly that state, but it walks the value recursively
 * instead of running an event state machine.
 */
import { boundedMemo } from '../memo/bounded-memo.js';
import { codePointAt, columns, isBreak, isPrintable, utf8Length } from './characters.js';
import { formatNumber } from './go-number.js';
import { jsonEncodable } from './go-json.js';
import { readBack, readBackKey } from './json-round-trip.js';
import { sortedKeys } from './key-order.js';
import { analyzeScalar, Style, stringStyle, type ScalarAnalysis } from './scalar-style.js';
import type { Value, YMap } from './value.js';

// How this printer writes a number and orders keys, for callers that must match it piecemeal.
export { formatNumber } from './go-number.js';
export { compareYamlKeys } from './key-order.js';

/** go-yaml's `best_width`: lines are folded at a space once the column has passed it. */
const BEST_WIDTH = 80;
/** go-yaml's `best_indent`. */
const BEST_INDENT = 2;
/** The line breaks other than `\n` (see isBreak). */
const OTHER_BREAKS = /[\r\x85\u2028\u2029]/;
/** How many pieces the printer joins at a time. */
const CHUNK = 256;
/** A line break followed by n spaces, for the indentations most lines have. */
const NEW_LINES: readonly string[] = Array.from({ length: 64 }, (_, n) => '\n' + ' '.repeat(n));
/** A key longer than this many UTF-8 bytes is written in the explicit `? key` form. */
const MAX_SIMPLE_KEY_BYTES = 128;

/** Prints one document exactly as kustomize prints one resource (no `---`, ends with a newline). */
export function emitYaml(value: Value): string {
  return new Emitter().document(value);
}

/**
 * {@link emitYaml} for many documents in a row: one printer, whose buffer grows once instead of
 * once per document (a build prints thousands of resources).
 */
export function yamlPrinter(): (value: Value) => string {
  const emitter = new Emitter();
  return (value) => emitter.document(value);
}

/**
 * How a key is printed in the simple `key:` form: the same text wherever it stands, since a
 * simple key is never folded. Keys repeat in every resource (`metadata`, `name`, `labels`…), so
 * their printing is kept; null for a key written in the explicit `? key` form.
 */
const simpleKeyText = boundedMemo(10_000, (rawKey: string): { withColon: string; columns: number } | null => {
  const key = readBackKey(rawKey);
  const a = analyzeScalar(key);
  if (a.multiline || utf8Length(key) > MAX_SIMPLE_KEY_BYTES) return null;
  const e = new Emitter();
  e.simpleKey(key, a);
  return { withColon: e.out + ':', columns: e.column };
});

/**
 * How a string value is printed when it has no space and no line break: it can then be neither
 * folded nor broken, so it prints the same wherever it stands (after a separating space when
 * the line needs one). Values repeat across resources (names, labels, ports, images), so the
 * printing is kept, as for keys; null for a text that may print differently by place.
 */
function standaloneText(raw: string): { text: string; columns: number } | null {
  return raw.length > MAX_STANDALONE_CHARS ? null : standaloneTexts(raw);
}
const standaloneTexts = boundedMemo(10_000, (raw: string): { text: string; columns: number } | null => {
  if (HAS_SPACE_OR_BREAK.test(raw)) return null;
  const e = new Emitter();
  e.standalone(readBack(raw));
  return { text: e.out, columns: e.column };
});
/** Longer texts (digests, tokens, certificates on one line) rarely repeat: not kept. */
const MAX_STANDALONE_CHARS = 128;
/** A space may fold; any line break (also NEL, LS, PS, and CR, which readBack keeps) may break a line. */
const HAS_SPACE_OR_BREAK = /[ \n\r\x85\u2028\u2029]/;

/** Escape letters go-yaml uses in double-quoted scalars (others are `\x`, `\u`, `\U` hex). */
const NAMED_ESCAPES = new Map<number, string>([
  [0x00, '0'], [0x07, 'a'], [0x08, 'b'], [0x09, 't'], [0x0a, 'n'], [0x0b, 'v'], [0x0c, 'f'],
  [0x0d, 'r'], [0x1b, 'e'], [0x22, '"'], [0x5c, '\\'], [0x85, 'N'], [0xa0, '_'],
  [0x2028, 'L'], [0x2029, 'P'],
]);

function escapeFor(c: number): string {
  const named = NAMED_ESCAPES.get(c);
  if (named !== undefined) return '\\' + named;
  const hex = c.toString(16).toUpperCase();
  if (c <= 0xff) return '\\x' + hex.padStart(2, '0');
  if (c <= 0xffff) return '\\u' + hex.padStart(4, '0');
  return '\\U' + hex.padStart(8, '0');
}

class Emitter {
  /**
   * What is written, in pieces joined at the end (a string grown by += is a rope that is slow to
   * flatten); every {@link CHUNK} pieces are joined into one: a join over a CRD's hundreds of
   * thousands of pieces took twice as long as joining them in chunks, and then the chunks.
   */
  private readonly parts: string[] = [];
  /** how many of `parts` are this text's (the array is reused, never shortened: shortening gives its storage back) */
  private count = 0;
  private chunks: string[] = [];
  get out(): string {
    const parts = this.parts;
    const tail = this.count === parts.length ? parts.join('') : parts.slice(0, this.count).join('');
    return this.chunks.length === 0 ? tail : this.chunks.join('') + tail;
  }

  private push(text: string): void {
    this.parts[this.count++] = text;
    if (this.count === CHUNK) {
      this.chunks.push(this.parts.join(''));
      this.count = 0;
    }
  }

  /** Prints one document, from a fresh start (see {@link emitYaml}). */
  document(value: Value): string {
    this.count = 0;
    this.chunks = [];
    this.column = 0;
    this.whitespace = true;
    this.indention = true;
    this.node(value, -1, false);
    // Document end: go-yaml finishes the last line unless a block scalar already did.
    this.writeIndent(-1);
    return this.out;
  }
  /** column of the next character, counted in characters */
  column = 0;
  /** the last thing written was whitespace (or nothing): no separating space needed */
  private whitespace = true;
  /** only indentation has been written on the current line so far */
  private indention = true;

  // -- nodes ----------------------------------------------------------------------------------

  /**
   * Writes a node whose parent collection sits at `indent` (-1 for the document root);
   * `isMapValue` when it is the value of a mapping entry.
   */
  node(v: Value, indent: number, isMapValue: boolean): void {
    if (v === null) this.atom('null');
    else if (typeof v === 'string') this.string(v, indent);
    else if (typeof v === 'number' || typeof v === 'bigint') this.atom(formatNumber(jsonEncodable(v)));
    else if (typeof v === 'boolean') this.atom(v ? 'true' : 'false');
    else if (Array.isArray(v)) {
      if (v.length === 0) this.emptyFlow('[', ']');
      else this.blockSequence(v, indent, isMapValue);
    } else {
      const keys = sortedKeys(v);
      if (keys.length === 0) this.emptyFlow('{', '}');
      else this.blockMapping(v, keys, indent);
    }
  }

  private blockMapping(m: YMap, keys: readonly string[], indent: number): void {
    const mapIndent = indent < 0 ? 0 : indent + BEST_INDENT;
    // indexed, as below: a for-of here allocated an iterator result per key (measured)
    for (let i = 0; i < keys.length; i++) {
      const rawKey = keys[i]!;
      this.writeIndent(mapIndent);
      const simple = simpleKeyText(rawKey);
      if (simple) {
        // the key and its `:` in one piece: what writeIndicator(':', false, false, false) would add
        this.put(simple.withColon, simple.columns + 1);
        this.whitespace = false;
        this.indention = false;
      } else {
        // explicit key: `? key` on its own line(s), then `: value`
        const key = readBackKey(rawKey);
        this.writeIndicator('?', true, false, true);
        this.scalar(key, analyzeScalar(key), mapIndent, false);
        this.writeIndent(mapIndent);
        this.writeIndicator(':', true, false, true);
      }
      this.node(m[rawKey]!, mapIndent, true);
    }
  }

  private blockSequence(items: Value[], indent: number, isMapValue: boolean): void {
    // A sequence that is a mapping value starting right after `key:` is not indented further.
    const indentless = isMapValue && !this.indention;
    const seqIndent = indent < 0 ? 0 : indentless ? indent : indent + BEST_INDENT;
    for (let i = 0; i < items.length; i++) {
      this.writeIndent(seqIndent);
      this.writeIndicator('-', true, false, true);
      this.node(items[i]!, seqIndent, false);
    }
  }

  private emptyFlow(open: string, close: string): void {
    this.writeIndicator(open, true, true, false);
    this.writeIndicator(close, false, false, false);
  }

  /** A number, boolean or null: always plain, never containing a space. */
  private atom(text: string): void {
    if (!this.whitespace) this.put(' ', 1);
    this.put(text, text.length);
    this.whitespace = false;
    this.indention = false;
  }

  /** A value that cannot fold or break, on a fresh line (what {@link standaloneText} keeps). */
  standalone(s: string): void {
    this.scalar(s, analyzeScalar(s), 0, false);
  }

  /** A key in the simple `key` form, on a fresh line (what {@link simpleKeyText} keeps). */
  simpleKey(key: string, a: ScalarAnalysis): void {
    this.scalar(key, a, 0, true);
  }

  private string(raw: string, indent: number): void {
    const known = standaloneText(raw);
    if (known) {
      // what writePlain or a quoted writer would do with a text that cannot fold or break
      if (!this.whitespace) this.put(' ', 1);
      this.put(known.text, known.columns);
      this.whitespace = false;
      this.indention = false;
      return;
    }
    const s = readBack(raw);
    this.scalar(s, analyzeScalar(s), indent, false);
  }

  private scalar(s: string, a: ScalarAnalysis, indent: number, simpleKey: boolean): void {
    // a scalar's continuation lines are indented one step past its parent
    const scalarIndent = indent < 0 ? BEST_INDENT : indent + BEST_INDENT;
    const allowBreaks = !simpleKey;
    switch (stringStyle(s, a, simpleKey)) {
      case Style.Plain:
        return this.writePlain(s, scalarIndent, allowBreaks);
      case Style.SingleQuoted:
        return this.writeSingleQuoted(s, scalarIndent, allowBreaks);
      case Style.DoubleQuoted:
        return this.writeDoubleQuoted(s, scalarIndent, allowBreaks);
      case Style.Literal:
        return this.writeLiteral(s, scalarIndent);
    }
  }

  // -- scalar writers -------------------------------------------------------------------------
  // Folding rule shared by the flow styles: at a single space, once the column has passed
  // BEST_WIDTH, the space becomes a line break plus indentation.

  private writePlain(s: string, indent: number, allowBreaks: boolean): void {
    if (!this.whitespace) this.put(' ', 1);
    const n = s.length;
    if (!allowBreaks || !s.includes(' ') || this.column + n <= BEST_WIDTH + 1) {
      this.put(s, columns(s, 0, n));
    } else {
      // plain text never has line breaks or leading/trailing spaces (analysis forbids them)
      let spaces = false;
      for (let i = 0; i < n; ) {
        if (s.charCodeAt(i) === 0x20) {
          if (!spaces && this.column > BEST_WIDTH && s.charCodeAt(i + 1) !== 0x20) this.writeIndent(indent);
          else this.put(' ', 1);
          spaces = true;
          i++;
        } else {
          const space = s.indexOf(' ', i + 1);
          const j = space < 0 ? n : space;
          this.put(s.slice(i, j), columns(s, i, j));
          this.indention = false;
          spaces = false;
          i = j;
        }
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  private writeSingleQuoted(s: string, indent: number, allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    const n = s.length;
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < n; ) {
      const c = s.charCodeAt(i);
      if (c === 0x20) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < n - 1 && s.charCodeAt(i + 1) !== 0x20) {
          this.writeIndent(indent);
        } else {
          this.put(' ', 1);
        }
        spaces = true;
        i++;
      } else if (isBreak(c)) {
        if (!breaks && c === 0x0a) this.putBreak();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
        i++;
      } else {
        if (breaks) this.writeIndent(indent);
        let j = i + 1;
        while (j < n && s.charCodeAt(j) !== 0x20 && !isBreak(s.charCodeAt(j))) j++;
        const run = s.slice(i, j);
        const quotes = run.includes("'") ? run.split("'").length - 1 : 0;
        this.put(quotes ? run.replace(/'/g, "''") : run, columns(s, i, j) + quotes);
        this.indention = false;
        spaces = false;
        breaks = false;
        i = j;
      }
    }
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeDoubleQuoted(s: string, indent: number, allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    // go-yaml's BOM test looks at the start of the text, not the current character, so a
    // text starting with U+FEFF gets every character escaped
    const escapeAll = s.charCodeAt(0) === 0xfeff;
    const n = s.length;
    let spaces = false;
    for (let i = 0; i < n; ) {
      const c = codePointAt(s, i);
      const w = c > 0xffff ? 2 : 1;
      if (escapeAll || !isPrintable(c) || isBreak(c) || c === 0x22 || c === 0x5c) {
        const e = escapeFor(c);
        this.put(e, e.length);
        spaces = false;
        i += w;
      } else if (c === 0x20) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < n - 1) {
          this.writeIndent(indent);
          // a following space would be eaten by folding: keep it with an escape
          if (s.charCodeAt(i + 1) === 0x20) this.put('\\', 1);
        } else {
          this.put(' ', 1);
        }
        spaces = true;
        i++;
      } else {
        let j = i + w;
        while (j < n) {
          const d = codePointAt(s, j);
          if (d === 0x20 || !isPrintable(d) || isBreak(d) || d === 0x22 || d === 0x5c) break;
          j += d > 0xffff ? 2 : 1;
        }
        this.put(s.slice(i, j), columns(s, i, j));
        spaces = false;
        i = j;
      }
    }
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeLiteral(s: string, indent: number): void {
    this.writeIndicator('|', true, false, false);
    const first = s.charCodeAt(0);
    // an indentation indicator is needed when the first line starts with a space or is empty
    if (first === 0x20 || isBreak(first)) this.writeIndicator(String(BEST_INDENT), false, false, false);
    const chomp = literalChomping(s);
    if (chomp) this.writeIndicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    const n = s.length;
    // lines found natively when `\n` is the only break (a character loop is slow until compiled)
    const newlinesOnly = !OTHER_BREAKS.test(s);
    for (let i = 0; i < n; ) {
      const c = s.charCodeAt(i);
      if (isBreak(c)) {
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
        i++;
      } else {
        if (breaks) this.writeIndent(indent);
        let j: number;
        if (newlinesOnly) {
          j = s.indexOf('\n', i + 1);
          if (j < 0) j = n;
        } else {
          j = i + 1;
          while (j < n && !isBreak(s.charCodeAt(j))) j++;
        }
        this.put(s.slice(i, j), columns(s, i, j));
        this.indention = false;
        breaks = false;
        i = j;
      }
    }
  }

  // -- output primitives (emitterc.go write_indent / write_indicator / put_break) -------------

  private put(text: string, cols: number): void {
    this.push(text);
    this.column += cols;
  }

  private putBreak(): void {
    this.push('\n');
    this.column = 0;
    this.indention = true;
  }

  /** A line break from the text itself: `\n` is normalised, others are copied. */
  private writeBreak(c: number): void {
    if (c === 0x0a) {
      this.putBreak();
      return;
    }
    this.push(String.fromCharCode(c));
    this.column = 0;
    this.indention = true;
  }

  /** Starts a new line at `indent` unless the current line holds only indentation up to it. */
  writeIndent(indent: number): void {
    const ind = indent < 0 ? 0 : indent;
    if (!this.indention || this.column > ind || (this.column === ind && !this.whitespace)) {
      // the break and the indentation in one piece
      this.push(ind < NEW_LINES.length ? NEW_LINES[ind]! : '\n' + ' '.repeat(ind));
      this.column = ind;
    } else if (this.column < ind) this.put(' '.repeat(ind - this.column), ind - this.column);
    this.whitespace = true;
    this.indention = true;
  }

  private writeIndicator(indicator: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ', 1);
    this.put(indicator, indicator.length);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }
}

/** Literal block chomping: `-` without a final break, `+` to keep more than one, else none. */
function literalChomping(s: string): string {
  const n = s.length;
  if (!isBreak(s.charCodeAt(n - 1))) return '-';
  if (n === 1 || isBreak(s.charCodeAt(n - 2))) return '+';
  return '';
}
