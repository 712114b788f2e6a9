/**
 * Static name resolution: binds every identifier to a local slot, a cell, a free variable of a
 * closure, a module global, a predeclared name or a universal builtin, and reports the static
 * errors of the specification (undefined names, rebinding globals, misplaced statements,
 * malformed parameter and argument lists) — all of them, not just the first.
 */
import { StarlarkResolveError, formatPosition, type Position } from './errors.js';
import type { Arg, Binding, Clause, Expr, FileSyntax, FunctionInfo, Ident, Param, Stmt } from './syntax.js';
import { nearestName } from './spell.js';

/** Non-standard dialect features, off unless asked for (as in starlark-go). */
export interface DialectOptions {
  set?: boolean;
  while?: boolean;
  topLevelControl?: boolean;
  globalReassign?: boolean;
  recursion?: boolean;
  loadBindsGlobally?: boolean;
}

interface Slot {
  binding: Binding & { scope: 'local' | 'cell' };
  pos: Position;
}

interface Block {
  names: Map<string, Slot>;
  parent?: Block;
  fn: FnScope;
}

interface FnScope {
  info: FunctionInfo;
  parent?: FnScope;
  /** the block the function was defined in */
  outer?: Block;
  slots: Slot[];
  /** free variable name to its index in info.freevars */
  free: Map<string, number>;
  loopDepth: number;
}

interface GlobalEntry {
  index: number;
  pos: Position;
}

interface Deferred {
  scope: FnScope;
  root: Block;
  body: () => void;
}

export function resolveFile(
  file: FileSyntax,
  isPredeclared: (name: string) => boolean,
  isUniversal: (name: string) => boolean,
  options: DialectOptions = {},
): void {
  new Resolver(file, isPredeclared, isUniversal, options).run();
}

function newInfo(name: string, pos: Position, params: Param[], body: FunctionInfo['body']): FunctionInfo {
  return {
    name, pos, params, body, numLocals: 0, cellIndexes: [], freevars: [], numParams: 0, numKwonly: 0,
    hasVarargs: false, hasKwargs: false, paramNames: [],
  };
}

class Resolver {
  private readonly errors: { pos: Position; msg: string }[] = [];
  private readonly globals = new Map<string, GlobalEntry>();
  private readonly globalIdents: Ident[] = [];
  private readonly deferred: Deferred[] = [];
  private block!: Block;
  /** nesting of if/for/while at the current point of the top level (for load's errors) */
  private conditionalDepth = 0;
  private loopDepthTop = 0;

  constructor(
    private readonly file: FileSyntax,
    private readonly isPredeclared: (name: string) => boolean,
    private readonly isUniversal: (name: string) => boolean,
    private readonly options: DialectOptions,
  ) {}

  private error(pos: Position, msg: string): void {
    this.errors.push({ pos, msg });
  }

  run(): void {
    const info = newInfo('<toplevel>', { file: this.file.path, line: 1, col: 1 }, [], this.file.stmts);
    const scope: FnScope = { info, slots: [], free: new Map(), loopDepth: 0 };
    this.block = { names: new Map(), fn: scope };
    if (!this.options.globalReassign) this.prescanTopLevel(this.file.stmts);
    this.stmts(this.file.stmts);
    for (let i = 0; i < this.deferred.length; i++) {
      const d = this.deferred[i]!;
      this.block = d.root;
      d.body();
    }
    // only now: nested functions resolved later may have turned their parents' locals into cells
    for (const d of this.deferred) this.finishFunction(d.scope);
    this.finishFunction(scope);
    this.file.toplevel = info;
    this.file.globals = this.globalIdents;
    this.errors.sort((a, b) => a.pos.line - b.pos.line || a.pos.col - b.pos.col);
    if (this.errors.length) throw new StarlarkResolveError(this.errors);
  }

  private finishFunction(scope: FnScope): void {
    scope.info.numLocals = scope.slots.length;
    scope.info.cellIndexes = scope.slots.filter((s) => s.binding.scope === 'cell').map((s) => s.binding.index);
  }

  // ------------------------------------------------------------ binding

  private atTopLevel(): boolean {
    return this.block.fn.parent === undefined && this.block.parent === undefined;
  }

  private newLocal(block: Block, id: Ident): Slot {
    const fn = block.fn;
    const slot: Slot = { binding: { scope: 'local', index: fn.slots.length }, pos: id.pos };
    fn.slots.push(slot);
    block.names.set(id.name, slot);
    return slot;
  }

