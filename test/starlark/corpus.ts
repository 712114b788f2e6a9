/**
 * Runs starlark-go's chunked test files (../shared/starlark-conformance) with our interpreter:
 * each chunk passes when exactly the errors its `###` comments expect occur. Used by the
 * conformance test and by scripts/starlark-conformance.mjs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Builtin, Fail, Float, StarlarkEvalError, StarlarkError, StarlarkResolveError, execFile, freeze, jsonModule, mathModule, structModule, timeModule,
  decodeUtf8, equals, type DialectOptions, type Thread, type Value, Callable,
} from '../../src/starlark/index.js';
import { parseFile } from '../../src/starlark/parser.js';
import { resolveFile } from '../../src/starlark/resolve.js';
import { hostTypes } from './host-types.js';

export interface ChunkResult {
  name: string;
  passed: boolean;
  problems: string[];
}

const DIRS = ['starlark', 'starlarkstruct', 'syntax', 'resolve'];

interface Expect {
  line: number;
  pattern: RegExp;
  seen: boolean;
}

/** A Go string literal ("..." or `...`) holding a Go regexp, as a JS RegExp. */
function goPattern(lit: string): RegExp {
  let body: string;
  if (lit.startsWith('`')) body = lit.slice(1, lit.lastIndexOf('`'));
  else body = JSON.parse(lit.slice(0, lit.lastIndexOf('"') + 1)) as string;
  return new RegExp(body);
}

function dialectOf(src: string): DialectOptions {
  const opts = new Set([...src.matchAll(/option:(\w+)/g)].map((m) => m[1]));
  return {
    set: opts.has('set'),
    while: opts.has('while'),
    topLevelControl: opts.has('toplevelcontrol'),
    globalReassign: opts.has('globalreassign'),
    recursion: opts.has('recursion'),
    loadBindsGlobally: opts.has('loadbindsglobally'),
  };
}

/** The host builtins assert.star is written on, reporting failures into `problems`. */
function assertHost(problems: string[]): Map<string, Value> {
  const m = structModule();
  m.set('error', new Builtin('error', (_t, args) => {
    problems.push(`error: ${decodeUtf8(String(args[0]))}`);
    return null;
  }));
  m.set('catch', new Builtin('catch', (t, args) => {
    try {
      (args[0] as Callable).call(t, [], undefined);
      return null;
    } catch (e) {
      if (e instanceof StarlarkEvalError && (!e.limit || e.limit === 'depth')) return e.msg;
      // a builtin called directly fails with a bare Fail; host limits (LimitFail) end the run
      if (e instanceof Fail && !('limit' in e)) return e.message;
      throw e;
    }
  }));
  m.set('matches', new Builtin('matches', (_t, args) => new RegExp(decodeUtf8(args[0] as string)).test(decodeUtf8(args[1] as string))));
  m.set('_freeze', new Builtin('freeze', (_t, args) => {
    freeze(args[0]!);
    return args[0]!;
  }));
  m.set('_floateq', new Builtin('floateq', (_t, args) => {
    const x = (args[0] as Float).v;
    const y = (args[1] as Float).v;
    if (equals(args[0]!, args[1]!)) return true;
    const buf = new Float64Array([x, y]);
    const ints = new BigInt64Array(buf.buffer);
    const d = ints[0]! - ints[1]!;
    return d >= -1n && d <= 1n;
  }));
  return m;
}

function runChunk(dir: string, file: string, name: string, src: string, firstLine: number, testdata: string): ChunkResult {
  const problems: string[] = [];
  const expects: Expect[] = [];
  src.split('\n').forEach((line, i) => {
    const k = line.indexOf('###');
    if (k < 0) return;
    const lit = line.slice(k + 3).trim();
    if (!lit.startsWith('"') && !lit.startsWith('`')) return;
    expects.push({ line: firstLine + i, pattern: goPattern(lit), seen: false });
  });
  const gotError = (line: number, msg: string): void => {
    const e = expects.find((x) => !x.seen && x.line === line && x.pattern.test(msg));
    if (e) e.seen = true;
    else problems.push(`unexpected error at line ${line}: ${msg}`);
  };
  const dialect = dialectOf(src);
  const path = join(testdata, dir, file);
  try {
    if (dir === 'syntax' || dir === 'resolve') {
      const f = parseFile(src, path, firstLine);
      if (dir === 'resolve') resolveFile(f, (n) => n === 'M', (n) => n === 'U' || n === 'print' || n === 'float', dialect);
    } else {
      const predeclared = structModule();
      for (const [name, v] of hostTypes()) predeclared.set(name, v);
      const loaded = new Map<string, Map<string, Value>>();
      const load = (module: string, thread: Thread): Map<string, Value> => {
        const hit = loaded.get(module);
        if (hit) return hit;
        let globals: Map<string, Value>;
        if (module === 'assert.star') {
          globals = execFile({ filename: join(testdata, 'assert.star'), source: readFileSync(join(testdata, 'assert.star'), 'utf8'), predeclared: assertHost(problems), thread }).globals;
        } else if (module === 'json.star') globals = new Map([['json', jsonModule()]]);
        else if (module === 'math.star') globals = new Map([['math', mathModule()]]);
        // a fixed clock (2024-01-01T00:00:00Z): the corpus only needs now() to be after 2021
        else if (module === 'time.star') globals = new Map([['time', timeModule({ now: () => Date.UTC(2024, 0, 1) })]]);
        else throw new Error(`no such module`);
        loaded.set(module, globals);
        return globals;
      };
      // bounded by steps, not by a deadline, so that a slow machine passes the same chunks
      execFile({ filename: path, source: src, predeclared, dialect, load, firstLine, limits: { maxSteps: 50_000_000 } });
    }
  } catch (e) {
    if (e instanceof StarlarkResolveError) for (const x of e.errors) gotError(x.pos.line, decodeUtf8(x.msg));
    else if (e instanceof StarlarkError) gotError(e.pos.line, decodeUtf8(e.msg));
    else problems.push(`crash: ${e instanceof Error ? e.stack : String(e)}`);
  }
  for (const x of expects) if (!x.seen) problems.push(`line ${x.line}: expected error matching ${x.pattern} did not occur`);
  return { name, passed: problems.length === 0, problems };
}

/** Runs every chunk of the corpus in `testdata`. */
export function runCorpus(testdata: string): ChunkResult[] {
  const results: ChunkResult[] = [];
  for (const dir of DIRS) {
    for (const file of readdirSync(join(testdata, dir)).filter((f) => f.endsWith('.star')).sort()) {
      const text = readFileSync(join(testdata, dir, file), 'utf8');
      const chunks = text.split('\n---\n');
      let line = 1;
      for (const chunk of chunks) {
        results.push(runChunk(dir, file, `${dir}/${file}:${line}`, chunk, line, testdata));
        line += chunk.split('\n').length + 1;
      }
    }
  }
  return results;
}
