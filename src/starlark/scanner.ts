/**
 * The Starlark scanner: source text (as a byte string, see text.ts) to tokens, with Python's
 * indentation rules (INDENT/OUTDENT), newlines ignored inside brackets, and literal decoding.
 */
import { StarlarkSyntaxError, type Position } from './errors.js';
import { bigOrSmall, type Int } from './int.js';
import { encodeUtf8 } from './text.js';

export type TokenKind =
  | 'EOF' | 'NEWLINE' | 'INDENT' | 'OUTDENT' | 'IDENT' | 'INT' | 'FLOAT' | 'STRING' | 'BYTES'
  | string; // punctuation and keywords are their own text

export interface Token {
  kind: TokenKind;
  pos: Position;
  /** IDENT: name; STRING/BYTES: decoded byte string; INT: Int; FLOAT: number */
  value?: string | Int | number;
  /** source text of a literal, for error messages */
  raw?: string;
}

const KEYWORDS = new Set([
  'and', 'break', 'continue', 'def', 'elif', 'else', 'for', 'if', 'in', 'lambda', 'load', 'not', 'or', 'pass',
  'return', 'while',
]);
const PUNCT3 = ['//=', '<<=', '>>=', '**='];
const PUNCT2 = ['+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '==', '!=', '<=', '>=', '//', '<<', '>>', '**'];
const PUNCT1 = '+-*/%&|^~<>=.,;:()[]{}';
const OPEN = '([{';
const CLOSE = ')]}';

/** How an error message names a token kind: Go's Token.String(). */
export function describeToken(kind: TokenKind): string {
  switch (kind) {
    case 'EOF': return 'end of file';
    case 'NEWLINE': return 'newline';
    case 'INDENT': return 'indent';
    case 'OUTDENT': return 'outdent';
    case 'IDENT': return 'identifier';
    case 'INT': return 'int literal';
    case 'FLOAT': return 'float literal';
    case 'STRING': return 'string literal';
    case 'BYTES': return 'bytes literal';
  }
  return KEYWORDS.has(kind) ? kind : `'${kind}'`;
}

function isIdentStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c >= '\x80';
}
function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

export class Scanner {
  private pos = 0;
  private line: number;
  private col = 1;
  private depth = 0;
  private readonly indents: number[] = [0];
  private pending: Token[] = [];
  private atLineStart = true;
  private lastKind: TokenKind = 'NEWLINE';

  constructor(
    private readonly src: string,
    private readonly file: string,
    firstLine = 1,
  ) {
    this.line = firstLine;
  }

  private here(): Position {
    return { file: this.file, line: this.line, col: this.col };
  }

  private error(msg: string, pos: Position = this.here()): never {
    throw new StarlarkSyntaxError(pos, msg);
  }

  private peekc(offset = 0): string {
    return this.src[this.pos + offset] ?? '';
  }

  private advance(): string {
    const c = this.src[this.pos++]!;
    if (c === '\n') {
      this.line++;
      this.col = 1;
    } else if (c >= '\x80' && c < '\xc0') {
      // UTF-8 continuation byte: columns count characters
    } else {
      this.col++;
    }
    return c;
  }

  next(): Token {
    if (this.pending.length) return this.emit(this.pending.shift()!);
    if (this.atLineStart && this.depth === 0) {
      const t = this.indentation();
      if (t) return this.emit(t);
    }
    return this.emit(this.scan());
  }

  private emit(t: Token): Token {
    this.lastKind = t.kind;
    return t;
  }

  /** At the start of a line: measure indentation, skipping blank and comment-only lines. */
  private indentation(): Token | undefined {
    for (;;) {
      let width = 0;
      while (this.peekc() === ' ' || this.peekc() === '\t' || this.peekc() === '\r') {
        const c = this.advance();
        if (c === ' ') width++;
        else if (c === '\t') width += 8 - (width % 8);
      }
      const c = this.peekc();
      if (c === '#') {
        while (this.peekc() !== '\n' && this.peekc() !== '') this.advance();
      }
      if (this.peekc() === '\n') {
        this.advance();
        continue;
      }
      if (this.peekc() === '\\' && this.peekc(1) === '\n') {
        this.advance();
        this.advance();
        continue;
      }
      this.atLineStart = false;
      if (this.peekc() === '') width = 0;
      const top = this.indents[this.indents.length - 1]!;
      const pos = this.here();
      if (width > top) {
        this.indents.push(width);
        return { kind: 'INDENT', pos };
      }
      if (width < top) {
        while (this.indents.length > 1 && width < this.indents[this.indents.length - 1]!) {
          this.indents.pop();
          this.pending.push({ kind: 'OUTDENT', pos });
        }
        if (width !== this.indents[this.indents.length - 1]) this.error('unindent does not match any outer indentation level');
        return this.pending.shift();
      }
      return undefined;
    }
  }

