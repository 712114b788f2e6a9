/**
 * The `time` module (starlark-go's lib/time): time values (an instant in a location) and
 * durations, with their attributes, methods and arithmetic. Locations are IANA names, read
 * through the host's Intl time-zone data; "Local" is UTC, so a program's output does not
 * depend on the machine. `time.now()` reads the clock the host passes in.
 */
import { unpackArgs } from './args.js';
import { Builtin } from './function.js';
import { bigOrSmall } from './int.js';
import { Module } from './struct.js';
import { formatDuration, formatTime, parseDuration, parseTime, type Civil, type Parsed } from './time-text.js';
import { Fail, Float, StarlarkObject, isInt, typeOf, type HasAttrs, type HasBinary, type Value } from './value.js';

interface TimeModuleOptions {
  /** the clock `time.now()` reads, in milliseconds since the epoch (default Date.now) */
  now?: () => number;
}

const NS_PER_MS = 1_000_000n;
const NS_PER_S = 1_000_000_000n;
/** Go's zero time, 0001-01-01T00:00:00Z, in Unix nanoseconds */
const ZERO_TIME = -62135596800n * NS_PER_S;

/** A location: its UTC offset (seconds) and abbreviation at an instant (ms). */
interface Zone {
  readonly name: string;
  at(ms: number): { offset: number; abbr: string };
}

const UTC: Zone = { name: 'UTC', at: () => ({ offset: 0, abbr: 'UTC' }) };

function fixedZone(offset: number): Zone {
  return { name: '', at: () => ({ offset, abbr: '' }) };
}

function ianaZone(name: string): Zone | undefined {
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: name, hourCycle: 'h23', era: 'short', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric', timeZoneName: 'short',
    });
  } catch {
    return undefined;
  }
  return {
    name,
    at(ms) {
      const parts: Record<string, string> = {};
      for (const p of fmt.formatToParts(new Date(Math.floor(ms / 1000) * 1000))) parts[p.type] = p.value;
      const year = parts.era === 'BC' ? 1 - Number(parts.year) : Number(parts.year);
      const local = civilToUTCms(year, Number(parts.month), Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
      return { offset: Math.round((local - Math.floor(ms / 1000) * 1000) / 1000), abbr: parts.timeZoneName ?? name };
    },
  };
}

/** Milliseconds since the epoch of a civil time read as UTC; out-of-range fields carry over as Go's time.Date does. */
function civilToUTCms(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  return d.getTime();
}

/** The locations of one module instance, each looked up once. */
class Zones {
  private readonly known = new Map<string, Zone | undefined>([['UTC', UTC], ['', UTC], ['Local', UTC]]);
  get(name: string): Zone | undefined {
    if (!this.known.has(name)) this.known.set(name, ianaZone(name));
    return this.known.get(name);
  }
  load(name: string): Zone {
    const z = this.get(name);
    if (!z) throw new Fail(`unknown time zone ${name}`);
    return z;
  }
}

const floorDiv = (a: bigint, b: bigint): bigint => (a % b !== 0n && a < 0n !== b < 0n ? a / b - 1n : a / b);

class Duration extends StarlarkObject implements HasAttrs, HasBinary {
  readonly typeName = 'time.duration';
  constructor(readonly ns: bigint) {
    super();
  }
  attr(name: string): Value | undefined {
    const ns = this.ns;
    const float = (unit: bigint): Float => new Float(Number(ns / unit) + Number(ns % unit) / Number(unit));
    switch (name) {
      case 'hours': return float(3600n * NS_PER_S);
      case 'minutes': return float(60n * NS_PER_S);
      case 'seconds': return float(NS_PER_S);
      case 'milliseconds': return bigOrSmall(ns / NS_PER_MS);
      case 'microseconds': return bigOrSmall(ns / 1000n);
      case 'nanoseconds': return bigOrSmall(ns);
    }
    return undefined;
  }
  attrNames(): string[] {
    return ['hours', 'minutes', 'seconds', 'milliseconds', 'microseconds', 'nanoseconds'];
  }
  noAttrMessage(name: string): string {
    return `unrecognized time.duration attribute "${name}"`;
  }
  repr(): string {
    return formatDuration(this.ns);
  }
  truth(): boolean {
    return this.ns !== 0n;
  }
  hashKey(): string {
    return `duration:${this.ns}`;
  }
  equals(o: Value): boolean {
    return o instanceof Duration && o.ns === this.ns;
  }
  compareTo(o: Value): number {
    const y = (o as Duration).ns;
    return this.ns < y ? -1 : this.ns > y ? 1 : 0;
  }
  binaryOp(op: string, y: Value, side: 'left' | 'right'): Value | undefined {
    const x = this.ns;
    const zero = (): never => {
      throw new Fail('time.duration division by zero');
    };
    switch (op) {
      case '+':
        if (y instanceof Duration) return new Duration(x + y.ns);
        if (y instanceof Time) return y.plus(x);
        break;
      case '-':
        if (y instanceof Duration) return new Duration(side === 'left' ? x - y.ns : y.ns - x);
        break;
      case '/':
        if (y instanceof Duration) return y.ns === 0n ? zero() : new Float(Number(x) / Number(y.ns));
        if (side === 'right') throw new Fail('unsupported operation');
        if (isInt(y)) return BigInt(y) === 0n ? zero() : new Duration(x / BigInt(y));
        if (y instanceof Float) return y.v === 0 ? zero() : new Duration(BigInt(Math.trunc(Number(x) / y.v)));
        break;
      case '//':
        if (y instanceof Duration) return y.ns === 0n ? zero() : bigOrSmall(x / y.ns);
        break;
      case '*':
        if (isInt(y)) return new Duration(x * BigInt(y));
        break;
    }
    return undefined;
  }
}

