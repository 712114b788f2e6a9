/**
 * The evaluator: compiles a resolved syntax tree into JS closures (one per node), which the
 * thread then runs. Closures read locals from an array by slot, so a name costs an index.
 */
import type { Position } from './errors.js';
import { Builtin, Callable, Cell, LimitFail, StarlarkFunction, type CompiledBody, type Frame, type ModuleState } from './function.js';
import { binary, index, setIndex, slice, unary } from './ops.js';
import { getAttr, setAttr } from './attrs.js';
import type { Arg, Binding, Clause, DictEntry, Expr, FunctionInfo, Stmt } from './syntax.js';
import { Bytes, Dict, Fail, Float, HashTable, List, Tuple, iterate, truth, typeOf, type Value } from './value.js';
import { str } from './format.js';
import { nearestName } from './spell.js';

type ExprFn = (fr: Frame) => Value;
/** 0: next statement; 1: break; 2: continue; 3: return */
type StmtFn = (fr: Frame) => number;

interface CompileEnv {
  module: ModuleState;
  predeclared: (name: string) => Value;
  universal: (name: string) => Value;
  /** loads a module for a `load` statement */
  load: (module: string, pos: Position) => ReadonlyMap<string, Value>;
}

function fail(fr: Frame, pos: Position, msg: string): never {
  fr.pos = pos;
  throw new Fail(msg);
}

export class Compiler {
  constructor(private readonly env: CompileEnv) {}

  /** The body of a function (or the top level) as a runnable closure. */
  function(info: FunctionInfo, isLambda: Expr | undefined): CompiledBody {
    if (isLambda) {
      const e = this.expr(isLambda);
      return (fr) => e(fr);
    }
    const body = this.block(info.body);
    return (fr) => {
      fr.ret = null;
      body(fr);
      return fr.ret;
    };
  }

  block(stmts: Stmt[]): StmtFn {
    const fns = stmts.map((s) => this.stmt(s));
    if (fns.length === 1) return fns[0]!;
    return (fr) => {
      for (let i = 0; i < fns.length; i++) {
        const r = fns[i]!(fr);
        if (r !== 0) return r;
      }
      return 0;
    };
  }

  private stmt(s: Stmt): StmtFn {
    switch (s.kind) {
      case 'ExprStmt': {
        const x = this.expr(s.x);
        return (fr) => {
          x(fr);
          return 0;
        };
      }
      case 'Assign':
        return s.op === '=' ? this.assign(s.lhs, s.rhs) : this.augAssign(s.lhs, s.op.slice(0, -1), s.rhs, s.opPos);
      case 'Branch':
        return s.token === 'break' ? () => 1 : s.token === 'continue' ? () => 2 : () => 0;
      case 'Return': {
        const x = s.result ? this.expr(s.result) : () => null;
        return (fr) => {
          fr.ret = x(fr);
          return 3;
        };
      }
      case 'If': {
        const cond = this.expr(s.cond);
        const then = this.block(s.then);
        const els = this.block(s.else);
        return (fr) => (truth(cond(fr)) ? then(fr) : els(fr));
      }
      case 'For':
        return this.forLoop(s.vars, s.x, this.block(s.body), s.pos);
      case 'While': {
        const cond = this.expr(s.cond);
        const body = this.block(s.body);
        return (fr) => {
          const t = fr.thread;
          while (truth(cond(fr))) {
            t.tick();
            const r = body(fr);
            if (r === 1) break;
            if (r === 3) return 3;
          }
          return 0;
        };
      }
      case 'Def': {
        const make = this.makeFunction(s.fn!, undefined);
        const store = this.store(s.name);
        return (fr) => {
          store(fr, make(fr));
          return 0;
        };
      }
      case 'Load':
        return this.load(s);
    }
  }

  private load(s: Stmt & { kind: 'Load' }): StmtFn {
    const stores = s.to.map((id) => this.store(id));
    return (fr) => {
      fr.pos = s.modulePos;
      const members = this.env.load(s.module, s.pos);
      for (let i = 0; i < s.from.length; i++) {
        const name = s.from[i]!.name;
        const v = members.get(name);
        if (v === undefined) {
          const hint = nearestName(name, members.keys());
          fail(fr, s.from[i]!.pos, `load: name ${name} not found in module ${s.module}${hint ? ` (did you mean ${hint}?)` : ''}`);
        }
        stores[i]!(fr, v);
      }
      return 0;
    };
  }

