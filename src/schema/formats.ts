/**
 * The string formats Kubernetes gives meaning to, each as the API server reads it: what a Go
 * `metav1.Time`, `[]byte`, `resource.Quantity` or `metav1.Duration` accepts when it decodes the
 * value. A format not listed here says nothing that is checked (as the API server ignores
 * formats it does not know).
 */

/** Why `value` is not of `format`, or undefined when it is (or the format checks nothing). */
export function formatProblem(format: string, value: string | number | bigint): string | undefined {
  const check = FORMATS[format];
  if (!check) return undefined;
  return check(value);
}

/** Whether strings of this format may also be written as numbers (a quantity may: `cpu: 1`). */
export function acceptsNumbers(format: string | undefined): boolean {
  return format === 'quantity';
}

const INT32: readonly [bigint, bigint] = [-(2n ** 31n), 2n ** 31n - 1n];
const INT64: readonly [bigint, bigint] = [-(2n ** 63n), 2n ** 63n - 1n];

function inRange(value: string | number | bigint, [min, max]: readonly [bigint, bigint], name: string): string | undefined {
  if (typeof value === 'string') return undefined;
  if (typeof value === 'number' && !Number.isInteger(value)) return undefined;
  const n = BigInt(value);
  return n < min || n > max ? `${String(value)} is out of the ${name} range [${min}, ${max}]` : undefined;
}

// RFC 3339 as Go's time.Parse(time.RFC3339, …) reads it: a `T`, seconds, an optional fraction, Z or an offset
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// Go's time.ParseDuration, with the day and week of the format the API server checks custom resources with
const DURATION = /^[-+]?(?:0|(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h|d|w))+)$/;
// resource.ParseQuantity: a signed decimal number, then a binary or decimal suffix or an exponent
const QUANTITY = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

function validDate(y: string, m: string, d: string): boolean {
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const days = [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

const FORMATS: Readonly<Record<string, (value: string | number | bigint) => string | undefined>> = {
  int32: (v) => inRange(v, INT32, 'int32'),
  int64: (v) => inRange(v, INT64, 'int64'),
  'date-time': (v) => {
    if (typeof v !== 'string') return undefined;
    const m = DATE_TIME.exec(v);
    const ok = m && validDate(m[1]!, m[2]!, m[3]!) && Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) < 60 && (m[9] === undefined || (Number(m[9]) < 24 && Number(m[10]) < 60));
    return ok ? undefined : `${JSON.stringify(v)} is not a date-time (RFC 3339, such as 2006-01-02T15:04:05Z)`;
  },
  date: (v) => {
    if (typeof v !== 'string') return undefined;
    const m = DATE.exec(v);
    return m && validDate(m[1]!, m[2]!, m[3]!) ? undefined : `${JSON.stringify(v)} is not a date (such as 2006-01-02)`;
  },
  byte: (v) => (typeof v !== 'string' || BASE64.test(v.replace(/[\r\n]/g, '')) ? undefined : 'not valid base64 (standard encoding, with padding)'),
  duration: (v) => (typeof v !== 'string' || DURATION.test(v) ? undefined : `${JSON.stringify(v)} is not a duration (such as 1h30m, 90s or 250ms)`),
  quantity: (v) => (typeof v !== 'string' || QUANTITY.test(v) ? undefined : `${JSON.stringify(v)} is not a quantity (such as 500m, 2, 1.5Gi or 1e3)`),
};
