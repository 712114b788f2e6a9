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
    let field = format.slice(i + 1, j);
    i = j;
    let conv = 's';
    const bang = field.indexOf('!');
    if (bang >= 0) {
      conv = field.slice(bang + 1);
      field = field.slice(0, bang);
      if (conv !== 's' && conv !== 'r') {
        if (conv === '') throw new Fail('conversion expected after \'!\'');
        throw new Fail(`unknown conversion !${conv}`);
      }
    }
    if (field.includes(':')) throw new Fail('format spec features not supported in replacement fields');
    let v: Value;
    if (field === '') {
      if (mode === 'manual') throw new Fail('cannot switch from manual field specification to automatic field numbering');
      mode = 'auto';
      if (auto >= args.length) throw new Fail(`tuple index out of range`);
      v = args[auto++]!;
    } else if (/^\d+$/.test(field)) {
      if (mode === 'auto') throw new Fail('cannot switch from automatic field numbering to manual field specification');
      mode = 'manual';
      const n = Number(field);
      if (n >= args.length) throw new Fail(`tuple index out of range`);
      v = args[n]!;
    } else {
      if (/[.[]/.test(field)) throw new Fail(`attribute syntax x.y is not supported in replacement fields: ${field}`);
      if (/^[+-]?\d/.test(field) || !/^[A-Za-z_]\w*$/.test(field)) throw new Fail(`invalid field name ${repr(field)}`);
      const kv = kwargs?.find(([k]) => k === field);
      if (!kv) throw new Fail(`keyword ${field} not found`);
      v = kv[1];
    }
    out += conv === 'r' ? repr(v) : str(v);
    thread.checkSize(out.length, 'format');
  }
  return out;
}
