/**
 * The Starlark KRM function runtime, as kustomize ran Starlark functions before v5.5 (kyaml
 * fn/runtime/starlark): the script sees `ctx.resource_list` (a dict with `items` and
 * `functionConfig`), `ctx.environment` and `ctx.open_api`; what it leaves in
 * `ctx.resource_list["items"]` is the output. Pure: no engine or Node dependency.
 */
import { KustomizeError } from '../errors.js';
import { setKey, type Value as YValue, type YMap } from '../yaml/value.js';
import { StarlarkError, StarlarkEvalError } from './errors.js';
import type { Limits } from './function.js';
import { execFile, newThread } from './interp.js';
import { jsonModule } from './module-json.js';
import { mathModule } from './module-math.js';
import { timeModule } from './module-time.js';
import { structModule } from './module-struct.js';
import { Struct } from './struct.js';
import { decodeUtf8, encodeUtf8 } from './text.js';
import { Bytes, Fail, Dict, Float, HashTable, List, Tuple, isInt, typeOf, type Value } from './value.js';

interface StarlarkFunctionInput {
  /** the script, as text */
  source: string;
  /** the script's path, as errors should name it */
  filename: string;
  resourceList: { items: YMap[]; functionConfig?: YMap | null };
  /** `ctx.environment` (kustomize passed the process environment) */
  environment?: Record<string, string>;
  /** `ctx.open_api`: the OpenAPI schema document in use */
  openApi?: YMap;
  limits?: Limits;
  /** the source of a module named by `load("name", ...)`; json.star, math.star and time.star are built in */
  load?: (module: string) => string;
  /** where `print` goes */
  print?: (msg: string) => void;
}

interface StarlarkFunctionOutput {
  items: YMap[];
  /** `ctx.resource_list["results"]`, when the script set it */
  results?: YValue;
}

/** A YAML value (src/yaml/value.ts) as a Starlark value: integers stay ints, key order is kept. */
export function toStarlark(v: YValue): Value {
  if (v === null || typeof v === 'boolean' || typeof v === 'bigint') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? v : new Float(v);
  if (typeof v === 'string') return encodeUtf8(v);
  if (Array.isArray(v)) return new List(v.map(toStarlark));
  const d = new Dict();
  for (const k of Object.keys(v)) d.set(encodeUtf8(k), toStarlark(v[k]!));
  return d;
}

/** A Starlark value back to a YAML value; `where` names it in errors. */
export function fromStarlark(v: Value, where: string): YValue {
  if (v === null || typeof v === 'boolean') return v;
  if (isInt(v)) return v;
  if (typeof v === 'string') return decodeUtf8(v);
  if (v instanceof Float) return v.v;
  if (v instanceof List || v instanceof Tuple) return v.elems.map((e, i) => fromStarlark(e, `${where}[${i}]`));
  if (v instanceof HashTable && v.typeName === 'dict') {
    const out: YMap = {};
    for (const e of v.entries()) {
      if (typeof e.k !== 'string') throw new KustomizeError('PLUGIN_FAILED', `${where}: a map key must be a string, not ${typeOf(e.k)}`);
      const k = decodeUtf8(e.k);
      setKey(out, k, fromStarlark(e.v, `${where}.${k}`));
    }
    return out;
  }
  if (v instanceof Struct) {
    const out: YMap = {};
    for (const k of v.attrNames()) setKey(out, decodeUtf8(k), fromStarlark(v.fields.get(k)!, `${where}.${k}`));
    return out;
  }
  if (v instanceof Bytes) throw new KustomizeError('PLUGIN_FAILED', `${where}: bytes cannot be written as YAML`);
  throw new KustomizeError('PLUGIN_FAILED', `${where}: a ${typeOf(v)} cannot be written as YAML`);
}

function envDict(env: Record<string, string>): Dict {
  const d = new Dict();
  for (const k of Object.keys(env)) d.set(encodeUtf8(k), encodeUtf8(env[k]!));
  return d;
}

function failed(input: StarlarkFunctionInput, message: string, cause?: unknown): KustomizeError {
  return new KustomizeError('PLUGIN_FAILED', `starlark function ${input.filename}: ${message}`, { file: input.filename, ...(cause !== undefined && { cause }) });
}

/** Runs a Starlark KRM function over a resource list. Errors are PLUGIN_FAILED KustomizeErrors. */
export function runStarlarkFunction(input: StarlarkFunctionInput): StarlarkFunctionOutput {
  const resourceList = new Dict();
  resourceList.set('items', toStarlark(input.resourceList.items));
  resourceList.set('functionConfig', toStarlark(input.resourceList.functionConfig ?? null));
  const ctx = new Struct(null, new Map<string, Value>([
    ['resource_list', resourceList],
    ['environment', envDict(input.environment ?? {})],
    ['open_api', toStarlark(input.openApi ?? {})],
  ]));
  const predeclared = structModule();
  predeclared.set('ctx', ctx);
  const builtinModules = new Map<string, () => Map<string, Value>>([
    ['json.star', () => new Map([['json', jsonModule()]])],
    ['math.star', () => new Map([['math', mathModule()]])],
    ['time.star', () => new Map([['time', timeModule()]])],
  ]);
  const loaded = new Map<string, Map<string, Value>>();
  const dialect = { set: true, while: true, topLevelControl: true, globalReassign: true, recursion: true };
  const thread = newThread({ dialect, ...(input.limits && { limits: input.limits }), ...(input.print && { print: input.print }) });
  const load = (module: string): Map<string, Value> => {
    const hit = loaded.get(module);
    if (hit) return hit;
    const builtin = builtinModules.get(module);
    let globals: Map<string, Value>;
    if (builtin) globals = builtin();
    else if (input.load) globals = execFile({ filename: module, source: input.load(module), predeclared, thread, load }).globals;
    else throw new Fail('modules cannot be loaded here');
    loaded.set(module, globals);
    return globals;
  };
  try {
    execFile({ filename: input.filename, source: input.source, predeclared, thread, load });
  } catch (e) {
    if (e instanceof StarlarkEvalError) throw failed(input, `${e.message}\n${e.backtraceText}`, e);
    if (e instanceof StarlarkError) throw failed(input, e.message, e);
    throw e;
  }
  const items = resourceList.get('items');
  if (!(items instanceof List || items instanceof Tuple)) {
    throw failed(input, `ctx.resource_list["items"] must be a list, not ${items === undefined ? 'missing' : typeOf(items)}`);
  }
  let out: YValue[];
  try {
    out = items.elems.map((e, i) => fromStarlark(e, `items[${i}]`));
  } catch (e) {
    throw failed(input, e instanceof Error ? e.message : String(e), e);
  }
  out.forEach((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw failed(input, `items[${i}] is not a map`);
  });
  const results = resourceList.get('results');
  return { items: out as YMap[], ...(results !== undefined && results !== null && { results: fromStarlark(results, 'results') }) };
}
