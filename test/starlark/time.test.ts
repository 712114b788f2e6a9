import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StarlarkEvalError, decodeUtf8, execFile, str, timeModule, type Value } from '../../src/starlark/index.js';

/** Runs a program that has `time` loaded, with the clock given. */
function run(source: string, now = (): number => Date.UTC(2024, 1, 29, 12, 30, 45, 250)): Map<string, Value> {
  return execFile({
    filename: 'main.star',
    source: `load("time.star", "time")\n${source}`,
    load: (m) => {
      if (m !== 'time.star') throw new Error('no such module');
      return new Map([['time', timeModule({ now })]]);
    },
  }).globals;
}

const text = (g: Map<string, Value>, name: string): string => decodeUtf8(str(g.get(name)!));

test('time.now() reads the clock the host passes in', () => {
  const g = run('t = time.now()\ns = str(t)\nu = t.unix\nms = t.nanosecond');
  assert.equal(text(g, 's'), '2024-02-29 12:30:45.25 +0000 UTC');
  assert.equal(g.get('u'), Date.UTC(2024, 1, 29, 12, 30, 45) / 1000);
  assert.equal(g.get('ms'), 250_000_000);
  let calls = 0;
  run('a = time.now()\nb = time.now()', () => Date.UTC(2000, 0, 1) + 1000 * calls++);
  assert.equal(calls, 2);
});

test('times in IANA locations: offsets, daylight saving, formatting with Go layouts', () => {
  const g = run(`
t = time.parse_time("2024-07-04T16:05:09Z")
ny = t.in_location("America/New_York")
a = ny.format("Mon Jan _2 15:04:05 MST 2006")
b = ny.format("2006-01-02T15:04:05.000Z07:00")
c = time.parse_time("2024-01-15 09:00", format = "2006-01-02 15:04", location = "Europe/Berlin").format("15:04 -0700")
d = time.time(year = 2024, month = 3, day = 10, hour = 12, location = "America/New_York") - time.time(year = 2024, month = 3, day = 9, hour = 12, location = "America/New_York")
same = t == ny
`);
  assert.equal(text(g, 'a'), 'Thu Jul  4 12:05:09 EDT 2024');
  assert.equal(text(g, 'b'), '2024-07-04T12:05:09.000-04:00');
  assert.equal(text(g, 'c'), '09:00 +0100');
  assert.equal(text(g, 'd'), '23h0m0s'); // the day the clocks went forward
  assert.equal(g.get('same'), true);
});

test('durations: Go syntax both ways, arithmetic with times and numbers', () => {
  const g = run(`
d = time.parse_duration("1h15m30.5s")
s = str(d)
half = str(d / 2)
small = str(time.parse_duration("1500us"))
neg = str(-1 * time.parse_duration("90s"))
later = str(time.from_timestamp(0) + d)
`);
  assert.equal(text(g, 's'), '1h15m30.5s');
  assert.equal(text(g, 'half'), '37m45.25s');
  assert.equal(text(g, 'small'), '1.5ms');
  assert.equal(text(g, 'neg'), '-1m30s');
  assert.equal(text(g, 'later'), '1970-01-01 01:15:30.5 +0000 UTC');
});

test('bad time text fails with the reason', () => {
  const cases: [string, RegExp][] = [
    ['time.parse_duration("5 parsecs")', /unknown unit/],
    ['time.parse_time("2024-13-01T00:00:00Z")', /month out of range/],
    ['time.parse_time("yesterday")', /cannot parse "yesterday" as "2006"/],
    ['time.time(year = 2024, location = "Mars/Olympus")', /unknown time zone Mars\/Olympus/],
  ];
  for (const [expr, want] of cases) {
    assert.throws(() => run(`x = ${expr}`), (e: unknown) => e instanceof StarlarkEvalError && want.test(decodeUtf8(e.msg)), expr);
  }
});
