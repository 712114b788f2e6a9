import type { Value } from '../yaml/value.js';
import { formatNumber } from '../yaml/emit.js';

/**
 * Kubernetes' `$(VAR)` expansion as kustomize uses it for vars: `$$` escapes, an unknown name
 * is left as written, and a string that is exactly one reference takes the variable's own
 * type (so `port: $(PORT)` can become a number).
 */
export function expandVars(input: string, lookup: (name: string) => Value | undefined): Value {
  let out = '';
  let checkpoint = 0;
  for (let cursor = 0; cursor < input.length; cursor++) {
    if (input[cursor] !== '$' || cursor + 1 >= input.length) continue;
    out += input.slice(checkpoint, cursor);
    const next = input[cursor + 1];
    let advance = 1;
    if (next === '$') out += '$';
    else if (next === '(') {
      const close = input.indexOf(')', cursor + 2);
      if (close < 0) out += '$(';
      else {
        const name = input.slice(cursor + 2, close);
        const value = lookup(name);
        if (value !== undefined && input === `$(${name})`) return value;
        out += value === undefined ? `$(${name})` : display(value);
        advance = close - cursor;
      }
    } else out += '$' + next;
    cursor += advance;
    checkpoint = cursor + 1;
  }
  return out + input.slice(checkpoint);
}

/** Go's fmt.Sprint of a decoded YAML value. */
function display(v: Value): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return formatNumber(v);
  if (v === null) return '<nil>';
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(display).join(' ')}]`;
  return `map[${Object.keys(v)
    .sort()
    .map((k) => `${k}:${display(v[k]!)}`)
    .join(' ')}]`;
}
