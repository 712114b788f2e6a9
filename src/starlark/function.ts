/**
 * Callable values and the thread a program runs on: the call stack, the step counter, the
 * deadline and the other limits that keep a program from running away.
 */
import { StarlarkEvalError, type CallFrame, type LimitKind, type Position } from './errors.js';
import type { DialectOptions } from './resolve.js';
import type { FunctionInfo } from './syntax.js';
import { Dict, Fail, StarlarkObject, Tuple, freeze, type Value } from './value.js';

export interface Limits {
  /** loop iterations plus calls (default 10,000,000) */
  maxSteps?: number;
  /** the time past which the program is stopped, in milliseconds on the `now` clock */
  deadline?: number;
  /** the clock `deadline` is read against (default Date.now); a test gives a clock of its own to reach the deadline in a known step */
  now?: () => number;
  /** the deepest Starlark call stack (default 400) */
  maxDepth?: number;
  /** the largest string, bytes, list or tuple an operation may build, in bytes or elements (default 2**26) */
  maxValueSize?: number;
}

const DEFAULT_LIMITS: Required<Omit<Limits, 'deadline' | 'now'>> = {
  maxSteps: 10_000_000,
  maxDepth: 400,
  maxValueSize: 2 ** 26,
};

/** An error from a host limit; it unwinds through `catch` and fails the whole program. */
export class LimitFail extends Fail {
  constructor(
    message: string,
    readonly limit: LimitKind,
  ) {
    super(message);
  }
}

/** A variable captured by a nested function. */
export class Cell {
  constructor(public v: Value | undefined) {}
}

export interface Frame {
  thread: Thread;
  locals: (Value | undefined | Cell)[];
  free: readonly Cell[];
  /** where the frame is now (updated before operations that may fail, and before calls) */
  pos: Position;
  name: string;
  /** the return value, set by `return` */
  ret: Value;
}

export abstract class Callable extends StarlarkObject {
  abstract readonly name: string;
  abstract call(thread: Thread, args: Value[], kwargs: [string, Value][] | undefined): Value;
}

export type BuiltinImpl = (thread: Thread, args: Value[], kwargs: [string, Value][] | undefined, recv: Value) => Value;

export class Builtin extends Callable {
  readonly typeName = 'builtin_function_or_method';
  constructor(
    readonly name: string,
    readonly impl: BuiltinImpl,
    readonly recv: Value = null,
  ) {
    super();
  }
  call(thread: Thread, args: Value[], kwargs: [string, Value][] | undefined): Value {
    return this.impl(thread, args, kwargs, this.recv);
  }
  bind(recv: Value): Builtin {
    return new Builtin(this.name, this.impl, recv);
  }
  /** builtins hash by identity */
  readonly identityHash = true;
  override freeze(): void {
    freeze(this.recv);
  }
}

/** The body of a compiled Starlark function: runs it in a prepared frame. */
export type CompiledBody = (fr: Frame) => Value;

export interface ModuleState {
  globals: (Value | undefined)[];
  globalNames: string[];
}

export class StarlarkFunction extends Callable {
  readonly typeName = 'function';
  constructor(
    /** unique within the thread that made it: the function's hash */
    readonly id: number,
    readonly info: FunctionInfo,
    readonly body: CompiledBody,
    readonly defaults: (Value | undefined)[],
    readonly freevars: Cell[],
    readonly module: ModuleState,
  ) {
    super();
  }
  get name(): string {
    return this.info.name;
  }
  call(thread: Thread, args: Value[], kwargs: [string, Value][] | undefined): Value {
    return thread.callFunction(this, args, kwargs);
  }
  hashKey(): string {
    return `fn:${this.id}`;
  }
  private frozen = false;
  override freeze(): void {
    if (this.frozen) return;
    this.frozen = true;
    for (const d of this.defaults) if (d !== undefined) freeze(d);
    for (const c of this.freevars) if (c.v !== undefined) freeze(c.v);
  }
}

export class Thread {
  steps = 0;
  depth = 0;
  /** numbers the functions this thread creates (their hash) */
  nextFunctionId = 0;
  readonly stack: Frame[] = [];
  readonly maxSteps: number;
  readonly maxDepth: number;
  readonly maxValueSize: number;
  readonly deadline: number | undefined;
  private readonly now: () => number;
  private readonly active = new Map<FunctionInfo, number>();

  constructor(
    limits: Limits,
    readonly dialect: DialectOptions,
    readonly print: (msg: string) => void,
  ) {
    this.maxSteps = limits.maxSteps ?? DEFAULT_LIMITS.maxSteps;
    this.maxDepth = limits.maxDepth ?? DEFAULT_LIMITS.maxDepth;
    this.maxValueSize = limits.maxValueSize ?? DEFAULT_LIMITS.maxValueSize;
    this.deadline = limits.deadline;
    this.now = limits.now ?? Date.now;
  }

  /** Counts one step; stops the program past its step budget or deadline. */
  tick(): void {
    const n = ++this.steps;
    if (n > this.maxSteps) throw new LimitFail(`Starlark computation cancelled: too many steps (limit ${this.maxSteps})`, 'steps');
    if ((n & 1023) === 0 && this.deadline !== undefined && this.now() > this.deadline) {
      throw new LimitFail('Starlark computation cancelled: deadline exceeded', 'deadline');
    }
  }

