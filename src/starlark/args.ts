/**
 * Argument unpacking for builtins: binds positional and keyword arguments to a list of
 * parameter names (`name` required, `name?` optional), with starlark-go's messages.
 */
import { nearestName } from './spell.js';
import { Fail, type Value } from './value.js';

export function unpackArgs(
  args: Value[],
  kwargs: [string, Value][] | undefined,
  params: string[],
): (Value | undefined)[] {
  const out: (Value | undefined)[] = new Array(params.length);
  if (args.length > params.length) {
    throw new Fail(`got ${args.length} arguments, want at most ${params.length}`);
  }
  for (let i = 0; i < args.length; i++) out[i] = args[i];
  if (kwargs) {
    for (const [k, v] of kwargs) {
      const i = params.findIndex((p) => p === k || p === k + '?');
      if (i < 0) {
        const hint = nearestName(k, params.map((p) => p.replace(/\?$/, '')));
        throw new Fail(`unexpected keyword argument ${k}${hint ? ` (did you mean ${hint}?)` : ''}`);
      }
      if (out[i] !== undefined) throw new Fail(`got multiple values for parameter ${k}`);
      out[i] = v;
    }
  }
  for (let i = 0; i < params.length; i++) {
    if (out[i] === undefined && !params[i]!.endsWith('?')) throw new Fail(`missing argument for ${params[i]}`);
  }
  return out;
}

export function noKwargs(kwargs: [string, Value][] | undefined): void {
  if (kwargs && kwargs.length) throw new Fail('unexpected keyword arguments');
}