  private scan(): Token {
    for (;;) {
      const c = this.peekc();
      if (c === ' ' || c === '\t' || c === '\r') {
        this.advance();
        continue;
      }
      if (c === '\\') {
        if (this.peekc(1) === '\n') {
          this.advance();
          this.advance();
          continue;
        }
        if (this.peekc(1) === '\r' && this.peekc(2) === '\n') {
          this.advance();
          this.advance();
          this.advance();
          continue;
        }
        this.error("stray backslash in program");
      }
      if (c === '#') {
        while (this.peekc() !== '\n' && this.peekc() !== '') this.advance();
        continue;
      }
      break;
    }
    const pos = this.here();
    const c = this.peekc();
    if (c === '') {
      if (this.depth > 0) return { kind: 'EOF', pos };
      if (this.lastKind !== 'NEWLINE' && this.lastKind !== 'INDENT' && this.lastKind !== 'OUTDENT') {
        return { kind: 'NEWLINE', pos };
      }
      if (this.indents.length > 1) {
        this.indents.pop();
        return { kind: 'OUTDENT', pos };
      }
      return { kind: 'EOF', pos };
    }
    if (c === '\n') {
      this.advance();
      if (this.depth > 0) return this.scan();
      this.atLineStart = true;
      return { kind: 'NEWLINE', pos };
    }
    if (isIdentStart(c)) return this.identOrString(pos);
    if (isDigit(c) || (c === '.' && isDigit(this.peekc(1)))) return this.number(pos);
    if (c === '"' || c === "'") return this.string(pos, false, false);
    for (const p of PUNCT3) if (this.src.startsWith(p, this.pos)) return this.punct(pos, p);
    for (const p of PUNCT2) if (this.src.startsWith(p, this.pos)) return this.punct(pos, p);
    if (PUNCT1.includes(c)) {
      if (OPEN.includes(c)) this.depth++;
      else if (CLOSE.includes(c)) {
        if (this.depth === 0) this.error(`unexpected '${c}'`);
        this.depth--;
      }
      return this.punct(pos, c);
    }
    if (c === '!') this.error("unexpected input character '!'");
    this.error(`unexpected input character ${JSON.stringify(c)}`);
  }

  private punct(pos: Position, p: string): Token {
    for (let i = 0; i < p.length; i++) this.advance();
    return { kind: p, pos };
  }

  private identOrString(pos: Position): Token {
    const c = this.peekc();
    const c1 = this.peekc(1);
    // string prefixes: r, b, rb, br
    if ((c === 'r' || c === 'b') && (c1 === '"' || c1 === "'")) {
      this.advance();
      return this.string(pos, c === 'r', c === 'b');
    }
    if ((c === 'r' && c1 === 'b') || (c === 'b' && c1 === 'r')) {
      const q = this.peekc(2);
      if (q === '"' || q === "'") {
        this.advance();
        this.advance();
        return this.string(pos, true, true);
      }
    }
    const start = this.pos;
    while (isIdentStart(this.peekc()) || isDigit(this.peekc())) this.advance();
    const name = this.src.slice(start, this.pos);
    if (KEYWORDS.has(name)) return { kind: name, pos };
    return { kind: 'IDENT', pos, value: name };
  }

  private number(pos: Position): Token {
    const start = this.pos;
    const c = this.peekc();
    const c1 = this.peekc(1).toLowerCase();
    if (c === '0' && (c1 === 'x' || c1 === 'o' || c1 === 'b')) {
      this.advance();
      this.advance();
      const radix = c1 === 'x' ? 16 : c1 === 'o' ? 8 : 2;
      while (/[0-9a-zA-Z_]/.test(this.peekc())) this.advance();
      const raw = this.src.slice(start, this.pos);
      const digits = raw.slice(2).replace(/_/g, '');
      const valid = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[01]+$/;
      if (!valid.test(digits)) this.error(`invalid int literal`, pos);
      return { kind: 'INT', pos, value: bigOrSmall(BigInt(raw.slice(0, 2).toLowerCase() + digits)), raw };
    }
    let isFloat = false;
    while (isDigit(this.peekc()) || this.peekc() === '_') this.advance();
    if (this.peekc() === '.') {
      isFloat = true;
      this.advance();
      while (isDigit(this.peekc())) this.advance();
    }
    if (this.peekc() === 'e' || this.peekc() === 'E') {
      isFloat = true;
      this.advance();
      if (this.peekc() === '+' || this.peekc() === '-') this.advance();
      if (!isDigit(this.peekc())) this.error('invalid float literal', pos);
      while (isDigit(this.peekc())) this.advance();
    }
    const raw = this.src.slice(start, this.pos);
    if (isIdentStart(this.peekc())) this.error(`invalid ${isFloat ? 'float' : 'int'} literal`, pos);
    if (isFloat) return { kind: 'FLOAT', pos, value: Number(raw), raw };
    const digits = raw.replace(/_/g, '');
    if (digits.length > 1 && digits[0] === '0') {
      if (/^0+$/.test(digits)) return { kind: 'INT', pos, value: 0, raw };
      this.error(`invalid int literal`, pos);
    }
    return { kind: 'INT', pos, value: bigOrSmall(BigInt(digits)), raw };
  }

