/** `struct(**kwargs)` and `module(name, **kwargs)`, as starlark-go's starlarkstruct provides them. */
import { Builtin } from './function.js';
import { Module, structFromKwargs } from './struct.js';
import { Fail, typeOf, type Value } from './value.js';

/** The predeclared names `struct` and `module`. */
export function structModule(): Map<string, Value> {
  const struct: Builtin = new Builtin('struct', (_t, args, kw) => structFromKwargs(struct, args, kw));
  const module = new Builtin('module', (_t, args, kw) => {
    if (args.length !== 1 || typeof args[0] !== 'string') throw new Fail(`got ${args.length ? typeOf(args[0]!) : 'no arguments'}, want a module name`);
    return new Module(args[0], new Map(kw ?? []));
  });
  return new Map<string, Value>([['struct', struct], ['module', module]]);
}