class Time extends StarlarkObject implements HasAttrs, HasBinary {
  readonly typeName = 'time.time';
  constructor(
    /** Unix nanoseconds */
    readonly ns: bigint,
    readonly zone: Zone,
    private readonly zones: Zones,
  ) {
    super();
  }
  civil(): Civil {
    const ms = Number(floorDiv(this.ns, NS_PER_MS));
    const { offset, abbr } = this.zone.at(ms);
    const d = new Date(Number(floorDiv(this.ns, NS_PER_S)) * 1000 + offset * 1000);
    const jan1 = civilToUTCms(d.getUTCFullYear(), 1, 1, 0, 0, 0);
    return {
      year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(),
      hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(),
      nanosecond: Number(this.ns - floorDiv(this.ns, NS_PER_S) * NS_PER_S),
      weekday: d.getUTCDay(), yday: Math.floor((d.getTime() - jan1) / 86_400_000) + 1, offset, abbr,
    };
  }
  plus(ns: bigint): Time {
    return new Time(this.ns + ns, this.zone, this.zones);
  }
  attr(name: string): Value | undefined {
    switch (name) {
      case 'year':
      case 'month':
      case 'day':
      case 'hour':
      case 'minute':
      case 'second':
      case 'nanosecond': return this.civil()[name];
      case 'unix': return bigOrSmall(floorDiv(this.ns, NS_PER_S));
      case 'unix_nano': return bigOrSmall(this.ns);
      case 'format': return new Builtin('format', (_t, args, kw) => {
        const [layout] = unpackArgs(args, kw, ['x']);
        if (typeof layout !== 'string') throw new Fail(`format: got ${typeOf(layout!)}, want string`);
        return formatTime(this.civil(), layout);
      }, this);
      case 'in_location': return new Builtin('in_location', (_t, args, kw) => {
        const [loc] = unpackArgs(args, kw, ['x']);
        if (typeof loc !== 'string') throw new Fail(`in_location: got ${typeOf(loc!)}, want string`);
        return new Time(this.ns, this.zones.load(loc), this.zones);
      }, this);
    }
    return undefined;
  }
  attrNames(): string[] {
    return ['day', 'format', 'hour', 'in_location', 'minute', 'month', 'nanosecond', 'second', 'unix', 'unix_nano', 'year'];
  }
  repr(): string {
    return formatTime(this.civil(), '2006-01-02 15:04:05.999999999 -0700 MST');
  }
  truth(): boolean {
    return this.ns !== ZERO_TIME;
  }
  hashKey(): string {
    return `time:${this.ns}`;
  }
  equals(o: Value): boolean {
    return o instanceof Time && o.ns === this.ns;
  }
  compareTo(o: Value): number {
    const y = (o as Time).ns;
    return this.ns < y ? -1 : this.ns > y ? 1 : 0;
  }
  binaryOp(op: string, y: Value, side: 'left' | 'right'): Value | undefined {
    if (side !== 'left') return undefined;
    if (op === '+' && y instanceof Duration) return this.plus(y.ns);
    if (op === '-' && y instanceof Duration) return this.plus(-y.ns);
    if (op === '-' && y instanceof Time) return new Duration(this.ns - y.ns);
    return undefined;
  }
}

