/**
 * Starlark ints are arbitrary precision. An Int is a JS number while it is a safe integer
 * (the fast path for the ints programs mostly use) and a bigint beyond; every operation
 * returns the canonical form, so `===` on two small ints is integer equality.
 */
export type Int = number | bigint;

const MAX = BigInt(Number.MAX_SAFE_INTEGER);
const MIN = -MAX;

export function bigOrSmall(b: bigint): Int {
  return b <= MAX && b >= MIN ? Number(b) : b;
}

export function toBig(x: Int): bigint {
  return typeof x === 'bigint' ? x : BigInt(x);
}

function small(n: number): boolean {
  return Number.isSafeInteger(n);
}

export function intAdd(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a + b;
    if (small(r)) return r;
  }
  return bigOrSmall(toBig(a) + toBig(b));
}

export function intSub(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a - b;
    if (small(r)) return r;
  }
  return bigOrSmall(toBig(a) - toBig(b));
}

export function intMul(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a * b;
    if (small(r)) return r === 0 ? 0 : r; // no -0
  }
  return bigOrSmall(toBig(a) * toBig(b));
}

/** Floored division (b must not be zero). */
export function intFloorDiv(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = Math.floor(a / b);
    // exact for safe integers except where the quotient is inexact in float; check
    if (small(r) && Math.abs(a) < 2 ** 52 && Math.abs(b) < 2 ** 52) return r === 0 ? 0 : r;
  }
  const x = toBig(a);
  const y = toBig(b);
  let q = x / y;
  if ((x % y !== 0n) && ((x < 0n) !== (y < 0n))) q -= 1n;
  return bigOrSmall(q);
}

/** Floored modulo: the result has the sign of b (b must not be zero). */
export function intMod(a: Int, b: Int): Int {
  if (typeof a === 'number' && typeof b === 'number') {
    let r = a % b;
    if (r !== 0 && (r < 0) !== (b < 0)) r += b;
    return r === 0 ? 0 : r;
  }
  const x = toBig(a);
  const y = toBig(b);
  let r = x % y;
  if (r !== 0n && (r < 0n) !== (y < 0n)) r += y;
  return bigOrSmall(r);
}

export function intNeg(a: Int): Int {
  return typeof a === 'number' ? (a === 0 ? 0 : -a) : bigOrSmall(-a);
}

export function intCmp(a: Int, b: Int): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const I32 = 2 ** 31;
function bothI32(a: Int, b: Int): boolean {
  return typeof a === 'number' && typeof b === 'number' && a < I32 && a >= -I32 && b < I32 && b >= -I32;
}

export function intAnd(a: Int, b: Int): Int {
  return bothI32(a, b) ? ((a as number) & (b as number)) : bigOrSmall(toBig(a) & toBig(b));
}
export function intOr(a: Int, b: Int): Int {
  return bothI32(a, b) ? ((a as number) | (b as number)) : bigOrSmall(toBig(a) | toBig(b));
}
export function intXor(a: Int, b: Int): Int {
  return bothI32(a, b) ? ((a as number) ^ (b as number)) : bigOrSmall(toBig(a) ^ toBig(b));
}
export function intNot(a: Int): Int {
  return typeof a === 'number' && a < I32 && a >= -I32 ? ~a : bigOrSmall(~toBig(a));
}
export function intShl(a: Int, n: number): Int {
  return bigOrSmall(toBig(a) << BigInt(n));
}
export function intShr(a: Int, n: number): Int {
  return bigOrSmall(toBig(a) >> BigInt(n));
}

/** The nearest float to an int (round half to even, as Go's big.Float does). */
export function intToFloat(a: Int): number {
  return typeof a === 'number' ? a : Number(a);
}