  /** Top level, before resolving (unless globals may be rebound): every name bound there. */
  private prescanTopLevel(stmts: Stmt[]): void {
    for (const s of stmts) {
      switch (s.kind) {
        case 'Assign':
          this.boundNames(s.lhs, (id) => this.declareGlobal(id));
          break;
        case 'Def':
          this.declareGlobal(s.name);
          break;
        case 'For':
          this.boundNames(s.vars, (id) => this.declareGlobal(id));
          this.prescanTopLevel(s.body);
          break;
        case 'If':
          this.prescanTopLevel(s.then);
          this.prescanTopLevel(s.else);
          break;
        case 'While':
          this.prescanTopLevel(s.body);
          break;
        case 'Load':
          for (const id of s.to) this.declareLoaded(id);
          break;
      }
    }
  }

  private declareLoaded(id: Ident): void {
    if (this.options.loadBindsGlobally) {
      this.declareGlobal(id);
      return;
    }
    const prev = this.block.names.get(id.name);
    if (prev) {
      if (!this.options.globalReassign) this.error(id.pos, `cannot reassign top-level ${id.name} declared at ${formatPosition(prev.pos)}`);
      id.binding = prev.binding;
      return;
    }
    const g = this.globals.get(id.name);
    if (g && !this.options.globalReassign) this.error(id.pos, `cannot reassign global ${id.name} declared at ${formatPosition(g.pos)}`);
    id.binding = this.newLocal(this.block, id).binding;
  }

  private declareGlobal(id: Ident): void {
    const local = this.block.names.get(id.name);
    if (local) {
      if (!this.options.globalReassign) {
        this.error(id.pos, `cannot reassign local ${id.name} declared at ${formatPosition(local.pos)}`);
        return;
      }
      id.binding = local.binding;
      return;
    }
    const g = this.globals.get(id.name);
    if (g) {
      if (!this.options.globalReassign) this.error(id.pos, `cannot reassign global ${id.name} declared at ${formatPosition(g.pos)}`);
      id.binding = { scope: 'global', index: g.index };
      return;
    }
    const index = this.globalIdents.length;
    this.globals.set(id.name, { index, pos: id.pos });
    this.globalIdents.push(id);
    id.binding = { scope: 'global', index };
  }

  /** Calls `f` on every identifier an assignment target binds. */
  private boundNames(x: Expr, f: (id: Ident) => void): void {
    switch (x.kind) {
      case 'Ident': f(x); break;
      case 'Tuple': case 'List': for (const e of x.elems) this.boundNames(e, f); break;
      case 'Paren': this.boundNames(x.x, f); break;
    }
  }

  /** A binding occurrence of `id` in the current block (after any prescan). */
  private bind(id: Ident): void {
    if (this.atTopLevel()) {
      if (this.options.globalReassign) {
        const local = this.block.names.get(id.name);
        if (local) {
          id.binding = local.binding;
          return;
        }
        const g = this.globals.get(id.name);
        if (g) id.binding = { scope: 'global', index: g.index };
        else this.declareGlobal(id);
        return;
      }
      const g = this.globals.get(id.name);
      // the prescan declared it (or reported it)
      if (g) id.binding = { scope: 'global', index: g.index };
      else id.binding = this.block.names.get(id.name)?.binding;
      return;
    }
    id.binding = this.lookupLocalChain(id.name)?.binding;
  }

  /** A name in the current function's blocks. */
  private lookupLocalChain(name: string): Slot | undefined {
    const fn = this.block.fn;
    for (let b: Block | undefined = this.block; b && b.fn === fn; b = b.parent) {
      const s = b.names.get(name);
      if (s) return s;
    }
    return undefined;
  }

  /** A use of `id`. */
  private use(id: Ident): void {
    const b = this.lookup(id.name, this.block);
    if (b) {
      id.binding = b;
      return;
    }
    const hint = nearestName(id.name, this.candidates());
    this.error(id.pos, hint ? `undefined: ${id.name} (did you mean ${hint}?)` : `undefined: ${id.name}`);
  }

