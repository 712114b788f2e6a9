/** The `math` module (starlark-go's lib/math). */
import { unpackArgs } from './args.js';
import { Builtin } from './function.js';
import { Module } from './struct.js';
import { Fail, Float, floatToInt, isInt, typeOf, type Value } from './value.js';

function num(v: Value | undefined, fn: string): number {
  if (v instanceof Float) return v.v;
  if (isInt(v ?? null)) {
    const f = Number(v);
    if (!Number.isFinite(f)) throw new Fail('int too large to convert to float');
    return f;
  }
  throw new Fail(`${fn}: got ${typeOf(v ?? null)}, want float or int`);
}

/** Out-of-domain arguments give NaN, as Go's math package does. */
function unary(name: string, f: (x: number) => number): Builtin {
  return new Builtin(name, (_t, args, kw) => {
    const [x] = unpackArgs(args, kw, ['x']);
    const v = num(x, name);
    return new Float(f(v));
  });
}

function binaryFn(name: string, f: (x: number, y: number) => number): Builtin {
  return new Builtin(name, (_t, args, kw) => {
    const [x, y] = unpackArgs(args, kw, ['x', 'y']);
    return new Float(f(num(x, name), num(y, name)));
  });
}

/** Γ(x), with Go's special cases (Γ(±0) = ±Inf, Γ(-Inf) and negative integers NaN) and exact integers. */
function gamma(x: number): number {
  if (x === 0) return Object.is(x, -0) ? -Infinity : Infinity;
  if (x === Infinity) return Infinity;
  if (Number.isNaN(x) || x === -Infinity || (Number.isInteger(x) && x < 0)) return NaN;
  if (Number.isInteger(x) && x <= 171) {
    let f = 1;
    for (let i = 2; i < x; i++) f *= i;
    return f;
  }
  if (x < 0.5) return Math.PI / (Math.sin(Math.PI * x) * gamma(1 - x));
  const g = 7;
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61503916999185, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  x -= 1;
  let a = c[0]!;
  const t = x + g + 0.5;
  for (let i = 1; i < g + 2; i++) a += c[i]! / (x + i);
  return Math.sqrt(2 * Math.PI) * Math.pow(t, x + 0.5) * Math.exp(-t) * a;
}

function remainder(x: number, y: number): number {
  if (!Number.isFinite(y) && !Number.isNaN(y) && Number.isFinite(x)) return x;
  const n = Math.round(x / y);
  // round half to even
  const q = Math.abs(x / y - Math.trunc(x / y)) === 0.5 ? 2 * Math.round(x / y / 2) : n;
  return x - q * y;
}

export function mathModule(): Module {
  const m = new Map<string, Value>([
    ['e', new Float(Math.E)],
    ['pi', new Float(Math.PI)],
    ['inf', new Float(Infinity)],
    ['nan', new Float(NaN)],
  ]);
  const add = (b: Builtin): void => void m.set(b.name, b);
  add(new Builtin('ceil', (_t, args, kw) => {
    const [x] = unpackArgs(args, kw, ['x']);
    return isInt(x ?? null) ? x! : floatToInt(Math.ceil(num(x, 'ceil')));
  }));
  add(new Builtin('floor', (_t, args, kw) => {
    const [x] = unpackArgs(args, kw, ['x']);
    return isInt(x ?? null) ? x! : floatToInt(Math.floor(num(x, 'floor')));
  }));
  add(unary('fabs', Math.abs));
  add(unary('sqrt', Math.sqrt));
  add(unary('exp', Math.exp));
  add(unary('sin', Math.sin));
  add(unary('cos', Math.cos));
  add(unary('tan', Math.tan));
  add(unary('asin', Math.asin));
  add(unary('acos', Math.acos));
  add(unary('atan', Math.atan));
  add(unary('sinh', Math.sinh));
  add(unary('cosh', Math.cosh));
  add(unary('tanh', Math.tanh));
  add(unary('asinh', Math.asinh));
  add(unary('acosh', Math.acosh));
  add(unary('atanh', Math.atanh));
  add(unary('degrees', (x) => (x * 180) / Math.PI));
  add(unary('radians', (x) => (x * Math.PI) / 180));
  add(unary('gamma', gamma));
  add(unary('round', (x) => (x < 0 ? -Math.round(-x) : Math.round(x))));
  add(binaryFn('atan2', Math.atan2));
  add(binaryFn('copysign', (x, y) => Math.abs(x) * (y < 0 || Object.is(y, -0) ? -1 : 1)));
  add(binaryFn('hypot', Math.hypot));
  add(binaryFn('mod', (x, y) => x % y));
  add(binaryFn('pow', Math.pow));
  add(binaryFn('remainder', remainder));
  add(new Builtin('log', (_t, args, kw) => {
    const [x, base] = unpackArgs(args, kw, ['x', 'base?']);
    const v = num(x, 'log');
    if (base === undefined) return new Float(Math.log(v));
    const b = num(base, 'log');
    if (b === 1) throw new Fail('division by zero');
    return new Float(Math.log(v) / Math.log(b));
  }));
  return new Module('math', m);
}
