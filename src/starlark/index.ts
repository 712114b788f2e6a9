/**
 * A Starlark interpreter (the language of google/starlark-go's specification), in plain
 * TypeScript with no Node imports, so it runs in browsers too.
 */
export { execFile, newThread, type ExecOptions, type ExecResult } from './interp.js';
export { StarlarkError, StarlarkEvalError, StarlarkResolveError, StarlarkSyntaxError, formatPosition, type Position, type CallFrame, type LimitKind } from './errors.js';
export { Builtin, Callable, Thread, DEFAULT_LIMITS, type Limits } from './function.js';
export type { DialectOptions } from './resolve.js';
export { Bytes, Dict, Fail, Float, List, StarlarkSet, Tuple, equals, freeze, typeOf, type Value } from './value.js';
export { Module, Struct } from './struct.js';
export { repr, str } from './format.js';
export { jsonModule } from './module-json.js';
export { mathModule } from './module-math.js';
export { structModule } from './module-struct.js';
export { timeModule, type TimeModuleOptions } from './module-time.js';
export { decodeUtf8, encodeUtf8 } from './text.js';
export { fromStarlark, runStarlarkFunction, toStarlark, type StarlarkFunctionInput, type StarlarkFunctionOutput } from './krm.js';
