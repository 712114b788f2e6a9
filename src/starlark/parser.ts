/**
 * The Starlark parser: tokens to a syntax tree, following the grammar of the specification
 * (and starlark-go's error messages, which the conformance corpus checks).
 */
import { StarlarkSyntaxError, type Position } from './errors.js';
import type { Int } from './int.js';
import { describeToken, Scanner, type Token, type TokenKind } from './scanner.js';
import type { Arg, Clause, DictEntry, Expr, FileSyntax, Ident, Param, Stmt } from './syntax.js';

const PRECEDENCE: Record<string, number> = {
  or: 0,
  and: 1,
  not: 2,
  '==': 3, '!=': 3, '<': 3, '>': 3, '<=': 3, '>=': 3, in: 3, 'not in': 3,
  '|': 4,
  '^': 5,
  '&': 6,
  '<<': 7, '>>': 7,
  '-': 8, '+': 8,
  '*': 9, '%': 9, '/': 9, '//': 9,
};
const NOT_PREC = 2;
const CMP_PREC = 3;
const MAX_PREC = 10;
const AUG_ASSIGN = new Set(['+=', '-=', '*=', '/=', '//=', '%=', '&=', '|=', '^=', '<<=', '>>=']);

function terminatesExprList(k: TokenKind): boolean {
  return k === 'EOF' || k === 'NEWLINE' || k === '=' || k === '}' || k === ']' || k === ')' || k === ';';
}

/**
 * Parses a file (as a byte string). `firstLine` numbers the first line, for chunks of a larger
 * file.
 */
export function parseFile(src: string, path: string, firstLine = 1): FileSyntax {
  const p = new Parser(new Scanner(src, path, firstLine));
  return { path, stmts: p.parseFile() };
}

class Parser {
  private tok: Token;

  constructor(private readonly sc: Scanner) {
    this.tok = sc.next();
  }

  /** the current token's kind (a method, so comparisons do not narrow it across nextToken) */
  private k(): string {
    return this.tok.kind;
  }

  private nextToken(): Position {
    const pos = this.tok.pos;
    this.tok = this.sc.next();
    return pos;
  }

  private error(msg: string, pos: Position = this.tok.pos): never {
    throw new StarlarkSyntaxError(pos, msg);
  }

  private expect(kind: TokenKind): Position {
    if (this.k() !== kind) this.error(`got ${describeToken(this.k())}, want ${describeToken(kind)}`);
    return this.nextToken();
  }

  parseFile(): Stmt[] {
    const stmts: Stmt[] = [];
    while (this.k() !== 'EOF') {
      if (this.k() === 'NEWLINE') {
        this.nextToken();
        continue;
      }
      this.parseStmt(stmts);
    }
    return stmts;
  }

  private parseStmt(stmts: Stmt[]): void {
    switch (this.k()) {
      case 'def': stmts.push(this.parseDef()); return;
      case 'if': stmts.push(this.parseIf()); return;
      case 'for': stmts.push(this.parseFor()); return;
      case 'while': stmts.push(this.parseWhile()); return;
    }
    this.parseSimpleStmt(stmts);
  }

  private parseDef(): Stmt {
    const pos = this.nextToken();
    const name = this.parseIdent();
    this.expect('(');
    const params = this.parseParams(')');
    this.expect(')');
    this.expect(':');
    const body = this.parseSuite();
    return { kind: 'Def', pos, name, params, body };
  }

  private parseIf(): Stmt {
    const pos = this.nextToken();
    const cond = this.parseTest();
    this.expect(':');
    const then = this.parseSuite();
    let els: Stmt[] = [];
    if (this.k() === 'elif') {
      els = [this.parseIf()];
    } else if (this.k() === 'else') {
      this.nextToken();
      this.expect(':');
      els = this.parseSuite();
    }
    return { kind: 'If', pos, cond, then, else: els };
  }

  private parseFor(): Stmt {
    const pos = this.nextToken();
    const vars = this.parseForLoopVariables();
    this.expect('in');
    const x = this.parseExpr(false);
    this.expect(':');
    const body = this.parseSuite();
    return { kind: 'For', pos, vars, x, body };
  }

  private parseWhile(): Stmt {
    const pos = this.nextToken();
    const cond = this.parseTest();
    this.expect(':');
    const body = this.parseSuite();
    return { kind: 'While', pos, cond, body };
  }