  private forLoop(vars: Expr, x: Expr, body: StmtFn, pos: Position): StmtFn {
    const iter = this.expr(x);
    const store = this.target(vars);
    return (fr) => {
      const seq = iter(fr);
      const t = fr.thread;
      if (seq instanceof List) {
        const elems = seq.elems;
        seq.iterating++;
        try {
          for (let i = 0; i < elems.length; i++) {
            t.tick();
            store(fr, elems[i]!);
            const r = body(fr);
            if (r === 1) break;
            if (r === 3) return 3;
          }
        } finally {
          seq.iterating--;
        }
        return 0;
      }
      const it = iterate(seq);
      if (it === undefined) fail(fr, pos, `${typeOf(seq)} value is not iterable`);
      const guarded = seq instanceof HashTable ? seq : undefined;
      if (guarded) guarded.iterating++;
      try {
        for (const v of it) {
          t.tick();
          store(fr, v);
          const r = body(fr);
          if (r === 1) break;
          if (r === 3) return 3;
        }
      } finally {
        if (guarded) guarded.iterating--;
      }
      return 0;
    };
  }

  // ------------------------------------------------------------ assignment

  private assign(lhs: Expr, rhs: Expr): StmtFn {
    const x = this.expr(rhs);
    const store = this.target(lhs);
    return (fr) => {
      store(fr, x(fr));
      return 0;
    };
  }

  private augAssign(lhs: Expr, op: string, rhs: Expr, opPos: Position): StmtFn {
    const y = this.expr(rhs);
    const apply = (fr: Frame, old: Value, v: Value): Value => {
      fr.pos = opPos;
      if (op === '|' && old instanceof Dict && v instanceof Dict) {
        // dict |= dict updates in place
        for (const e of v.entries()) old.set(e.k, e.v);
        return old;
      }
      const iterable = op === '+' && old instanceof List ? iterate(v) : undefined;
      if (iterable !== undefined && old instanceof List) {
        if (old.frozen) throw new Fail('cannot apply += to frozen list');
        old.checkMutable('apply += to');
        const add = Array.from(iterable);
        fr.thread.checkSize(old.elems.length + add.length, 'list +=');
        for (const e of add) old.elems.push(e);
        return old;
      }
      return binary(fr.thread, op, old, v);
    };
    if (lhs.kind === 'Index') {
      const cont = this.expr(lhs.x);
      const key = this.expr(lhs.index);
      return (fr) => {
        const c = cont(fr);
        const k = key(fr);
        fr.pos = lhs.lbrack;
        const old = index(c, k);
        const nv = apply(fr, old, y(fr));
        fr.pos = lhs.lbrack;
        setIndex(c, k, nv);
        return 0;
      };
    }
    if (lhs.kind === 'Dot') {
      const obj = this.expr(lhs.x);
      return (fr) => {
        const o = obj(fr);
        fr.pos = lhs.namePos;
        const old = getAttr(o, lhs.name);
        const nv = apply(fr, old, y(fr));
        fr.pos = lhs.namePos;
        setAttr(o, lhs.name, nv);
        return 0;
      };
    }
    const read = this.expr(lhs);
    const store = this.target(lhs);
    return (fr) => {
      store(fr, apply(fr, read(fr), y(fr)));
      return 0;
    };
  }