/** The instant a civil time names in a zone (Go's time.Date: the earlier of two at a fold). */
function instant(p: Omit<Parsed, 'offset'>, zone: Zone): bigint {
  const local = civilToUTCms(p.year, p.month, p.day, p.hour, p.minute, p.second);
  let off = zone.at(local).offset;
  const again = zone.at(local - off * 1000).offset;
  if (again !== off) off = again;
  return BigInt(local - off * 1000) * NS_PER_MS + BigInt(p.nanosecond);
}

function int(v: Value | undefined, fn: string, dflt = 0): number {
  if (v === undefined) return dflt;
  if (!isInt(v)) throw new Fail(`${fn}: got ${typeOf(v)}, want int`);
  return Number(v);
}

function str(v: Value | undefined, fn: string, dflt: string): string {
  if (v === undefined) return dflt;
  if (typeof v !== 'string') throw new Fail(`${fn}: got ${typeOf(v)}, want string`);
  return v;
}

export function timeModule(options: TimeModuleOptions = {}): Module {
  const zones = new Zones();
  const clock = options.now ?? Date.now;
  const members = new Map<string, Value>([
    ['now', new Builtin('now', (_t, args, kw) => {
      unpackArgs(args, kw, []);
      return new Time(BigInt(Math.floor(clock())) * NS_PER_MS, UTC, zones);
    })],
    ['from_timestamp', new Builtin('from_timestamp', (_t, args, kw) => {
      if (kw?.length) throw new Fail('from_timestamp: unexpected keyword arguments');
      const [sec, nsec] = unpackArgs(args, kw, ['sec', 'nsec?']);
      if (!isInt(sec!) || (nsec !== undefined && !isInt(nsec))) throw new Fail('from_timestamp: want int arguments');
      return new Time(BigInt(sec) * NS_PER_S + BigInt(nsec ?? 0), UTC, zones);
    })],
    ['is_valid_timezone', new Builtin('is_valid_timezone', (_t, args, kw) => {
      const [name] = unpackArgs(args, kw, ['x']);
      return zones.get(str(name, 'is_valid_timezone', '')) !== undefined;
    })],
    ['parse_duration', new Builtin('parse_duration', (_t, args, kw) => {
      const [d] = unpackArgs(args, kw, ['d']);
      if (d instanceof Duration) return d;
      if (typeof d === 'string') return new Duration(parseDuration(d));
      throw new Fail(`parse_duration: got ${typeOf(d!)}, want a duration, string, or int`);
    })],
    ['parse_time', new Builtin('parse_time', (_t, args, kw) => {
      const [x, format, location] = unpackArgs(args, kw, ['x', 'format?', 'location?']);
      const p = parseTime(str(x, 'parse_time', ''), str(format, 'parse_time', '2006-01-02T15:04:05Z07:00'));
      const zone = zones.load(str(location, 'parse_time', 'UTC'));
      if (p.offset === undefined) return new Time(instant(p, zone), zone, zones);
      if (p.offset === 'Z') return new Time(instant(p, UTC), UTC, zones);
      const ns = instant(p, UTC) - BigInt(p.offset) * NS_PER_S;
      // an offset the location has at that instant keeps the location (Go's ParseInLocation)
      const keep = zone.at(Number(ns / NS_PER_MS)).offset === p.offset;
      return new Time(ns, keep ? zone : p.offset === 0 ? UTC : fixedZone(p.offset), zones);
    })],
    ['time', new Builtin('time', (_t, args, kw) => {
      if (args.length) throw new Fail('time: unexpected positional arguments');
      const names = ['year?', 'month?', 'day?', 'hour?', 'minute?', 'second?', 'nanosecond?', 'location?'];
      const [year, month, day, hour, minute, second, nanosecond, location] = unpackArgs(args, kw, names);
      const zone = zones.load(str(location, 'time', ''));
      const p = {
        year: int(year, 'time'), month: int(month, 'time'), day: int(day, 'time'), hour: int(hour, 'time'),
        minute: int(minute, 'time'), second: int(second, 'time'), nanosecond: int(nanosecond, 'time'),
      };
      return new Time(instant(p, zone), zone, zones);
    })],
  ]);
  const units: [string, bigint][] = [['nanosecond', 1n], ['microsecond', 1000n], ['millisecond', NS_PER_MS], ['second', NS_PER_S], ['minute', 60n * NS_PER_S], ['hour', 3600n * NS_PER_S]];
  for (const [name, ns] of units) members.set(name, new Duration(ns));
  return new Module('time', members);
}
