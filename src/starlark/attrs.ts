/** `x.name`: a method of a built-in type, or a field of a struct, module or host object. */
import { methodsOf } from './methods.js';
import { nearestName } from './spell.js';
import { Fail, NoSuchAttr, hasAttrs, typeOf, type Value } from './value.js';

export function getAttr(x: Value, name: string): Value {
  const methods = methodsOf(x);
  if (methods) {
    const m = methods.get(name);
    if (m) return m.bind(x);
    throw noAttr(x, name, [...methods.keys()]);
  }
  if (hasAttrs(x)) {
    const v = x.attr(name);
    if (v !== undefined) return v;
    throw noAttr(x, name, x.attrNames());
  }
  throw noAttr(x, name, []);
}

function noAttr(x: Value, name: string, names: string[]): Fail {
  const custom = (x as { noAttrMessage?: (name: string) => string } | null)?.noAttrMessage;
  const hint = nearestName(name, names);
  const base = custom ? custom.call(x, name) : `${typeOf(x)} has no .${name} field or method`;
  return new Fail(hint ? `${base} (did you mean .${hint}?)` : base);
}

export function setAttr(x: Value, name: string, v: Value): void {
  const set = (x as { setAttr?: (name: string, v: Value) => void } | null)?.setAttr;
  if (set) {
    try {
      set.call(x, name, v);
    } catch (e) {
      const hint = e instanceof NoSuchAttr && hasAttrs(x) ? nearestName(name, x.attrNames()) : undefined;
      if (hint) throw new Fail(`${e instanceof Error ? e.message : ''} (did you mean .${hint}?)`);
      throw e;
    }
    return;
  }
  if (hasAttrs(x)) throw new Fail(`can't assign to .${name} field of ${typeOf(x)}`);
  throw new Fail(`${typeOf(x)} has no .${name} field or method`);
}
