/**
 * Label selector syntax (`labelSelector`/`annotationSelector`). Matching expectations are what
 * the real `kubectl kustomize` (kubectl v1.32.4, kustomize v5.5.0) selected for patch targets
 * with these selectors over resources with these labels (see also test/model/selector.test.ts);
 * error texts are the ones kubectl printed for the same selectors.
 *
 * (Known differences are top-level tests: node 20 fails a suite whose todo test fails.)
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { KustomizeError } from '../../src/errors.js';
import { labelsMatch, parseLabelSelector } from '../../src/model/label-selector.js';

/** the labels of the resources kubectl was given, by name */
const LABELS: Record<string, Record<string, string> | undefined> = {
  web: { tier: 'frontend', env: 'prod' },
  web2: { tier: 'backend', env: 'prod', canary: 'true' },
  db: { tier: 'backend' },
  'web-config': { env: 'dev' },
  migrate: undefined,
  w: { tier: 'frontend' },
};

/** [selector, names kubectl selected] */
const TABLE: [string, string[]][] = [
  ['tier=backend', ['web2', 'db']],
  ['tier==frontend', ['web', 'w']],
  ['tier!=backend', ['web', 'web-config', 'migrate', 'w']],
  ['tier in (frontend,backend)', ['web', 'web2', 'db', 'w']],
  ['tier notin (frontend)', ['web2', 'db', 'web-config', 'migrate']],
  ['canary', ['web2']],
  ['!canary', ['web', 'db', 'web-config', 'migrate', 'w']],
  ['tier=backend,env=prod', ['web2']],
  ['env in (prod), tier!=frontend', ['web2']],
  ['team=a', []],
];

describe('parseLabelSelector + labelsMatch', () => {
  for (const [selector, names] of TABLE) {
    test(`${selector} selects ${JSON.stringify(names)}`, () => {
      const req = parseLabelSelector(selector);
      assert.deepEqual(
        Object.keys(LABELS).filter((n) => labelsMatch(req, LABELS[n])),
        names,
      );
    });
  }

  test('parsed requirements', () => {
    assert.deepEqual(parseLabelSelector('a=b'), [{ key: 'a', op: 'in', values: ['b'] }]);
    assert.deepEqual(parseLabelSelector('a!=b'), [{ key: 'a', op: 'notin', values: ['b'] }]);
    assert.deepEqual(parseLabelSelector('x in (p, q)'), [{ key: 'x', op: 'in', values: ['p', 'q'] }]);
    assert.deepEqual(parseLabelSelector('!k,k2'), [
      { key: 'k', op: 'notexists' },
      { key: 'k2', op: 'exists' },
    ]);
    assert.deepEqual(parseLabelSelector('app.kubernetes.io/name=web'), [{ key: 'app.kubernetes.io/name', op: 'in', values: ['web'] }]);
    assert.deepEqual(parseLabelSelector(''), []);
  });

  test('label values are compared as strings', () => {
    assert.equal(labelsMatch(parseLabelSelector('n=1'), { n: 1 }), true);
    assert.equal(labelsMatch(parseLabelSelector('b=true'), { b: true }), true);
  });

  test('syntax errors are KustomizeErrors', () => {
    for (const s of ['a b', 'tier in frontend', '=x', 'a=b=c', 'a!b']) assert.throws(() => parseLabelSelector(s), KustomizeError, s);
  });
});

// kubectl's messages for invalid selectors (from k8s.io/apimachinery's selector parser)
const KUBECTL_ERRORS: [string, string][] = [
  ['a b', "unable to parse requirement: found 'b', expected: '=', '!=', '==', 'in', notin'"],
  ['tier in frontend', "unable to parse requirement: found 'frontend' expected: '('"],
  ['=x', "found '=', expected: !, identifier, or 'end of string'"],
  ['a=b=c', "found '=', expected: ',' or 'end of string'"],
  ['a!b', "unable to parse requirement: found '!', expected: '=', '!=', '==', 'in', notin'"],
  ['a,,b', "found ',', expected: identifier after ','"],
];
for (const [selector, message] of KUBECTL_ERRORS) {
  test(`invalid selector ${JSON.stringify(selector)}: kubectl's message`, () => {
    assert.throws(
      () => parseLabelSelector(selector),
      (e: unknown) => e instanceof Error && e.message === message,
    );
  });
}
