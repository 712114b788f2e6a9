/**
 * go-yaml's timestamp recognition (`parseTimestamp` in resolve.go, identical in v2 and v3) as a
 * yes/no check that follows Go's `time.Parse` exactly, since the printer must quote precisely
 * the strings Go would read back as timestamps.
 */

/**
 * `parseTimestamp`: four digits and `-`, then Go's `time.Parse` with one of
 * `2006-1-2T15:4:5.999999999Z07:00`, the same with `t`, `2006-1-2 15:4:5.999999999`, or
 * `2006-1-2`.
 */
export function isGoTimestamp(s: string): boolean {
  let i = 0;
  while (i < s.length && isAsciiDigit(s.charCodeAt(i))) i++;
  if (i !== 4 || s[4] !== '-') return false;
  const date = new TimeCursor(s, 4);
  if (!date.literal('-')) return false;
  const month = date.number();
  if (month < 1 || month > 12 || !date.literal('-')) return false;
  const day = date.number();
  if (day < 1 || day > daysInMonth(Number(s.slice(0, 4)), month)) return false;
  if (date.atEnd()) return true; // 2006-1-2
  const sep = s[date.pos];
  if (sep === 'T' || sep === 't') {
    date.pos++;
    return date.clock() && date.zone() && date.atEnd();
  }
  if (sep === ' ') {
    while (s[date.pos] === ' ') date.pos++; // Go's layout space matches a run of spaces
    return date.clock() && date.atEnd();
  }
  return false;
}

function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Days in a month of the proleptic Gregorian calendar, as Go's `time` package counts them. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** A reading position in a timestamp, with the pieces of Go's `time.Parse` we need. */
class TimeCursor {
  constructor(
    readonly s: string,
    public pos: number,
  ) {}

  atEnd(): boolean {
    return this.pos === this.s.length;
  }

  literal(ch: string): boolean {
    if (this.s[this.pos] !== ch) return false;
    this.pos++;
    return true;
  }

  /** Go's `getnum(s, false)`: one or two digits; -1 when there is none. */
  number(): number {
    const a = this.s.charCodeAt(this.pos);
    if (!isAsciiDigit(a)) return -1;
    const b = this.s.charCodeAt(this.pos + 1);
    if (!isAsciiDigit(b)) {
      this.pos += 1;
      return a - 0x30;
    }
    this.pos += 2;
    return (a - 0x30) * 10 + (b - 0x30);
  }

  /** `15:4:5` then an optional `.999999999` (Go also takes a comma). */
  clock(): boolean {
    const hour = this.number();
    if (hour < 0 || hour >= 24 || !this.literal(':')) return false;
    const minute = this.number();
    if (minute < 0 || minute >= 60 || !this.literal(':')) return false;
    const second = this.number();
    if (second < 0 || second >= 60) return false;
    const c = this.s[this.pos];
    if ((c === '.' || c === ',') && isAsciiDigit(this.s.charCodeAt(this.pos + 1))) {
      this.pos += 2;
      while (isAsciiDigit(this.s.charCodeAt(this.pos))) this.pos++;
    }
    return true;
  }

  /** `Z07:00`: `Z`, or a sign and `hh:mm` with hours up to 24 and minutes up to 60. */
  zone(): boolean {
    const s = this.s;
    if (s[this.pos] === 'Z') {
      this.pos++;
      return true;
    }
    if (s.length - this.pos < 6 || s[this.pos + 3] !== ':') return false;
    const sign = s[this.pos];
    const digits = [1, 2, 4, 5].map((k) => s.charCodeAt(this.pos + k));
    if ((sign !== '+' && sign !== '-') || !digits.every(isAsciiDigit)) return false;
    const [h1, h2, m1, m2] = digits.map((d) => d - 0x30) as [number, number, number, number];
    if (h1 * 10 + h2 > 24 || m1 * 10 + m2 > 60) return false;
    this.pos += 6;
    return true;
  }
}