  /** Avoids parseExpr, which would consume the `in` of `for x in y`. */
  private parseForLoopVariables(): Expr {
    const pos = this.tok.pos;
    const v = this.parsePrimaryWithSuffix();
    if (this.k() !== ',') return v;
    const elems = [v];
    while (this.k() === ',') {
      this.nextToken();
      if (terminatesExprList(this.k())) break;
      elems.push(this.parsePrimaryWithSuffix());
    }
    return { kind: 'Tuple', pos, elems, parens: false };
  }

  private parseSuite(): Stmt[] {
    const stmts: Stmt[] = [];
    if (this.k() === 'NEWLINE') {
      this.nextToken();
      this.expect('INDENT');
      while (this.k() !== 'OUTDENT' && this.k() !== 'EOF') this.parseStmt(stmts);
      this.expect('OUTDENT');
      return stmts;
    }
    this.parseSimpleStmt(stmts);
    return stmts;
  }

  private parseSimpleStmt(stmts: Stmt[]): void {
    for (;;) {
      stmts.push(this.parseSmallStmt());
      if (this.k() !== ';') break;
      this.nextToken();
      if (this.k() === 'NEWLINE' || this.k() === 'EOF') break;
    }
    if (this.k() === 'EOF') return;
    if (this.k() !== 'NEWLINE') this.error(`got ${describeToken(this.k())}, want newline`);
    this.nextToken();
  }

  private parseSmallStmt(): Stmt {
    const pos = this.tok.pos;
    switch (this.k()) {
      case 'return': {
        this.nextToken();
        if (this.k() === 'EOF' || this.k() === 'NEWLINE' || this.k() === ';') return { kind: 'Return', pos };
        return { kind: 'Return', pos, result: this.parseExpr(false) };
      }
      case 'break':
      case 'continue':
      case 'pass': {
        const token = this.k() as 'break' | 'continue' | 'pass';
        this.nextToken();
        return { kind: 'Branch', pos, token };
      }
      case 'load':
        return this.parseLoad();
    }
    const lhs = this.parseExpr(false);
    if (this.k() === '=' || AUG_ASSIGN.has(this.k())) {
      const op = this.k();
      const opPos = this.nextToken();
      const rhs = this.parseExpr(false);
      return { kind: 'Assign', pos, opPos, op, lhs, rhs };
    }
    return { kind: 'ExprStmt', pos, x: lhs };
  }

  private parseLoad(): Stmt {
    const pos = this.nextToken();
    this.expect('(');
    if (this.k() !== 'STRING') this.error('first operand of load statement must be a string literal');
    const modulePos = this.tok.pos;
    const module = this.tok.value as string;
    this.nextToken();
    const from: Ident[] = [];
    const to: Ident[] = [];
    while (this.k() !== ')' && this.k() !== 'EOF') {
      this.expect(',');
      if (this.k() === ')') break;
      if (this.k() === 'STRING') {
        const name = this.tok.value as string;
        const npos = this.tok.pos;
        to.push({ kind: 'Ident', pos: npos, name });
        from.push({ kind: 'Ident', pos: npos, name });
        this.nextToken();
        continue;
      }
      if (this.k() === 'IDENT') {
        const local: Ident = { kind: 'Ident', pos: this.tok.pos, name: this.tok.value as string };
        this.nextToken();
        if (this.k() !== '=') this.error(`load operand must be "${local.name}" or ${local.name}="originalname"`);
        this.nextToken();
        if (this.k() !== 'STRING') this.error(`original name of loaded symbol must be quoted: ${local.name}="originalname"`);
        from.push({ kind: 'Ident', pos: this.tok.pos, name: this.tok.value as string });
        to.push(local);
        this.nextToken();
        continue;
      }
      this.error(`load operand must be "name" or localname="name" (got ${describeToken(this.k())})`);
    }
    const rparen = this.expect(')');
    if (to.length === 0) this.error('load statement must import at least 1 symbol', pos);
    return { kind: 'Load', pos, module, modulePos, from, to, rparen };
  }

  private parseIdent(): Ident {
    if (this.k() !== 'IDENT') this.error('not an identifier');
    const id: Ident = { kind: 'Ident', pos: this.tok.pos, name: this.tok.value as string };
    this.nextToken();
    return id;
  }

