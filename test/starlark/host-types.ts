/**
 * The application-defined types starlark-go's test harness predeclares for its corpus
 * (eval_test.go, struct_test.go): `hasfields()`, `fibonacci` and `gensym(name=...)`. They exercise
 * the interpreter's host-type hooks (attributes, field assignment, binary operators, iteration,
 * calling) and exist only for the conformance run.
 */
import { Builtin, Callable, Fail, freeze, type Thread, type Value } from '../../src/starlark/index.js';
import { List, NoSuchAttr, StarlarkObject, type HasAttrs, type HasBinary } from '../../src/starlark/value.js';
import { structFromKwargs } from '../../src/starlark/struct.js';

/** An object any field may be set on (except names starting with "no"); list + hasfields is 42. */
class HasFields extends StarlarkObject implements HasAttrs, HasBinary {
  readonly typeName = 'hasfields';
  private readonly attrs = new Map<string, Value>();
  private frozen = false;
  attr(name: string): Value | undefined {
    return this.attrs.get(name);
  }
  attrNames(): string[] {
    return [...this.attrs.keys()].sort();
  }
  setAttr(name: string, v: Value): void {
    if (this.frozen) throw new Fail('cannot set field on a frozen hasfields');
    if (name.startsWith('no')) throw new NoSuchAttr(`no .${name} field`);
    this.attrs.set(name, v);
  }
  binaryOp(op: string, other: Value): Value | undefined {
    return op === '+' && other instanceof List ? 42 : undefined;
  }
  repr(): string {
    return 'hasfields';
  }
  hashKey(): string {
    return 'hasfields';
  }
  override freeze(): void {
    if (this.frozen) return;
    this.frozen = true;
    for (const v of this.attrs.values()) freeze(v);
  }
}

/** The infinite Fibonacci sequence, as an iterable. */
class Fibonacci extends StarlarkObject {
  readonly typeName = 'fib';
  *iterate(): Iterable<Value> {
    let [x, y] = [0, 1];
    for (;;) {
      yield x;
      [x, y] = [y, x + y];
    }
  }
  repr(): string {
    return 'fib';
  }
  hashKey(): string {
    throw new Fail('fib is unhashable');
  }
}

/** A distinct constructor of "branded" structs, like a provider in Bazel. */
class GenSymbol extends Callable {
  readonly typeName = 'symbol';
  constructor(readonly name: string) {
    super();
  }
  call(_thread: Thread, args: Value[], kwargs: [string, Value][] | undefined): Value {
    if (args.length > 0) throw new Fail(`${this.name}: unexpected positional arguments`);
    return structFromKwargs(this, args, kwargs);
  }
  repr(): string {
    return this.name;
  }
  hashKey(): string {
    throw new Fail('unhashable: symbol');
  }
}

export function hostTypes(): [string, Value][] {
  return [
    ['hasfields', new Builtin('hasfields', (_t, args, kwargs) => {
      if (args.length + (kwargs?.length ?? 0) > 0) throw new Fail('hasfields: unexpected arguments');
      return new HasFields();
    })],
    ['fibonacci', new Fibonacci()],
    ['gensym', new Builtin('gensym', (_t, args, kwargs) => {
      const name = kwargs?.find(([k]) => k === 'name')?.[1] ?? args[0];
      if (typeof name !== 'string' || args.length + (kwargs?.length ?? 0) !== 1) throw new Fail('gensym: want one argument, name (a string)');
      return new GenSymbol(name);
    })],
  ];
}