  private lookup(name: string, start: Block): Binding | undefined {
    const fn = start.fn;
    for (let b: Block | undefined = start; b && b.fn === fn; b = b.parent) {
      const s = b.names.get(name);
      if (s) return s.binding;
    }
    if (fn.outer) {
      const fi = fn.free.get(name);
      if (fi !== undefined) return { scope: 'free', index: fi };
      const outer = this.lookup(name, fn.outer);
      if (outer && (outer.scope === 'local' || outer.scope === 'cell' || outer.scope === 'free')) {
        if (outer.scope === 'local') (outer as { scope: string }).scope = 'cell';
        const index = fn.info.freevars.length;
        fn.info.freevars.push(outer.scope === 'free' ? outer : fn.outer.fn.slots[outer.index]!.binding);
        fn.free.set(name, index);
        return { scope: 'free', index };
      }
      if (outer) return outer;
      return undefined;
    }
    const g = this.globals.get(name);
    if (g) return { scope: 'global', index: g.index };
    if (this.isPredeclared(name)) return { scope: 'predeclared', name };
    if (this.isUniversal(name) && (name !== 'set' || this.options.set)) return { scope: 'universal', name };
    return undefined;
  }

  private candidates(): string[] {
    const names: string[] = [...this.globals.keys()];
    for (let b: Block | undefined = this.block; b; b = b.parent ?? b.fn.outer) names.push(...b.names.keys());
    return names;
  }

  // ------------------------------------------------------------ statements

  private stmts(stmts: Stmt[]): void {
    for (const s of stmts) this.stmt(s);
  }

  private stmt(s: Stmt): void {
    const fn = this.block.fn;
    const inFunction = fn.parent !== undefined;
    switch (s.kind) {
      case 'ExprStmt':
        this.expr(s.x);
        return;
      case 'Assign':
        this.assign(s.lhs, s.op !== '=');
        this.expr(s.rhs);
        this.bindTarget(s.lhs);
        return;
      case 'Branch':
        if (s.token !== 'pass' && this.loopDepth() === 0) this.error(s.pos, `${s.token} not in a loop`);
        return;
      case 'Return':
        if (!inFunction) this.error(s.pos, 'return statement not within a function');
        if (s.result) this.expr(s.result);
        return;
      case 'If':
        if (!inFunction && !this.options.topLevelControl && !this.options.globalReassign) this.error(s.pos, 'if statement not within a function');
        this.expr(s.cond);
        this.conditionalDepth++;
        this.stmts(s.then);
        this.stmts(s.else);
        this.conditionalDepth--;
        return;
      case 'For':
        if (!inFunction && !this.options.topLevelControl && !this.options.globalReassign) this.error(s.pos, 'for loop not within a function');
        this.expr(s.x);
        this.assign(s.vars, false);
        this.bindTarget(s.vars);
        this.loop(() => this.stmts(s.body));
        return;
      case 'While':
        if (!this.options.while) this.error(s.pos, 'dialect does not support while loops');
        if (!inFunction && !this.options.topLevelControl) this.error(s.pos, 'while loop not within a function');
        this.expr(s.cond);
        this.loop(() => this.stmts(s.body));
        return;
      case 'Def': {
        this.bind(s.name);
        s.fn = this.function(s.name.name, s.pos, s.params, s.body, () => this.stmts(s.body));
        return;
      }
      case 'Load':
        this.load(s);
        return;
    }
  }

  private loopDepth(): number {
    return this.block.fn.parent ? this.block.fn.loopDepth : this.loopDepthTop;
  }

  private loop(body: () => void): void {
    const fn = this.block.fn;
    if (fn.parent) fn.loopDepth++;
    else this.loopDepthTop++;
    this.conditionalDepth++;
    body();
    this.conditionalDepth--;
    if (fn.parent) fn.loopDepth--;
    else this.loopDepthTop--;
  }

  private load(s: Stmt & { kind: 'Load' }): void {
    if (this.block.fn.parent) {
      this.error(s.pos, 'load statement within a function');
    } else if (this.loopDepthTop > 0) {
      this.error(s.pos, 'load statement within a loop');
    } else if (this.conditionalDepth > 0) {
      this.error(s.pos, 'load statement within a conditional');
    }
    for (let i = 0; i < s.from.length; i++) {
      const from = s.from[i]!;
      if (from.name === '') this.error(from.pos, 'load: empty identifier');
      else if (from.name.startsWith('_')) this.error(from.pos, `load: names with leading underscores are not exported: ${from.name}`);
      const to = s.to[i]!;
      if (this.block.fn.parent) continue;
      if (this.options.globalReassign) this.declareLoadedSequential(to);
      else if (!to.binding) to.binding = this.block.names.get(to.name)?.binding ?? this.lookup(to.name, this.block);
    }
  }