  private string(pos: Position, raw: boolean, bytes: boolean): Token {
    const start = this.pos - (raw ? 1 : 0) - (bytes ? 1 : 0);
    const quote = this.advance();
    const triple = this.peekc() === quote && this.peekc(1) === quote;
    if (triple) {
      this.advance();
      this.advance();
    }
    let out = '';
    for (;;) {
      const c = this.peekc();
      if (c === '') this.error('unexpected EOF in string', pos);
      if (c === quote) {
        if (!triple) {
          this.advance();
          break;
        }
        if (this.peekc(1) === quote && this.peekc(2) === quote) {
          this.advance();
          this.advance();
          this.advance();
          break;
        }
      }
      if (c === '\n' && !triple) this.error('unexpected newline in string', pos);
      if (c === '\r') {
        this.advance();
        continue;
      }
      if (c !== '\\') {
        out += this.advance();
        continue;
      }
      this.advance();
      out += this.escape(raw, bytes);
    }
    const text = this.src.slice(start, this.pos);
    return { kind: bytes ? 'BYTES' : 'STRING', pos, value: out, raw: text };
  }

  /** After a backslash: the bytes the escape stands for. */
  private escape(raw: boolean, bytes: boolean): string {
    const c = this.peekc();
    if (raw) {
      if (c === '\n') {
        this.advance();
        return '\\\n';
      }
      if (c === "'" || c === '"' || c === '\\') {
        this.advance();
        return '\\' + c;
      }
      return '\\';
    }
    const epos = this.here();
    switch (c) {
      case '\n': this.advance(); return '';
      case 'a': this.advance(); return '\x07';
      case 'b': this.advance(); return '\b';
      case 'f': this.advance(); return '\f';
      case 'n': this.advance(); return '\n';
      case 'r': this.advance(); return '\r';
      case 't': this.advance(); return '\t';
      case 'v': this.advance(); return '\v';
      case '\\': case "'": case '"': this.advance(); return c;
      case 'x': {
        this.advance();
        const h = this.src.slice(this.pos, this.pos + 2);
        if (!/^[0-9a-fA-F]{2}$/.test(h)) this.error(`invalid escape sequence \\x${h}`, epos);
        this.advance();
        this.advance();
        const n = parseInt(h, 16);
        if (!bytes && n >= 0x80) this.error(`non-ASCII hex escape \\x${h} (use \\u${h.padStart(4, '0').toUpperCase()} for the UTF-8 encoding of U+${h.padStart(4, '0').toUpperCase()})`, epos);
        return String.fromCharCode(n);
      }
      case 'u': case 'U': {
        this.advance();
        const n = c === 'u' ? 4 : 8;
        const h = this.src.slice(this.pos, this.pos + n);
        if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(h)) this.error(`truncated escape sequence \\${c}${h}`, epos);
        for (let i = 0; i < n; i++) this.advance();
        const cp = parseInt(h, 16);
        if (cp > 0x10ffff) this.error(`code point out of range: \\${c}${h} (max \\U0010ffff)`, epos);
        if (cp >= 0xd800 && cp < 0xe000) this.error(`invalid Unicode code point U+${h.toUpperCase()}`, epos);
        return encodeUtf8(String.fromCodePoint(cp));
      }
      default:
        if (c >= '0' && c <= '7') {
          let s = '';
          while (s.length < 3 && this.peekc() >= '0' && this.peekc() <= '7') s += this.advance();
          const n = parseInt(s, 8);
          if (n > 255) this.error(`octal escape value > 255: ${n}`, epos);
          if (!bytes && n >= 0x80) this.error(`non-ASCII octal escape \\${s} (use \\u${n.toString(16).padStart(4, '0').toUpperCase()} for the UTF-8 encoding of U+${n.toString(16).padStart(4, '0').toUpperCase()})`, epos);
          return String.fromCharCode(n);
        }
        this.error(`invalid escape sequence \\${c}`, epos);
    }
  }
}
