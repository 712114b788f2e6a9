/**
 * A Starlark interpreter (the language of google/starlark-go's specification), in plain
 * TypeScript with no Node imports, so it runs in browsers too.
 */
export { execFile, type ExecOptions } from './interp.js';
export { StarlarkError, StarlarkEvalError, StarlarkResolveError, StarlarkSyntaxError } from './errors.js';
export { Builtin, Callable, Thread } from './function.js';
export type { DialectOptions } from './resolve.js';
export { Fail, Float, List, equals, freeze, type Value } from './value.js';
export { repr, str } from './format.js';
export { jsonModule } from './module-json.js';
export { mathModule } from './module-math.js';
export { structModule } from './module-struct.js';
export { timeModule } from './module-time.js';
export { decodeUtf8 } from './text.js';
export { fromStarlark, runStarlarkFunction, toStarlark } from './krm.js';
