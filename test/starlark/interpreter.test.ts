import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  List, StarlarkEvalError, decodeUtf8, StarlarkResolveError, StarlarkSyntaxError, execFile, repr, type ExecOptions, type Value,
} from '../../src/starlark/index.js';

function run(source: string, extra: Partial<ExecOptions> = {}): Map<string, Value> {
  return execFile({ filename: 'main.star', source, ...extra }).globals;
}

function evalError(source: string, extra: Partial<ExecOptions> = {}): StarlarkEvalError {
  try {
    run(source, extra);
  } catch (e) {
    if (e instanceof StarlarkEvalError) return e;
    throw e;
  }
  assert.fail('no error');
}

test('ints are arbitrary precision, floats stay floats, dicts keep insertion order', () => {
  const g = run('big = (1 << 100) + 1\nf = 1.0\nh = 7 // 2\nd = {"b": 1, "a": 2}\nd["c"] = 3\nks = list(d)\nq = 3 / 2\n');
  assert.equal(g.get('big'), (1n << 100n) + 1n);
  assert.equal(repr(g.get('f')!), '1.0');
  assert.equal(g.get('h'), 3);
  assert.equal(repr(g.get('ks')!), '["b", "a", "c"]');
  assert.equal(repr(g.get('q')!), '1.5');
});

test('functions: defaults, *args, **kwargs, keyword-only, closures, lambdas, comprehensions', () => {
  const g = run(`
def f(a, b=2, *args, c, **kw):
    return [a, b, args, c, kw]
r1 = f(1, c=3)
r2 = f(1, 5, 6, 7, c=8, z=9)
def counter():
    n = [0]
    def inc():
        n[0] += 1
        return n[0]
    return inc
inc = counter()
inc()
r3 = inc()
r4 = sorted([x * y for x in range(3) for y in [1, 10] if x], key=lambda v: -v)
r5 = {k: v for k, v in zip(["a", "b"], (1, 2))}
`);
  assert.equal(repr(g.get('r1')!), '[1, 2, (), 3, {}]');
  assert.equal(repr(g.get('r2')!), '[1, 5, (6, 7), 8, {"z": 9}]');
  assert.equal(g.get('r3'), 2);
  assert.equal(repr(g.get('r4')!), '[20, 10, 2, 1]');
  assert.equal(repr(g.get('r5')!), '{"a": 1, "b": 2}');
});

test('module globals are frozen after execution', () => {
  const g = run('x = [1]\n');
  const x = g.get('x') as List;
  assert.equal(x.frozen, true);
  const e = evalError('load("m", "x")\nx.append(2)\n', { load: () => g });
  assert.match(e.message, /^main\.star:2:9: append: cannot append to frozen list$/);
});

test('syntax and resolve errors carry file:line:col', () => {
  assert.throws(() => run('x = 1 +\n'), (e: unknown) => e instanceof StarlarkSyntaxError && e.message === 'main.star:1:8: got newline, want primary expression');
  assert.throws(() => run('def f():\n    return y\n'), (e: unknown) => e instanceof StarlarkResolveError && e.message === 'main.star:2:12: undefined: y');
});

test('runtime errors carry file:line:col and a Starlark backtrace', () => {
  const e = evalError('def inner(d):\n    return d["missing"]\ndef outer():\n    return inner({})\nouter()\n');
  assert.equal(e.message, 'main.star:2:13: key "missing" not in dict');
  assert.deepEqual(e.backtrace.map((f) => `${f.name}@${f.pos.line}:${f.pos.col}`), ['<toplevel>@5:6', 'outer@4:17', 'inner@2:13']);
  assert.match(e.backtraceText, /Traceback \(most recent call last\):\n {2}main\.star:5:6: in <toplevel>\n {2}main\.star:4:17: in outer\n {2}main\.star:2:13: in inner\nError: key "missing" not in dict/);
  assert.equal(evalError('fail("boom", 1)\n').message, 'main.star:1:5: fail: boom 1');
});

test('limits: steps (infinite loop), deadline, recursion depth, runaway strings and lists', () => {
  const loop = evalError('def f():\n    while True:\n        pass\nf()\n', { dialect: { while: true }, limits: { maxSteps: 10_000 } });
  assert.equal(loop.limit, 'steps');
  assert.match(loop.message, /^main\.star:\d+:\d+: Starlark computation cancelled: too many steps/);

  // a clock that moves one tick each time it is read (every 1024 steps): the deadline of 5 ticks
  // comes at a known step, long before the default step budget, however fast the machine runs
  let ticks = 0;
  const fiveTicks = { deadline: 5, now: () => ticks++ };
  const slow = evalError('def f():\n    while True:\n        pass\nf()\n', { dialect: { while: true }, limits: fiveTicks });
  assert.equal(slow.limit, 'deadline');
  assert.match(slow.message, /^main\.star:\d+:\d+: Starlark computation cancelled: deadline exceeded$/);
  assert.equal(ticks, 7, 'read at steps 1024, 2048, ... 7168: the seventh read (6 > 5) stops it');

  const deep = evalError('def f(n):\n    return f(n + 1)\nf(0)\n', { dialect: { recursion: true }, limits: { maxDepth: 100 } });
  assert.equal(deep.limit, 'depth');
  assert.equal(deep.backtrace.length, 100); // the top level and 99 calls of f

  assert.match(evalError('x = "x" * 1000000000000\n').message, /repeat count 1000000000000 too large/);
  const doubling = evalError('def f():\n    s = "ab"\n    for i in range(100):\n        s = s + s\nf()\n', { limits: { maxValueSize: 1 << 20 } });
  assert.equal(doubling.limit, 'memory');
  const growing = evalError('def f():\n    l = [0]\n    for i in range(100):\n        l.extend(l)\nf()\n', { limits: { maxValueSize: 1 << 16 } });
  assert.equal(growing.limit, 'memory');
});

test('the recursion guard without the dialect option, and catchable errors are not limits', () => {
  const e = evalError('def f(n):\n    return f(n)\nf(1)\n');
  assert.match(e.message, /function f called recursively/);
  assert.equal(e.limit, undefined);
});

test('strings are UTF-8 byte sequences', () => {
  const g = run('s = "héllo"\nn = len(s)\ncps = len(list(s.codepoints()))\nu = s.upper()\nt = "ǆenan".title()\n');
  assert.equal(g.get('n'), 6);
  assert.equal(g.get('cps'), 5);
  // case maps rune by rune, as Go's unicode package does (ǆ's title form is the digraph ǅ)
  assert.equal(decodeUtf8(repr(g.get('u')!)), '"HÉLLO"');
  assert.equal(decodeUtf8(repr(g.get('t')!)), '"ǅenan"');
});
