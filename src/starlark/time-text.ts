/**
 * Time as text, as the `time` module's users write it: Go's reference-time layouts
 * ("2006-01-02T15:04:05Z07:00") for formatting and parsing, and Go's duration syntax
 * ("1h2m3.5s") both ways. Strings here are byte strings (text.ts), so "µ" is two bytes.
 */
import { Fail } from './value.js';

/** A civil time: what a clock and calendar in some zone show. */
export interface Civil {
  year: number;
  /** 1..12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanosecond: number;
  /** 0 = Sunday */
  weekday: number;
  /** 1..366 */
  yday: number;
  /** seconds east of UTC */
  offset: number;
  /** the zone's abbreviation ("UTC", "EST"), or "" for a fixed offset without a name */
  abbr: string;
}

/** What parsing found: the civil fields, and the zone offset when the text named one. */
export interface Parsed {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nanosecond: number;
  /** seconds east of UTC; undefined when the text had no zone; 'Z' for UTC */
  offset?: number | 'Z';
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The layout elements, longest first where one is a prefix of another. */
const ELEMENTS = [
  'January', 'Jan', 'Monday', 'Mon', 'MST', '2006', '002', '01', '02', '03', '04', '05', '06', '15', '__2', '_2', '1', '2', '3', '4', '5',
  'PM', 'pm', '-07:00:00', '-070000', '-0700', '-07:00', '-07', 'Z07:00:00', 'Z070000', 'Z0700', 'Z07:00', 'Z07',
];

type Chunk = { lit: string } | { el: string } | { frac: number; optional: boolean };

function chunks(layout: string): Chunk[] {
  const out: Chunk[] = [];
  let lit = '';
  for (let i = 0; i < layout.length; ) {
    const c = layout[i]!;
    if ((c === '.' || c === ',') && (layout[i + 1] === '0' || layout[i + 1] === '9')) {
      const d = layout[i + 1]!;
      let j = i + 1;
      while (layout[j] === d) j++;
      if (!/[0-9]/.test(layout[j] ?? '')) {
        if (lit) out.push({ lit });
        lit = '';
        out.push({ frac: j - i - 1, optional: d === '9' });
        i = j;
        continue;
      }
    }
    const el = ELEMENTS.find((e) => layout.startsWith(e, i));
    if (el) {
      if (lit) out.push({ lit });
      lit = '';
      out.push({ el });
      i += el.length;
      continue;
    }
    lit += c;
    i++;
  }
  if (lit) out.push({ lit });
  return out;
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

function formatOffset(offset: number, el: string): string {
  if (el.startsWith('Z') && offset === 0) return 'Z';
  const sign = offset < 0 ? '-' : '+';
  const a = Math.abs(offset);
  const [h, m, s] = [Math.floor(a / 3600), Math.floor(a / 60) % 60, a % 60];
  const form = el.replace(/^Z/, '-');
  switch (form) {
    case '-07': return sign + pad(h, 2);
    case '-0700': return sign + pad(h, 2) + pad(m, 2);
    case '-07:00': return `${sign}${pad(h, 2)}:${pad(m, 2)}`;
    case '-070000': return sign + pad(h, 2) + pad(m, 2) + pad(s, 2);
    default: return `${sign}${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}`;
  }
}

/** Go's Time.Format. */
export function formatTime(c: Civil, layout: string): string {
  let out = '';
  for (const ch of chunks(layout)) {
    if ('lit' in ch) {
      out += ch.lit;
      continue;
    }
    if ('frac' in ch) {
      let digits = pad(c.nanosecond, 9).slice(0, ch.frac);
      if (ch.optional) digits = digits.replace(/0+$/, '');
      if (digits || !ch.optional) out += '.' + digits;
      continue;
    }
    const h12 = c.hour % 12 === 0 ? 12 : c.hour % 12;
    switch (ch.el) {
      case 'January': out += MONTHS[c.month - 1]; break;
      case 'Jan': out += MONTHS[c.month - 1]!.slice(0, 3); break;
      case 'Monday': out += DAYS[c.weekday]; break;
      case 'Mon': out += DAYS[c.weekday]!.slice(0, 3); break;
      case 'MST': out += c.abbr || formatOffset(c.offset, '-0700'); break;
      case '2006': out += pad(c.year, 4); break;
      case '06': out += pad(c.year % 100, 2); break;
      case '002': out += pad(c.yday, 3); break;
      case '01': out += pad(c.month, 2); break;
      case '1': out += c.month; break;
      case '02': out += pad(c.day, 2); break;
      case '2': out += c.day; break;
      case '_2': out += String(c.day).padStart(2, ' '); break;
      case '__2': out += String(c.yday).padStart(3, ' '); break;
      case '15': out += pad(c.hour, 2); break;
      case '03': out += pad(h12, 2); break;
      case '3': out += h12; break;
      case '04': out += pad(c.minute, 2); break;
      case '4': out += c.minute; break;
      case '05': out += pad(c.second, 2); break;
      case '5': out += c.second; break;
      case 'PM': out += c.hour >= 12 ? 'PM' : 'AM'; break;
      case 'pm': out += c.hour >= 12 ? 'pm' : 'am'; break;
      default: out += formatOffset(c.offset, ch.el);
    }
  }
  return out;
}

/** Go's time.Parse: the fields a text holds, read with a layout. */
export function parseTime(value: string, layout: string): Parsed {
  const p: Parsed = { year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0, nanosecond: 0 };
  let pm: boolean | undefined;
  let rest = value;
  const fail = (what: string): never => {
    throw new Fail(`parsing time ${JSON.stringify(value)} as ${JSON.stringify(layout)}: cannot parse ${JSON.stringify(rest)} as ${JSON.stringify(what)}`);
  };
  const num = (el: string, min: number, max: number): number => {
    const m = new RegExp(`^[0-9]{${min},${max}}`).exec(rest);
    if (!m) return fail(el);
    rest = rest.slice(m[0].length);
    return Number(m[0]);
  };
  const fraction = (digits: string): void => {
    p.nanosecond = Number(digits.slice(0, 9).padEnd(9, '0'));
  };
  const list = chunks(layout);
  list.forEach((ch, k) => {
    if ('lit' in ch) {
      if (!rest.startsWith(ch.lit)) fail(ch.lit);
      rest = rest.slice(ch.lit.length);
      return;
    }
    if ('frac' in ch) {
      const m = ch.optional ? /^[.,]([0-9]+)/.exec(rest) : new RegExp(`^[.,]([0-9]{${ch.frac}})`).exec(rest);
      if (m) {
        fraction(m[1]!);
        rest = rest.slice(m[0].length);
      } else if (!ch.optional) fail('.' + '0'.repeat(ch.frac));
      return;
    }
    const el = ch.el;
    switch (el) {
      case 'January':
      case 'Jan': {
        const i = MONTHS.findIndex((m) => rest.startsWith(el === 'Jan' ? m.slice(0, 3) : m));
        if (i < 0) fail(el);
        rest = rest.slice(el === 'Jan' ? 3 : MONTHS[i]!.length);
        p.month = i + 1;
        return;
      }
      case 'Monday':
      case 'Mon': {
        const d = DAYS.find((m) => rest.startsWith(el === 'Mon' ? m.slice(0, 3) : m));
        if (!d) fail(el);
        rest = rest.slice(el === 'Mon' ? 3 : d!.length);
        return;
      }
      case 'MST': {
        const m = /^[A-Z]{3,5}/.exec(rest);
        if (!m) fail(el);
        rest = rest.slice(m![0].length);
        if (m![0] === 'UTC' || m![0] === 'GMT') p.offset = 'Z';
        return;
      }
      case '2006': p.year = num(el, 4, 4); return;
      case '06': {
        const y = num(el, 2, 2);
        p.year = y >= 69 ? 1900 + y : 2000 + y;
        return;
      }
      case '002':
      case '__2': num(el, el === '002' ? 3 : 1, 3); return;
      case '01': p.month = num(el, 2, 2); break;
      case '1': p.month = num(el, 1, 2); break;
      case '02': p.day = num(el, 2, 2); break;
      case '_2':
        if (rest.startsWith(' ')) rest = rest.slice(1);
        p.day = num(el, 1, 2);
        break;
      case '2': p.day = num(el, 1, 2); break;
      case '15': p.hour = num(el, 1, 2); break;
      case '03': p.hour = num(el, 2, 2); break;
      case '3': p.hour = num(el, 1, 2); break;
      case '04': p.minute = num(el, 2, 2); break;
      case '4': p.minute = num(el, 1, 2); break;
      case '05':
      case '5': {
        p.second = num(el, el === '05' ? 2 : 1, 2);
        // Go reads a fraction after the seconds even when the layout has none
        const next = list[k + 1];
        const m = next && 'frac' in next ? null : /^[.,]([0-9]+)/.exec(rest);
        if (m) {
          fraction(m[1]!);
          rest = rest.slice(m[0].length);
        }
        break;
      }
      case 'PM':
      case 'pm': {
        const m = /^(AM|PM|am|pm)/.exec(rest);
        if (!m) fail(el);
        pm = m![0].toUpperCase() === 'PM';
        rest = rest.slice(2);
        return;
      }
      default: {
        if (el.startsWith('Z') && rest.startsWith('Z')) {
          rest = rest.slice(1);
          p.offset = 'Z';
          return;
        }
        const form = el.replace(/^Z/, '-');
        const shapes: Record<string, RegExp> = {
          '-07': /^([+-])([0-9]{2})/,
          '-0700': /^([+-])([0-9]{2})([0-9]{2})/,
          '-07:00': /^([+-])([0-9]{2}):([0-9]{2})/,
          '-070000': /^([+-])([0-9]{2})([0-9]{2})([0-9]{2})/,
          '-07:00:00': /^([+-])([0-9]{2}):([0-9]{2}):([0-9]{2})/,
        };
        const m = shapes[form]!.exec(rest);
        if (!m) fail(el);
        rest = rest.slice(m![0].length);
        const secs = Number(m![2]) * 3600 + Number(m![3] ?? 0) * 60 + Number(m![4] ?? 0);
        p.offset = m![1] === '-' ? -secs : secs;
        return;
      }
    }
    if (p.month < 1 || p.month > 12) throw new Fail(`parsing time ${JSON.stringify(value)}: month out of range`);
    if (p.day < 1 || p.day > 31) throw new Fail(`parsing time ${JSON.stringify(value)}: day out of range`);
    if (p.hour > 23 || p.minute > 59 || p.second > 59) throw new Fail(`parsing time ${JSON.stringify(value)}: ${el === '15' || el === '03' || el === '3' ? 'hour' : el.includes('4') ? 'minute' : 'second'} out of range`);
  });
  if (rest) throw new Fail(`parsing time ${JSON.stringify(value)}: extra text: ${JSON.stringify(rest)}`);
  if (pm !== undefined) p.hour = (p.hour % 12) + (pm ? 12 : 0);
  return p;
}

const UNITS: Record<string, bigint> = {
  ns: 1n, us: 1000n, '\xc2\xb5s': 1000n, '\xce\xbcs': 1000n, ms: 1000000n, s: 1000000000n, m: 60000000000n, h: 3600000000000n,
};

/** Go's time.ParseDuration, in nanoseconds. */
export function parseDuration(text: string): bigint {
  const invalid = (): never => {
    throw new Fail(`time: invalid duration ${JSON.stringify(text)}`);
  };
  let s = text;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') invalid();
  let total = 0n;
  while (s) {
    const m = /^([0-9]*)(?:\.([0-9]*))?([^0-9.]*)/.exec(s)!;
    const [all, whole = '', frac = '', unit = ''] = m;
    if (!whole && !frac) invalid();
    if (!unit) throw new Fail(`time: missing unit in duration ${JSON.stringify(text)}`);
    const scale = UNITS[unit];
    if (scale === undefined) throw new Fail(`time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(text)}`);
    total += BigInt(whole || '0') * scale;
    if (frac) total += (BigInt(frac) * scale) / 10n ** BigInt(frac.length);
    s = s.slice(all.length);
  }
  return neg ? -total : total;
}

/** Go's Duration.String: "1h2m3.5s", "1.5ms", "0s". */
export function formatDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const sign = ns < 0n ? '-' : '';
  const u = ns < 0n ? -ns : ns;
  const frac = (v: bigint, digits: number): string => {
    const unit = 10n ** BigInt(digits);
    const f = String(v % unit).padStart(digits, '0').replace(/0+$/, '');
    return String(v / unit) + (f ? '.' + f : '');
  };
  if (u < 1000n) return `${sign}${u}ns`;
  if (u < 1000000n) return `${sign}${frac(u, 3)}\xc2\xb5s`;
  if (u < 1000000000n) return `${sign}${frac(u, 6)}ms`;
  const secs = frac(u % 60000000000n, 9) + 's';
  const mins = u / 60000000000n;
  if (mins === 0n) return sign + secs;
  const hours = mins / 60n;
  return sign + (hours > 0n ? `${hours}h` : '') + `${mins % 60n}m` + secs;
}