  /** A store into an assignment target. */
  private target(lhs: Expr): (fr: Frame, v: Value) => void {
    switch (lhs.kind) {
      case 'Ident':
        return this.store(lhs);
      case 'Paren':
        return this.target(lhs.x);
      case 'Index': {
        const cont = this.expr(lhs.x);
        const key = this.expr(lhs.index);
        return (fr, v) => {
          const c = cont(fr);
          const k = key(fr);
          fr.pos = lhs.lbrack;
          setIndex(c, k, v);
        };
      }
      case 'Dot': {
        const obj = this.expr(lhs.x);
        return (fr, v) => {
          const o = obj(fr);
          fr.pos = lhs.namePos;
          setAttr(o, lhs.name, v);
        };
      }
      case 'Tuple':
      case 'List': {
        const stores = lhs.elems.map((e) => this.target(e));
        const pos = lhs.pos;
        return (fr, v) => {
          let elems: readonly Value[];
          if (v instanceof List || v instanceof Tuple) elems = v.elems;
          else {
            const it = iterate(v);
            if (it === undefined || typeof v === 'string') fail(fr, pos, `got ${typeOf(v)} in sequence assignment`);
            elems = Array.from(it);
          }
          if (elems.length > stores.length) fail(fr, pos, `too many values to unpack (got ${elems.length}, want ${stores.length})`);
          if (elems.length < stores.length) fail(fr, pos, `too few values to unpack (got ${elems.length}, want ${stores.length})`);
          for (let i = 0; i < stores.length; i++) stores[i]!(fr, elems[i]!);
        };
      }
    }
    throw new Fail(`cannot assign to ${lhs.kind}`);
  }

  private store(id: { binding?: Binding; name: string }): (fr: Frame, v: Value) => void {
    const b = id.binding!;
    switch (b.scope) {
      case 'local': {
        const i = b.index;
        return (fr, v) => {
          fr.locals[i] = v;
        };
      }
      case 'cell': {
        const i = b.index;
        return (fr, v) => {
          (fr.locals[i] as Cell).v = v;
        };
      }
      case 'free': {
        const i = b.index;
        return (fr, v) => {
          fr.free[i]!.v = v;
        };
      }
      case 'global': {
        const g = this.env.module.globals;
        const i = b.index;
        return (_fr, v) => {
          g[i] = v;
        };
      }
    }
    throw new Fail(`cannot bind ${id.name} (${b.scope})`);
  }

  // ------------------------------------------------------------ expressions

  expr(x: Expr): ExprFn {
    switch (x.kind) {
      case 'Ident':
        return this.ident(x.name, x.binding!, x.pos);
      case 'Literal': {
        const v: Value = x.literal === 'FLOAT' ? new Float(x.value as number) : x.literal === 'BYTES' ? new Bytes(x.value as string) : (x.value as Value);
        return () => v;
      }
      case 'Paren':
        return this.expr(x.x);
      case 'List': {
        const elems = x.elems.map((e) => this.expr(e));
        return (fr) => new List(elems.map((e) => e(fr)));
      }
      case 'Tuple': {
        const elems = x.elems.map((e) => this.expr(e));
        return (fr) => new Tuple(elems.map((e) => e(fr)));
      }
      case 'Dict': {
        const entries = x.entries.map((e) => [this.expr(e.key), this.expr(e.value), e.pos] as const);
        return (fr) => {
          const d = new Dict();
          for (const [k, v, pos] of entries) {
            const key = k(fr);
            const val = v(fr);
            fr.pos = pos;
            if (d.has(key)) throw new Fail(`duplicate key: ${reprForKey(key)}`);
            d.set(key, val);
          }
          return d;
        };
      }
      case 'Unary': {
        const operand = this.expr(x.x);
        if (x.op === 'not') return (fr) => !truth(operand(fr));
        const op = x.op;
        return (fr) => {
          const v = operand(fr);
          fr.pos = x.pos;
          return unary(op, v);
        };
      }
      case 'Binary':
        return this.binary(x.op, this.expr(x.x), this.expr(x.y), x.opPos);
      case 'Cond': {
        const c = this.expr(x.cond);
        const t = this.expr(x.t);
        const f = this.expr(x.f);
        return (fr) => (truth(c(fr)) ? t(fr) : f(fr));
      }
      case 'Dot': {
        const obj = this.expr(x.x);
        const name = x.name;
        return (fr) => {
          const o = obj(fr);
          fr.pos = x.namePos;
          return getAttr(o, name);
        };
      }
      case 'Index': {
        const obj = this.expr(x.x);
        const i = this.expr(x.index);
        return (fr) => {
          const o = obj(fr);
          const k = i(fr);
          fr.pos = x.lbrack;
          return index(o, k);
        };
      }
      case 'Slice': {
        const obj = this.expr(x.x);
        const lo = x.lo && this.expr(x.lo);
        const hi = x.hi && this.expr(x.hi);
        const step = x.step && this.expr(x.step);
        return (fr) => {
          const o = obj(fr);
          const a = lo?.(fr);
          const b = hi?.(fr);
          const c = step?.(fr);
          fr.pos = x.lbrack;
          return slice(o, a, b, c);
        };
      }
      case 'Call':
        return this.call(x.fn, x.args, x.lparen);
      case 'Lambda':
        return this.makeFunction(x.fn!, x.body);
      case 'Comprehension':
        return this.comprehension(x.curly, x.body, x.clauses);
    }
  }

