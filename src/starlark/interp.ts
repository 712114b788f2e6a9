/**
 * Running a Starlark file: parse, resolve, compile, execute on a thread, then freeze the
 * module's globals. Hosts supply predeclared names and a loader for `load` statements.
 */
import { universe } from './builtins.js';
import { StarlarkEvalError, type Position } from './errors.js';
import { Compiler } from './eval.js';
import { Thread, type Limits, type ModuleState } from './function.js';
import { parseFile } from './parser.js';
import { resolveFile, type DialectOptions } from './resolve.js';
import { encodeUtf8 } from './text.js';
import { Fail, freeze, type Value } from './value.js';

export interface ExecOptions {
  /** the file name errors name */
  filename: string;
  /** the program, as host text */
  source: string;
  /** names the program sees besides the universal builtins */
  predeclared?: Map<string, Value>;
  /** the thread to run on (for `load`, the loading program's); a new one otherwise */
  thread?: Thread;
  dialect?: DialectOptions;
  limits?: Limits;
  /** where `print` goes (default: dropped) */
  print?: (msg: string) => void;
  /** resolves `load("module", ...)` to the loaded module's globals */
  load?: (module: string, thread: Thread) => Map<string, Value>;
  /** the line number of the first line (for chunks of a larger file) */
  firstLine?: number;
}

interface ExecResult {
  /** the module's globals, frozen */
  globals: Map<string, Value>;
  thread: Thread;
}

export function newThread(options: Pick<ExecOptions, 'dialect' | 'limits' | 'print'>): Thread {
  return new Thread(options.limits ?? {}, options.dialect ?? {}, options.print ?? (() => undefined));
}

export function execFile(options: ExecOptions): ExecResult {
  const thread = options.thread ?? newThread(options);
  const src = encodeUtf8(options.source);
  const file = parseFile(src, options.filename, options.firstLine ?? 1);
  const predeclared = options.predeclared ?? new Map<string, Value>();
  const universal = universe();
  resolveFile(file, (n) => predeclared.has(n), (n) => universal.has(n), thread.dialect);
  const names = file.globals!.map((g) => g.name);
  const module: ModuleState = { globals: new Array(names.length), globalNames: names };
  const loadModule = (name: string, pos: Position): ReadonlyMap<string, Value> => {
    if (!options.load) throw new Fail(`cannot load ${name}: no loader`);
    let members: Map<string, Value>;
    try {
      members = options.load(name, thread);
    } catch (e) {
      if (e instanceof StarlarkEvalError && e.limit) throw e;
      const msg = e instanceof Error ? e.message : String(e);
      throw new Fail(`cannot load ${name}: ${msg}`);
    }
    void pos;
    return members;
  };
  const compiler = new Compiler({
    module,
    predeclared: (n) => predeclared.get(n) ?? null,
    universal: (n) => universal.get(n) ?? null,
    load: loadModule,
  });
  const top = file.toplevel!;
  const body = compiler.function(top, undefined);
  thread.runToplevel('<toplevel>', top.pos, top.numLocals, top.cellIndexes, body);
  const globals = new Map<string, Value>();
  for (let i = 0; i < names.length; i++) {
    const v = module.globals[i];
    if (v !== undefined) {
      freeze(v);
      globals.set(names[i]!, v);
    }
  }
  return { globals, thread };
}