  /** Fails when an operation would build a value larger than the memory guard allows. */
  checkSize(n: number, what: string): void {
    if (n > this.maxValueSize) throw new LimitFail(`${what}: result of ${n} elements exceeds the memory limit (${this.maxValueSize})`, 'memory');
  }

  callFunction(fn: StarlarkFunction, args: Value[], kwargs: [string, Value][] | undefined): Value {
    const info = fn.info;
    if (this.depth >= this.maxDepth) throw new LimitFail(`Starlark stack overflow: maximum recursion depth (${this.maxDepth}) exceeded`, 'depth');
    const active = this.active.get(info) ?? 0;
    if (active > 0 && !this.dialect.recursion) throw new Fail(`function ${info.name} called recursively`);
    this.tick();
    const locals: (Value | undefined | Cell)[] = new Array(info.numLocals);
    bindArgs(fn, locals, args, kwargs);
    for (const i of info.cellIndexes) locals[i] = new Cell(locals[i] as Value | undefined);
    const fr: Frame = { thread: this, locals, free: fn.freevars, pos: info.pos, name: info.name, ret: null };
    this.active.set(info, active + 1);
    this.depth++;
    this.stack.push(fr);
    try {
      return fn.body(fr);
    } catch (e) {
      throw this.annotate(e);
    } finally {
      this.stack.pop();
      this.depth--;
      this.active.set(info, active);
    }
  }

  /** Runs a module's top level in a frame of its own. */
  runToplevel(name: string, pos: Position, numLocals: number, cellIndexes: number[], body: CompiledBody): void {
    const locals: (Value | undefined | Cell)[] = new Array(numLocals);
    for (const i of cellIndexes) locals[i] = new Cell(undefined);
    const fr: Frame = { thread: this, locals, free: [], pos, name, ret: null };
    this.stack.push(fr);
    this.depth++;
    try {
      body(fr);
    } catch (e) {
      throw this.annotate(e);
    } finally {
      this.stack.pop();
      this.depth--;
    }
  }

  /** Gives an error raised in the innermost frame its position and the backtrace. */
  private annotate(e: unknown): unknown {
    if (e instanceof StarlarkEvalError) return e;
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      e = new LimitFail('Starlark stack overflow: the interpreter ran out of stack', 'depth');
    }
    if (!(e instanceof Fail)) return e;
    const backtrace: CallFrame[] = this.stack.map((f) => ({ name: f.name, pos: f.pos }));
    const top = this.stack[this.stack.length - 1]!;
    return new StarlarkEvalError(top.pos, e.message, backtrace, e instanceof LimitFail ? e.limit : undefined);
  }
}

/** Binds arguments to parameters (starlark-go's setArgs, with its messages). */
function bindArgs(fn: StarlarkFunction, locals: (Value | undefined | Cell)[], args: Value[], kwargs: [string, Value][] | undefined): void {
  const info = fn.info;
  const nparams = info.numParams;
  const name = info.name;
  if (nparams === args.length && !info.hasVarargs && !info.hasKwargs && !kwargs && info.numKwonly === 0) {
    for (let i = 0; i < nparams; i++) locals[i] = args[i];
    return;
  }
  const npositional = nparams - info.numKwonly;
  let kwdict: Dict | undefined;
  if (info.hasKwargs) {
    kwdict = new Dict();
    locals[nparams + (info.hasVarargs ? 1 : 0)] = kwdict;
  }
  const n = Math.min(args.length, npositional);
  for (let i = 0; i < n; i++) locals[i] = args[i];
  if (args.length > npositional) {
    if (!info.hasVarargs) {
      throw new Fail(`function ${name} accepts ${info.numKwonly > 0 ? 'at most' : 'no more than'} ${npositional} positional argument${npositional === 1 ? '' : 's'} (${args.length} given)`);
    }
    locals[nparams] = new Tuple(args.slice(npositional));
  } else if (info.hasVarargs) {
    locals[nparams] = new Tuple([]);
  }
  if (kwargs) {
    for (const [k, v] of kwargs) {
      const i = info.paramNames.indexOf(k);
      if (i < 0 || i >= nparams) {
        if (!kwdict) throw new Fail(`function ${name} got an unexpected keyword argument "${k}"${hint(k, info.paramNames.slice(0, nparams))}`);
        if (kwdict.has(k)) throw new Fail(`function ${name} got multiple values for parameter "${k}"`);
        kwdict.set(k, v);
        continue;
      }
      if (locals[i] !== undefined) throw new Fail(`function ${name} got multiple values for parameter "${k}"`);
      locals[i] = v;
    }
  }
  if (args.length < nparams || info.numKwonly > 0 || kwargs) {
    const missing: string[] = [];
    for (let i = 0; i < nparams; i++) {
      if (locals[i] !== undefined) continue;
      const d = fn.defaults[i];
      if (d !== undefined) locals[i] = d;
      else missing.push(info.paramNames[i]!);
    }
    if (missing.length) {
      const kw = missing.every((m) => info.paramNames.indexOf(m) >= npositional);
      throw new Fail(`function ${name} missing ${missing.length} ${kw ? 'keyword-only ' : ''}argument${missing.length === 1 ? '' : 's'} (${missing.join(', ')})`);
    }
  }
}

function hint(k: string, names: string[]): string {
  for (const n of names) if (n.toLowerCase() === k.toLowerCase() || (Math.abs(n.length - k.length) <= 1 && n.startsWith(k.slice(0, -1)))) return ` (did you mean ${n}?)`;
  return '';
}