  private ident(name: string, b: Binding, pos: Position): ExprFn {
    switch (b.scope) {
      case 'local': {
        const i = b.index;
        return (fr) => {
          const v = fr.locals[i];
          if (v === undefined) fail(fr, pos, `local variable ${name} referenced before assignment`);
          return v as Value;
        };
      }
      case 'cell': {
        const i = b.index;
        return (fr) => {
          const v = (fr.locals[i] as Cell).v;
          if (v === undefined) fail(fr, pos, `local variable ${name} referenced before assignment`);
          return v;
        };
      }
      case 'free': {
        const i = b.index;
        return (fr) => {
          const v = fr.free[i]!.v;
          if (v === undefined) fail(fr, pos, `local variable ${name} referenced before assignment`);
          return v;
        };
      }
      case 'global': {
        const g = this.env.module.globals;
        const i = b.index;
        return (fr) => {
          const v = g[i];
          if (v === undefined) fail(fr, pos, `global variable ${name} referenced before assignment`);
          return v;
        };
      }
      case 'predeclared': {
        const v = this.env.predeclared(b.name);
        return () => v;
      }
      case 'universal': {
        const v = this.env.universal(b.name);
        return () => v;
      }
    }
  }

  private binary(op: string, x: ExprFn, y: ExprFn, pos: Position): ExprFn {
    switch (op) {
      case 'and':
        return (fr) => {
          const a = x(fr);
          return truth(a) ? y(fr) : a;
        };
      case 'or':
        return (fr) => {
          const a = x(fr);
          return truth(a) ? a : y(fr);
        };
      case '==':
        return (fr) => {
          const a = x(fr);
          const b = y(fr);
          // containers are compared element-wise even with themselves (a cycle fails, as in starlark-go)
          if (a === b && typeof a !== 'object') return true;
          fr.pos = pos;
          return binary(fr.thread, op, a, b);
        };
    }
    return (fr) => {
      const a = x(fr);
      const b = y(fr);
      fr.pos = pos;
      return binary(fr.thread, op, a, b);
    };
  }

