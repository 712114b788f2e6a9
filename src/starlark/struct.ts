/** The `struct` and `module` types: immutable records of named fields. */
import { Builtin } from './function.js';
import { repr } from './format.js';
import { Fail, StarlarkObject, equals, freeze, hashKey, type HasAttrs, type Value } from './value.js';

export class Struct extends StarlarkObject implements HasAttrs {
  readonly typeName = 'struct';
  constructor(
    /** the constructor value (`struct` by default), compared by `+` and `==` */
    readonly ctor: Value,
    readonly fields: Map<string, Value>,
  ) {
    super();
  }
  attr(name: string): Value | undefined {
    return this.fields.get(name);
  }
  attrNames(): string[] {
    return [...this.fields.keys()].sort();
  }
  noAttrMessage(name: string): string {
    const c = this.ctor instanceof Builtin && this.ctor.name === 'struct' ? 'struct' : `${repr(this.ctor)} struct`;
    return `${c} has no .${name} attribute`;
  }
  setAttr(name: string): void {
    throw new Fail(`struct has no .${name} field or method`);
  }
  repr(seen: Set<object>): string {
    const parts = this.attrNames().map((k) => `${k} = ${repr(this.fields.get(k)!, seen)}`);
    const ctor = this.ctor instanceof Builtin && this.ctor.name === 'struct' ? 'struct' : repr(this.ctor, seen);
    return `${ctor}(${parts.join(', ')})`;
  }
  equals(o: Value): boolean {
    if (!(o instanceof Struct) || !equals(this.ctor, o.ctor) || this.fields.size !== o.fields.size) return false;
    for (const [k, v] of this.fields) {
      const w = o.fields.get(k);
      if (w === undefined || !equals(v, w)) return false;
    }
    return true;
  }
  hashKey(): string {
    return 'struct(' + this.attrNames().map((k) => `${k}=${String(hashKey(this.fields.get(k)!))}`).join(',') + ')';
  }
  override freeze(): void {
    for (const v of this.fields.values()) freeze(v);
  }
  /** struct + struct: the union of the fields (the right wins is an error in starlark-go: same constructor only) */
  plus(o: Struct): Struct {
    if (!equals(this.ctor, o.ctor)) throw new Fail(`cannot concatenate structs with different constructors: ${repr(this.ctor)} + ${repr(o.ctor)}`);
    return new Struct(this.ctor, new Map([...this.fields, ...o.fields]));
  }
}

export class Module extends StarlarkObject implements HasAttrs {
  readonly typeName = 'module';
  constructor(
    readonly name: string,
    readonly members: Map<string, Value>,
  ) {
    super();
  }
  attr(name: string): Value | undefined {
    return this.members.get(name);
  }
  attrNames(): string[] {
    return [...this.members.keys()].sort();
  }
  repr(): string {
    return `<module "${this.name}">`;
  }
  hashKey(): string {
    throw new Fail('unhashable: module');
  }
  override freeze(): void {
    for (const v of this.members.values()) freeze(v);
  }
}

export function structFromKwargs(ctor: Value, args: Value[], kwargs: [string, Value][] | undefined): Struct {
  if (args.length > 0) throw new Fail(`unexpected positional arguments`);
  const fields = new Map<string, Value>();
  for (const [k, v] of kwargs ?? []) fields.set(k, v);
  return new Struct(ctor, fields);
}