  private declareLoadedSequential(id: Ident): void {
    if (this.options.loadBindsGlobally) {
      this.bind(id);
      return;
    }
    const prev = this.block.names.get(id.name);
    id.binding = prev ? prev.binding : this.newLocal(this.block, id).binding;
  }

  /** Checks that an assignment target is assignable, and resolves the non-binding parts. */
  private assign(lhs: Expr, augmented: boolean): void {
    switch (lhs.kind) {
      case 'Ident':
        return;
      case 'Index':
        this.expr(lhs.x);
        this.expr(lhs.index);
        return;
      case 'Dot':
        this.expr(lhs.x);
        return;
      case 'Paren':
        this.assign(lhs.x, augmented);
        return;
      case 'Tuple':
      case 'List':
        if (augmented) {
          this.error(lhs.pos, `can't use ${lhs.kind === 'List' ? 'list' : 'tuple'} expression in augmented assignment`);
          return;
        }
        for (const e of lhs.elems) this.assign(e, false);
        return;
    }
    const what = lhs.kind === 'Literal' ? 'literal' : `${lhs.kind.toLowerCase()}expr`;
    this.error(lhs.pos, `can't assign to ${what}`);
  }

  private bindTarget(lhs: Expr): void {
    this.boundNames(lhs, (id) => this.bind(id));
  }

  // ------------------------------------------------------------ functions

  private function(name: string, pos: Position, params: Param[], body: Stmt[], resolveBody: () => void): FunctionInfo {
    for (const p of params) if (p.kind === 'optional') this.expr(p.default);
    const info = newInfo(name, pos, params, body);
    const scope: FnScope = { info, parent: this.block.fn, outer: this.block, slots: [], free: new Map(), loopDepth: 0 };
    const root: Block = { names: new Map(), fn: scope };
    this.bindParams(root, info, params);
    // all names bound in the body are locals of the whole function
    const prescan = (stmts: Stmt[]): void => {
      for (const s of stmts) {
        switch (s.kind) {
          case 'Assign': this.boundNames(s.lhs, (id) => this.localOnce(root, id)); break;
          case 'Def': this.localOnce(root, s.name); break;
          case 'For': this.boundNames(s.vars, (id) => this.localOnce(root, id)); prescan(s.body); break;
          case 'While': prescan(s.body); break;
          case 'If': prescan(s.then); prescan(s.else); break;
        }
      }
    };
    prescan(body);
    this.deferred.push({ scope, root, body: resolveBody });
    return info;
  }

  private localOnce(root: Block, id: Ident): void {
    if (!root.names.has(id.name)) this.newLocal(root, id);
  }

  private bindParams(root: Block, info: FunctionInfo, params: Param[]): void {
    let seenOptional = false;
    let star: (Param & { kind: 'star' }) | undefined;
    let starStar: Ident | undefined;
    let numKwonly = 0;
    const bindParam = (id: Ident, pos: Position = id.pos): void => {
      if (root.names.has(id.name)) this.error(pos, `duplicate parameter: ${id.name}`);
      else this.newLocal(root, id);
      id.binding = root.names.get(id.name)!.binding;
    };
    for (const p of params) {
      switch (p.kind) {
        case 'required':
          if (starStar) this.error(p.name.pos, `required parameter may not follow **${starStar.name}`);
          else if (star) numKwonly++;
          else if (seenOptional) this.error(p.name.pos, 'required parameter may not follow optional');
          bindParam(p.name);
          info.paramNames.push(p.name.name);
          break;
        case 'optional':
          if (starStar) this.error(p.name.pos, `optional parameter may not follow **${starStar.name}`);
          else if (star) numKwonly++;
          bindParam(p.name);
          info.paramNames.push(p.name.name);
          seenOptional = true;
          break;
        case 'star':
          if (starStar) this.error(p.pos, `* parameter may not follow **${starStar.name}`);
          else if (star) this.error(p.pos, 'multiple * parameters not allowed');
          else star = p;
          break;
        case 'starstar':
          if (starStar) this.error(p.pos, 'multiple ** parameters not allowed');
          starStar = p.name;
          break;
      }
    }
    info.numParams = info.paramNames.length;
    if (star) {
      if (star.name) {
        bindParam(star.name);
        info.paramNames.push(star.name.name);
        info.hasVarargs = true;
      } else if (numKwonly === 0) {
        this.error(star.pos, 'bare * must be followed by keyword-only parameters');
      }
    }
    if (starStar) {
      bindParam(starStar);
      info.paramNames.push(starStar.name);
      info.hasKwargs = true;
    }
    info.numKwonly = numKwonly;
  }