  private parseParams(end: TokenKind): Param[] {
    const params: Param[] = [];
    while (this.k() !== end && this.k() !== 'EOF') {
      if (params.length > 0) {
        this.expect(',');
        if (this.k() === end) break;
      }
      if (this.k() === '*') {
        const pos = this.nextToken();
        if (this.k() === 'IDENT') params.push({ kind: 'star', pos, name: this.parseIdent() });
        else params.push({ kind: 'star', pos });
        continue;
      }
      if (this.k() === '**') {
        const pos = this.nextToken();
        params.push({ kind: 'starstar', pos, name: this.parseIdent() });
        continue;
      }
      const name = this.parseIdent();
      if (this.k() === '=') {
        this.nextToken();
        params.push({ kind: 'optional', name, default: this.parseTest() });
      } else {
        params.push({ kind: 'required', name });
      }
    }
    return params;
  }

  /** An expression, or an unparenthesized tuple of them. */
  parseExpr(inParens: boolean): Expr {
    const x = this.parseTest();
    if (this.k() !== ',') return x;
    return this.parseExprs([x], inParens);
  }

  private parseExprs(elems: Expr[], allowTrailingComma: boolean): Expr {
    const pos = elems[0]!.pos;
    while (this.k() === ',') {
      const commaPos = this.nextToken();
      if (terminatesExprList(this.k())) {
        if (!allowTrailingComma) this.error('unparenthesized tuple with trailing comma', commaPos);
        break;
      }
      elems.push(this.parseTest());
    }
    return { kind: 'Tuple', pos, elems, parens: false };
  }

  private parseTest(): Expr {
    if (this.k() === 'lambda') return this.parseLambda(true);
    const x = this.parseTestPrec(0);
    if (this.k() === 'if') {
      this.nextToken();
      const cond = this.parseTestPrec(0);
      if (this.k() !== 'else') this.error('conditional expression without else clause');
      this.nextToken();
      const f = this.parseTest();
      return { kind: 'Cond', pos: x.pos, cond, t: x, f };
    }
    return x;
  }

  private parseTestNoCond(): Expr {
    if (this.k() === 'lambda') return this.parseLambda(false);
    return this.parseTestPrec(0);
  }

  private parseLambda(allowCond: boolean): Expr {
    const pos = this.nextToken();
    const params = this.parseParams(':');
    this.expect(':');
    const body = allowCond ? this.parseTest() : this.parseTestNoCond();
    return { kind: 'Lambda', pos, params, body };
  }

  private parseTestPrec(prec: number): Expr {
    if (prec >= MAX_PREC) return this.parsePrimaryWithSuffix();
    if (this.k() === 'not' && prec === NOT_PREC) {
      const pos = this.nextToken();
      const x = this.parseTestPrec(prec);
      return { kind: 'Unary', pos, op: 'not', x };
    }
    return this.parseBinopExpr(prec);
  }

  private parseBinopExpr(prec: number): Expr {
    let x = this.parseTestPrec(prec + 1);
    for (let first = true; ; first = false) {
      let op: string = this.k();
      if (op === 'not') {
        const pos = this.tok.pos;
        this.nextToken();
        if (this.k() !== 'in') this.error(`got ${describeToken(this.k())}, want in`);
        this.tok = { kind: 'not in', pos };
        op = 'not in';
      }
      const opPrec = PRECEDENCE[op] ?? -1;
      if (opPrec < prec) return x;
      if (!first && opPrec === CMP_PREC) {
        this.error(`${(x as { op: string }).op} does not associate with ${op}`);
      }
      const opPos = this.nextToken();
      const y = this.parseTestPrec(opPrec + 1);
      x = { kind: 'Binary', pos: x.pos, opPos, op, x, y };
    }
  }

  private parsePrimaryWithSuffix(): Expr {
    let x = this.parsePrimary();
    for (;;) {
      switch (this.k()) {
        case '.': {
          this.nextToken();
          const namePos = this.tok.pos;
          const id = this.parseIdent();
          x = { kind: 'Dot', pos: x.pos, namePos, x, name: id.name };
          break;
        }
        case '[':
          x = this.parseSliceSuffix(x);
          break;
        case '(': {
          const lparen = this.nextToken();
          const args = this.parseArgs();
          this.expect(')');
          x = { kind: 'Call', pos: x.pos, lparen, fn: x, args };
          break;
        }
        default:
          return x;
      }
    }
  }

