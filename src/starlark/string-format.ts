/** `str.format`: `{}` / `{0}` / `{name}` fields with `!s` / `!r` conversions. */
import type { Thread } from './function.js';
import { repr, str } from './format.js';
import { Fail, type Value } from './value.js';

export function formatString(thread: Thread, format: string, args: Value[], kwargs: [string, Value][] | undefined): string {
  let out = '';
  let auto = 0;
  let mode: 'none' | 'auto' | 'manual' = 'none';
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c === '}') {
      if (format[i + 1] === '}') {
        out += '}';
        i++;
        continue;
      }
      throw new Fail('single \'}\' in format');
    }
    if (c !== '{') {
      out += c;
      continue;
    }
    if (format[i + 1] === '{') {
      out += '{';
      i++;
      continue;
    }
    const j = format.indexOf('}', i);
    if (j < 0) throw new Fail("unmatched '{' in format");
    const field = format.slice(i + 1, j);
    i = j;
    // name, name!conv, name:spec or name!conv:spec
    const m = /^([^!:]*)(?:!([^:]*))?(?::(.*))?$/s.exec(field)!;
    const [, name = '', conv = 's', spec = ''] = m;
    let v: Value | undefined;
    if (name === '') {
      if (mode === 'manual') throw new Fail('cannot switch from manual field specification to automatic field numbering');
      mode = 'auto';
      if (auto >= args.length) throw new Fail(`tuple index out of range`);
      v = args[auto++]!;
    } else if (/^\d+$/.test(name)) {
      if (mode === 'auto') throw new Fail('cannot switch from automatic field numbering to manual field specification');
      mode = 'manual';
      const n = Number(name);
      if (n >= args.length) throw new Fail(`tuple index out of range`);
      v = args[n]!;
    } else {
      v = kwargs?.find(([k]) => k === name)?.[1];
      if (v === undefined) {
        // Python's x.y, a[i] and nested {...} are not Starlark
        if (name.includes('.')) throw new Fail(`attribute syntax x.y is not supported in replacement fields: ${name}`);
        if (name.includes('[')) throw new Fail(`element syntax a[i] is not supported in replacement fields: ${name}`);
        if (name.includes('{')) throw new Fail('nested replacement fields not supported');
        throw new Fail(`keyword ${name} not found`);
      }
    }
    if (spec !== '') throw new Fail(`format spec features not supported in replacement fields: ${spec}`);
    if (conv !== 's' && conv !== 'r') throw new Fail(`unknown conversion ${JSON.stringify(conv)}`);
    out += conv === 'r' ? repr(v) : str(v);
    thread.checkSize(out.length, 'format');
  }
  return out;
}