  // ------------------------------------------------------------ expressions

  private expr(x: Expr): void {
    switch (x.kind) {
      case 'Ident':
        this.use(x);
        return;
      case 'Literal':
        return;
      case 'List':
      case 'Tuple':
        for (const e of x.elems) this.expr(e);
        return;
      case 'Dict':
        for (const e of x.entries) {
          this.expr(e.key);
          this.expr(e.value);
        }
        return;
      case 'Unary':
        this.expr(x.x);
        return;
      case 'Binary':
        this.expr(x.x);
        this.expr(x.y);
        return;
      case 'Cond':
        this.expr(x.cond);
        this.expr(x.t);
        this.expr(x.f);
        return;
      case 'Dot':
        this.expr(x.x);
        return;
      case 'Index':
        this.expr(x.x);
        this.expr(x.index);
        return;
      case 'Slice':
        this.expr(x.x);
        if (x.lo) this.expr(x.lo);
        if (x.hi) this.expr(x.hi);
        if (x.step) this.expr(x.step);
        return;
      case 'Paren':
        this.expr(x.x);
        return;
      case 'Call':
        this.expr(x.fn);
        this.args(x.args);
        return;
      case 'Lambda':
        x.fn = this.function('lambda', x.pos, x.params, [], () => this.expr(x.body));
        return;
      case 'Comprehension':
        this.comprehension(x.clauses, x.body);
        return;
    }
  }

  private comprehension(clauses: Clause[], body: Expr | { key: Expr; value: Expr }): void {
    // the first iterable is evaluated in the enclosing block
    const first = clauses[0] as Clause & { kind: 'For' };
    this.expr(first.x);
    const saved = this.block;
    this.block = { names: new Map(), parent: saved, fn: saved.fn };
    for (let i = 0; i < clauses.length; i++) {
      const c = clauses[i]!;
      if (c.kind === 'For') {
        // one block for all clauses: a later clause's iterable already sees its own variables
        this.assign(c.vars, false);
        this.boundNames(c.vars, (id) => {
          const slot = this.block.names.get(id.name) ?? this.newLocal(this.block, id);
          id.binding = slot.binding;
        });
        if (i > 0) this.expr(c.x);
      } else {
        this.expr(c.cond);
      }
    }
    if ('key' in body) {
      this.expr(body.key);
      this.expr(body.value);
    } else {
      this.expr(body);
    }
    this.block = saved;
  }

  private args(args: Arg[]): void {
    let seenVarargs = false;
    let seenKwargs = false;
    const seenName = new Set<string>();
    for (const a of args) {
      switch (a.kind) {
        case 'starstar':
          if (seenKwargs) this.error(a.pos, 'multiple **kwargs not allowed');
          seenKwargs = true;
          this.expr(a.x);
          break;
        case 'star':
          if (seenKwargs) this.error(a.pos, '*args may not follow **kwargs');
          else if (seenVarargs) this.error(a.pos, 'multiple *args not allowed');
          seenVarargs = true;
          this.expr(a.x);
          break;
        case 'named':
          if (seenKwargs) this.error(a.name.pos, 'keyword argument may not follow **kwargs');
          else if (seenVarargs) this.error(a.name.pos, 'keyword argument may not follow *args');
          if (seenName.has(a.name.name)) this.error(a.name.pos, `keyword argument "${a.name.name}" is repeated`);
          seenName.add(a.name.name);
          this.expr(a.x);
          break;
        case 'positional':
          if (seenVarargs) this.error(a.x.pos, 'positional argument may not follow *args');
          else if (seenKwargs) this.error(a.x.pos, 'positional argument may not follow **kwargs');
          else if (seenName.size > 0) this.error(a.x.pos, 'positional argument may not follow named');
          this.expr(a.x);
          break;
      }
    }
  }
}
