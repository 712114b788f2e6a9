/**
 * Regular expressions from kustomizations (image names, patch targets, replacement selectors and
 * field paths) follow Go's RE2 syntax and match in linear time. The build cases' outputs and
 * errors are what `kubectl kustomize` (kustomize v5.5.0) printed for the same files.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { build } from '../../src/build/build.js';
import { KustomizeError } from '../../src/errors.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { RE2JS } from 're2js';
import { compileGoRegexp, GoRegexpSyntaxError, isDotted, isLiteral } from '../../src/model/go-regexp.js';
import fc from 'fast-check';
import { assertProperty } from '../property.js';

describe('compileGoRegexp', () => {
  const matches = (pattern: string, s: string, anchor = false): boolean => compileGoRegexp(pattern, anchor).test(s);

  test('Go syntax JavaScript lacks or reads differently', () => {
    assert.ok(matches('^[[:upper:]][[:alpha:]]+$', 'Web'));
    assert.ok(matches('^\\pL+$', 'wéb'));
    assert.ok(matches('^w(?i)EB$', 'web'));
    assert.ok(!matches('^W(?i)eb$', 'web'));
    assert.ok(matches('^a\\Q.*\\E$', 'a.*'));
    assert.ok(matches('web\\z', 'web'));
    assert.ok(matches('^\\x{77}eb$', 'web'));
    assert.ok(!matches('^a.b$', 'a\nb'));
    assert.ok(matches('(?s)^a.b$', 'a\nb'));
  });

  test('anchoring wraps the whole alternation', () => {
    assert.ok(!matches('a|web', 'xweb', true));
    assert.ok(matches('a|web', 'xweb', false));
  });

  test('errors are Go\'s', () => {
    const cases: [string, string][] = [
      ['a{1001}', 'error parsing regexp: invalid repeat count: `{1001}`'],
      ['we(?=b)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
      ['a\\C', 'error parsing regexp: invalid escape sequence: `\\C`'],
      ['a**', 'error parsing regexp: invalid nested repetition operator: `**`'],
    ];
    for (const [pattern, message] of cases) assert.throws(() => compileGoRegexp(pattern, false), new GoRegexpSyntaxError(message));
    assert.throws(() => compileGoRegexp('(?P<x>a', true), new GoRegexpSyntaxError('error parsing regexp: missing closing ): `^(?:(?P<x>a)$`'));
  });

  test('a huge expression in an error is shortened, too large or too deep ones are errors', () => {
    const long = '(' + 'a'.repeat(33_000);
    assert.throws(() => compileGoRegexp(long, false), new GoRegexpSyntaxError(`error parsing regexp: missing closing ): \`(${'a'.repeat(199)}…\` (33001 characters)`));
    const deep = '('.repeat(1001) + 'a' + ')'.repeat(1001);
    assert.throws(() => compileGoRegexp(deep, true), new GoRegexpSyntaxError('error parsing regexp: expression nests too deeply'));
    assert.throws(() => compileGoRegexp('a{1000}'.repeat(1500), true), new GoRegexpSyntaxError('error parsing regexp: expression too large'));
  });

  test('a pattern without metacharacters (matched by string comparison) matches what RE2 matches', () => {
    const inputs = ['web', 'xweb', 'webx', 'we', '', 'web\n', 'WEB', 'wéb', 'a-b_c/d:e', 'x a-b_c/d:e y'];
    for (const pattern of ['web', '', 'a-b_c/d:e', 'wéb', 'we b']) {
      for (const anchor of [true, false]) {
        const re2 = RE2JS.compile(anchor ? `^(?:${pattern})$` : pattern);
        for (const s of inputs) assert.equal(compileGoRegexp(pattern, anchor).test(s), re2.test(s), `${pattern} ${anchor} ${JSON.stringify(s)}`);
      }
    }
    assert.ok(isLiteral('app-0001') && !isLiteral('app-000[0-9]') && !isLiteral('a.b') && !isLiteral('(?i)a'));
  });

  test('an anchored pattern whose only metacharacter is `.` (matched by hand) matches what RE2 matches', async () => {
    const PARTS = ['networking', '.', 'istio', 'io', 'a', '-', 'é', '\n', '😀', 'X', ''];
    await assertProperty(
      fc.property(fc.array(fc.constantFrom(...PARTS), { minLength: 1, maxLength: 5 }), fc.array(fc.constantFrom(...PARTS), { maxLength: 6 }), fc.boolean(), (patternParts, other, near) => {
        const pattern = patternParts.join('');
        // subjects near the pattern (the pattern with each `.` replaced) are the interesting ones
        const s = near ? pattern.replaceAll('.', other[0] ?? '.') + other.slice(1).join('') : other.join('');
        assert.equal(compileGoRegexp(pattern, true).test(s), RE2JS.compile(`^(?:${pattern})$`).test(s), `${JSON.stringify(pattern)} ${JSON.stringify(s)}`);
      }),
      5000,
    );
    assert.ok(isDotted('networking.istio.io') && !isDotted('a.*') && !isDotted('a|b'));
  });

  test('a compiled pattern is reused: the same one comes back for the same pattern and anchoring', () => {
    assert.equal(compileGoRegexp('ab+c', true), compileGoRegexp('ab+c', true));
    assert.notEqual(compileGoRegexp('ab+c', true), compileGoRegexp('ab+c', false));
  });

  test('nested quantifiers over a long input do not backtrack', { timeout: 60_000 }, () => {
    assert.ok(!matches('^(a+)+b$', 'a'.repeat(5000) + 'c'));
    assert.ok(!matches('(a+)+'.repeat(6600), 'b'.repeat(64)));
  });
});

const RES = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: app
        image: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac
      - name: Sidecar
        image: example.com/ns/proxy:1.0
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: Config-1
data:
  img: new:2
`;

const UNCHANGED = `apiVersion: v1
data:
  img: new:2
kind: ConfigMap
metadata:
  name: Config-1
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - image: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac
        name: app
      - image: example.com/ns/proxy:1.0
        name: Sidecar
`;

const CASES: { name: string; kustomization: string; output?: string; error?: string }[] = [
  {
    name: 'image names: a backtracking bomb matches nothing, Go classes and flags match',
    kustomization: 'resources: [res.yaml]\nimages:\n- name: "(a+)+b"\n  newTag: v2\n- name: "(?i)EXAMPLE\\\\.com/\\\\pL+/proxy"\n  newTag: "2.0"\n',
    output: UNCHANGED.replace('proxy:1.0', 'proxy:2.0'),
  },
  {
    name: 'patch targets: POSIX classes',
    kustomization: 'resources: [res.yaml]\npatches:\n- target: {name: "[[:upper:]][[:alpha:]]+-\\\\d"}\n  patch: |-\n    - {op: add, path: /metadata/labels, value: {m: "1"}}\n',
    output: UNCHANGED.replace('metadata:\n  name: Config-1', 'metadata:\n  labels:\n    m: "1"\n  name: Config-1'),
  },
  {
    name: 'patch targets: a repeat count above 1000 is an error',
    kustomization: 'resources: [res.yaml]\npatches:\n- target: {name: "a{1001}"}\n  patch: |-\n    - {op: add, path: /metadata/labels, value: {m: "1"}}\n',
    error: 'error parsing regexp: invalid repeat count: `{1001}`',
  },
  {
    name: 'replacement field paths: a backtracking bomb finds nothing',
    kustomization: 'resources: [res.yaml]\nreplacements:\n- source: {kind: ConfigMap, fieldPath: data.img}\n  targets:\n  - select: {kind: Deployment}\n    fieldPaths: ["spec.template.spec.containers.[image=(a+)+b].name"]\n',
    error: 'unable to find field "spec.template.spec.containers.[image=(a+)+b].name" in replacement target',
  },
  {
    name: 'replacement field paths: an invalid expression',
    kustomization: 'resources: [res.yaml]\nreplacements:\n- source: {kind: ConfigMap, fieldPath: data.img}\n  targets:\n  - select: {kind: Deployment}\n    fieldPaths: ["spec.template.spec.containers.[image=a**].name"]\n',
    error: 'unable to find field "spec.template.spec.containers.[image=a**].name" in replacement target: error parsing regexp: invalid nested repetition operator: `**`',
  },
];

describe('regular expressions in a build, as kubectl', () => {
  for (const c of CASES) {
    test(c.name, { timeout: 60_000 }, async () => {
      const fs = MemoryFileSystem.from({ 'res.yaml': RES, 'kustomization.yaml': c.kustomization });
      const run = build('.', { fs, reorder: 'legacy' });
      if (c.output !== undefined) assert.equal((await run).yaml, c.output);
      else await assert.rejects(run, (e: unknown) => e instanceof KustomizeError && e.message === c.error);
    });
  }

  test('a replacement selector that is not RE2 fails as a KustomizeError', async () => {
    const fs = MemoryFileSystem.from({
      'res.yaml': RES,
      'kustomization.yaml': 'resources: [res.yaml]\nreplacements:\n- source: {kind: ConfigMap, fieldPath: data.img}\n  targets:\n  - select: {name: "we(?=b)"}\n    fieldPaths: [metadata.labels.x]\n',
    });
    await assert.rejects(build('.', { fs }), { code: 'REPLACEMENT_FAILED', message: 'error creating target selector: error parsing regexp: invalid or unsupported Perl syntax: `(?=`' });
  });
});