  private call(fnX: Expr, args: Arg[], lparen: Position): ExprFn {
    const positional: ExprFn[] = [];
    const named: [string, ExprFn][] = [];
    let star: ExprFn | undefined;
    let starstar: ExprFn | undefined;
    for (const a of args) {
      if (a.kind === 'positional') positional.push(this.expr(a.x));
      else if (a.kind === 'named') named.push([a.name.name, this.expr(a.x)]);
      else if (a.kind === 'star') star = this.expr(a.x);
      else starstar = this.expr(a.x);
    }
    const simple = !star && !starstar && named.length === 0;
    // method call: x.f(...) without making a bound method value
    const recvX = fnX.kind === 'Dot' ? this.expr(fnX.x) : undefined;
    const fnE = recvX ? undefined : this.expr(fnX);
    const method = fnX.kind === 'Dot' ? fnX.name : '';
    const namePos = fnX.kind === 'Dot' ? fnX.namePos : lparen;
    return (fr) => {
      let f: Value;
      if (recvX) {
        const recv = recvX(fr);
        fr.pos = namePos;
        f = getAttr(recv, method);
      } else {
        f = fnE!(fr);
      }
      const argv: Value[] = new Array(positional.length);
      for (let i = 0; i < positional.length; i++) argv[i] = positional[i]!(fr);
      let kwargs: [string, Value][] | undefined;
      if (!simple) {
        if (named.length) kwargs = named.map(([k, e]) => [k, e(fr)]);
        if (star) {
          const s = star(fr);
          const it = iterate(s);
          if (it === undefined || typeof s === 'string') fail(fr, lparen, `argument after * must be iterable, not ${typeOf(s)}`);
          for (const v of it) argv.push(v);
        }
        if (starstar) {
          const d = starstar(fr);
          if (!(d instanceof Dict)) fail(fr, lparen, `argument after ** must be a mapping, not ${typeOf(d)}`);
          kwargs ??= [];
          for (const e of d.entries()) {
            if (typeof e.k !== 'string') fail(fr, lparen, `keywords must be strings, not ${typeOf(e.k)}`);
            // a name given twice is the callee's to report (its parameters, or dict's keys)
            kwargs.push([e.k, e.v]);
          }
        }
      }
      fr.pos = lparen;
      if (!(f instanceof Callable)) throw new Fail(`invalid call of non-function (${typeOf(f)})`);
      if (f instanceof Builtin) {
        fr.thread.tick();
        try {
          return f.impl(fr.thread, argv, kwargs, f.recv);
        } catch (e) {
          // starlark-go names the builtin in its errors: "append: cannot append to frozen list"
          if (e instanceof Fail && !(e instanceof LimitFail)) throw new Fail(`${f.name}: ${e.message}`);
          throw e;
        }
      }
      return f.call(fr.thread, argv, kwargs);
    };
  }

  private makeFunction(info: FunctionInfo, lambdaBody: Expr | undefined): ExprFn {
    const defaults: (ExprFn | undefined)[] = [];
    for (const p of info.params) {
      if (p.kind === 'optional') defaults.push(this.expr(p.default));
      else if (p.kind === 'required') defaults.push(undefined);
    }
    const body = this.function(info, lambdaBody);
    const module = this.env.module;
    const free = info.freevars;
    return (fr) => {
      const d = defaults.map((e) => e?.(fr));
      const cells = free.map((b) => (b.scope === 'free' ? fr.free[b.index]! : (fr.locals[(b as { index: number }).index] as Cell)));
      return new StarlarkFunction(fr.thread.nextFunctionId++, info, body, d, cells, module);
    };
  }

  private comprehension(curly: boolean, body: Expr | DictEntry, clauses: Clause[]): ExprFn {
    const isDict = curly;
    const key = isDict ? this.expr((body as DictEntry).key) : undefined;
    const val = isDict ? this.expr((body as DictEntry).value) : this.expr(body as Expr);
    const entryPos = isDict ? (body as DictEntry).pos : undefined;
    type Emit = (fr: Frame, out: List | Dict) => void;
    let emit: Emit = isDict
      ? (fr, out) => {
          const k = key!(fr);
          const v = val(fr);
          fr.pos = entryPos!;
          (out as Dict).set(k, v);
        }
      : (fr, out) => {
          (out as List).elems.push(val(fr));
        };
    for (let i = clauses.length - 1; i >= 0; i--) {
      const c = clauses[i]!;
      const inner = emit;
      if (c.kind === 'If') {
        const cond = this.expr(c.cond);
        emit = (fr, out) => {
          if (truth(cond(fr))) inner(fr, out);
        };
      } else {
        const seqE = this.expr(c.x);
        const store = this.target(c.vars);
        const pos = c.pos;
        emit = (fr, out) => {
          const seq = seqE(fr);
          const it = iterate(seq);
          if (it === undefined) fail(fr, pos, `${typeOf(seq)} value is not iterable`);
          const guarded = seq instanceof List || seq instanceof HashTable ? seq : undefined;
          if (guarded) guarded.iterating++;
          try {
            for (const v of it) {
              fr.thread.tick();
              store(fr, v);
              inner(fr, out);
            }
          } finally {
            if (guarded) guarded.iterating--;
          }
        };
      }
    }
    const run = emit;
    return (fr) => {
      const out = isDict ? new Dict() : new List([]);
      run(fr, out);
      return out;
    };
  }
}

function reprForKey(k: Value): string {
  return typeof k === 'string' ? JSON.stringify(k) : str(k);
}