  private parseSliceSuffix(x: Expr): Expr {
    const lbrack = this.nextToken();
    let lo: Expr | undefined;
    if (this.k() !== ':') {
      lo = this.parseExpr(false);
      if (this.k() === ']') {
        this.nextToken();
        return { kind: 'Index', pos: x.pos, lbrack, x, index: lo };
      }
    }
    let hi: Expr | undefined;
    let step: Expr | undefined;
    if (this.k() !== ']') {
      this.expect(':');
      if (this.k() !== ':' && this.k() !== ']') hi = this.parseTest();
    }
    if (this.k() !== ']') {
      this.expect(':');
      if (this.k() !== ']') step = this.parseTest();
    }
    this.expect(']');
    return { kind: 'Slice', pos: x.pos, lbrack, x, ...(lo && { lo }), ...(hi && { hi }), ...(step && { step }) };
  }

  private parseArgs(): Arg[] {
    const args: Arg[] = [];
    while (this.k() !== ')' && this.k() !== 'EOF') {
      if (args.length > 0) {
        this.expect(',');
        if (this.k() === ')') break;
      }
      if (this.k() === '*') {
        const pos = this.nextToken();
        args.push({ kind: 'star', pos, x: this.parseTest() });
        continue;
      }
      if (this.k() === '**') {
        const pos = this.nextToken();
        args.push({ kind: 'starstar', pos, x: this.parseTest() });
        continue;
      }
      const x = this.parseTest();
      if (this.k() === '=') {
        if (x.kind !== 'Ident') this.error('keyword argument must have form name=expr');
        this.nextToken();
        args.push({ kind: 'named', name: x, x: this.parseTest() });
        continue;
      }
      args.push({ kind: 'positional', x });
    }
    return args;
  }

  private parsePrimary(): Expr {
    const t = this.tok;
    const pos = t.pos;
    switch (t.kind) {
      case 'IDENT':
        return this.parseIdent();
      case 'INT':
      case 'FLOAT':
      case 'STRING':
      case 'BYTES':
        this.nextToken();
        return { kind: 'Literal', pos, value: t.value as Int | number | string, literal: t.kind, raw: t.raw ?? '' };
      case '[': {
        this.nextToken();
        if (this.k() === ']') {
          this.nextToken();
          return { kind: 'List', pos, elems: [] };
        }
        const x = this.parseTest();
        if (this.k() === 'for') return this.parseComprehensionSuffix(pos, false, x, ']');
        const elems = [x];
        while (this.k() === ',') {
          this.nextToken();
          if (this.k() === ']') break;
          elems.push(this.parseTest());
        }
        this.expect(']');
        return { kind: 'List', pos, elems };
      }
      case '{': {
        this.nextToken();
        if (this.k() === '}') {
          this.nextToken();
          return { kind: 'Dict', pos, entries: [] };
        }
        const e = this.parseDictEntry();
        if (this.k() === 'for') return this.parseComprehensionSuffix(pos, true, e, '}');
        const entries = [e];
        while (this.k() === ',') {
          this.nextToken();
          if (this.k() === '}') break;
          entries.push(this.parseDictEntry());
        }
        this.expect('}');
        return { kind: 'Dict', pos, entries };
      }
      case '(': {
        this.nextToken();
        if (this.k() === ')') {
          this.nextToken();
          return { kind: 'Tuple', pos, elems: [], parens: true };
        }
        const x = this.parseExpr(true);
        this.expect(')');
        if (x.kind === 'Tuple' && !x.parens) return { ...x, pos, parens: true };
        return { kind: 'Paren', pos, x };
      }
      case '-':
      case '+':
      case '~': {
        this.nextToken();
        const x = this.parsePrimaryWithSuffix();
        return { kind: 'Unary', pos, op: t.kind, x };
      }
    }
    this.error(`got ${describeToken(t.kind)}, want primary expression`);
  }

  private parseDictEntry(): DictEntry {
    const key = this.parseTest();
    this.expect(':');
    const value = this.parseTest();
    return { pos: key.pos, key, value };
  }

  private parseComprehensionSuffix(pos: Position, curly: boolean, body: Expr | DictEntry, end: string): Expr {
    const clauses: Clause[] = [];
    for (;;) {
      if (this.k() === 'for') {
        const fpos = this.nextToken();
        const vars = this.parseForLoopVariables();
        this.expect('in');
        const x = this.parseTestPrec(0);
        clauses.push({ kind: 'For', pos: fpos, vars, x });
      } else if (this.k() === 'if') {
        const ipos = this.nextToken();
        clauses.push({ kind: 'If', pos: ipos, cond: this.parseTestNoCond() });
      } else if (this.k() === end) {
        this.nextToken();
        return { kind: 'Comprehension', pos, curly, body, clauses };
      } else {
        this.error(`got ${describeToken(this.k())}, want '${end}', for, or if`);
      }
    }
  }
}
