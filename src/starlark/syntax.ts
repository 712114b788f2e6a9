/**
 * The syntax tree the parser produces and the resolver annotates. Expressions and statements
 * are discriminated unions on `kind`; every node has the position of its first token (for
 * binary operators and calls, `opPos` is where errors are reported, as starlark-go does).
 */
import type { Position } from './errors.js';
import type { Int } from './int.js';

/** How the resolver bound an identifier. */
export type Binding =
  | { scope: 'local'; index: number }
  /** a local captured by a nested function: its slot holds a Cell */
  | { scope: 'cell'; index: number }
  /** a captured variable of an enclosing function: index into the closure's free cells */
  | { scope: 'free'; index: number }
  | { scope: 'global'; index: number }
  | { scope: 'predeclared'; name: string }
  | { scope: 'universal'; name: string };

export interface Ident {
  kind: 'Ident';
  pos: Position;
  name: string;
  binding?: Binding;
}

export type Expr =
  | Ident
  | { kind: 'Literal'; pos: Position; value: Int | number | string; literal: 'INT' | 'FLOAT' | 'STRING' | 'BYTES'; raw: string }
  | { kind: 'List'; pos: Position; elems: Expr[] }
  | { kind: 'Tuple'; pos: Position; elems: Expr[]; parens: boolean }
  | { kind: 'Dict'; pos: Position; entries: DictEntry[] }
  | Comprehension
  | { kind: 'Unary'; pos: Position; op: string; x: Expr }
  | { kind: 'Binary'; pos: Position; opPos: Position; op: string; x: Expr; y: Expr }
  | { kind: 'Cond'; pos: Position; cond: Expr; t: Expr; f: Expr }
  | { kind: 'Dot'; pos: Position; namePos: Position; x: Expr; name: string }
  | { kind: 'Index'; pos: Position; lbrack: Position; x: Expr; index: Expr }
  | { kind: 'Slice'; pos: Position; lbrack: Position; x: Expr; lo?: Expr; hi?: Expr; step?: Expr }
  | Call
  | Lambda
  | { kind: 'Paren'; pos: Position; x: Expr };

export interface DictEntry {
  pos: Position;
  key: Expr;
  value: Expr;
}

export type Clause = { kind: 'For'; pos: Position; vars: Expr; x: Expr } | { kind: 'If'; pos: Position; cond: Expr };

interface Comprehension {
  kind: 'Comprehension';
  pos: Position;
  /** true for a dict comprehension, whose body is a DictEntry */
  curly: boolean;
  body: Expr | DictEntry;
  clauses: Clause[];
}

export type Arg =
  | { kind: 'positional'; x: Expr }
  | { kind: 'named'; name: Ident; x: Expr }
  | { kind: 'star'; pos: Position; x: Expr }
  | { kind: 'starstar'; pos: Position; x: Expr };

interface Call {
  kind: 'Call';
  pos: Position;
  lparen: Position;
  fn: Expr;
  args: Arg[];
}

export type Param =
  | { kind: 'required'; name: Ident }
  | { kind: 'optional'; name: Ident; default: Expr }
  /** `*args`, or a bare `*` (name undefined) */
  | { kind: 'star'; pos: Position; name?: Ident }
  | { kind: 'starstar'; pos: Position; name: Ident };

/** What the resolver learns about a function (or the module's top level). */
export interface FunctionInfo {
  name: string;
  pos: Position;
  params: Param[];
  body: Stmt[];
  /** number of local slots (parameters first) */
  numLocals: number;
  /** local slots that hold cells because nested functions capture them */
  cellIndexes: number[];
  /** for a nested function: how to find, in the enclosing function's frame, each free variable */
  freevars: Binding[];
  numParams: number;
  numKwonly: number;
  hasVarargs: boolean;
  hasKwargs: boolean;
  /** the names of the parameters, in slot order */
  paramNames: string[];
}

interface Lambda {
  kind: 'Lambda';
  pos: Position;
  params: Param[];
  body: Expr;
  fn?: FunctionInfo;
}

export type Stmt =
  | { kind: 'Assign'; pos: Position; opPos: Position; op: string; lhs: Expr; rhs: Expr }
  | { kind: 'ExprStmt'; pos: Position; x: Expr }
  | { kind: 'If'; pos: Position; cond: Expr; then: Stmt[]; else: Stmt[] }
  | { kind: 'For'; pos: Position; vars: Expr; x: Expr; body: Stmt[] }
  | { kind: 'While'; pos: Position; cond: Expr; body: Stmt[] }
  | Def
  | { kind: 'Return'; pos: Position; result?: Expr }
  | { kind: 'Branch'; pos: Position; token: 'break' | 'continue' | 'pass' }
  | Load;

interface Def {
  kind: 'Def';
  pos: Position;
  name: Ident;
  params: Param[];
  body: Stmt[];
  fn?: FunctionInfo;
}

interface Load {
  kind: 'Load';
  pos: Position;
  module: string;
  modulePos: Position;
  /** the names in the loaded module */
  from: Ident[];
  /** the names bound here */
  to: Ident[];
  rparen: Position;
}

export interface FileSyntax {
  path: string;
  stmts: Stmt[];
  /** set by the resolver: the module's top level as a function */
  toplevel?: FunctionInfo;
  /** set by the resolver: the module's global names, in slot order */
  globals?: Ident[];
}
