/**
 * `$(VAR)` expansion of vars. The table is what the real `kubectl kustomize` (kubectl v1.32.4,
 * kustomize v5.5.0) printed for a Pod whose `command` held each input, with vars
 * PORT = spec.ports[0].port of a Service (the number 8080), FLAG = its
 * spec.publishNotReadyAddresses (true), NUM = data.num of a ConfigMap (the string "42") and
 * NAME = the Service's name ("svc"). A whole-string reference takes the var's own type, so
 * kubectl printed `- 8080` and `- true` unquoted and `- "42"` quoted.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { expandVars } from '../../src/vars/expand.js';
import type { Value } from '../../src/yaml/value.js';

const VARS: Record<string, Value> = { PORT: 8080, FLAG: true, NUM: '42', NAME: 'svc' };
const lookup = (name: string): Value | undefined => (Object.prototype.hasOwnProperty.call(VARS, name) ? VARS[name] : undefined);

/** [input, kubectl's result] */
const CASES: [string, Value][] = [
  ['$(PORT)', 8080],
  ['$(FLAG)', true],
  ['$(NUM)', '42'],
  ['x$(PORT)', 'x8080'],
  ['$(FLAG)-$(NAME)', 'true-svc'],
  ['$$(NAME)', '$(NAME)'],
  ['$$$(NAME)', '$svc'],
  ['$(NAME', '$(NAME'],
  ['$NAME', '$NAME'],
  ['$', '$'],
  ['$(NOPE)', '$(NOPE)'],
  ['$()', '$()'],
  ['a$$', 'a$'],
  ['$(NAME)$(NAME)', 'svcsvc'],
  ['$(PORT)$(FLAG)', '8080true'],
  ['($(NAME))', '(svc)'],
  ['$(NAME)$', 'svc$'],
  // from the vars fixture (kubectl): unknown var kept, escaped reference kept literally
  ['$(UNKNOWN_VAR)', '$(UNKNOWN_VAR)'],
  ['https://$(NAME):$(PORT)/health', 'https://svc:8080/health'],
];

describe('expandVars', () => {
  for (const [input, want] of CASES) {
    test(`${JSON.stringify(input)} -> ${JSON.stringify(want)}`, () => {
      assert.deepEqual(expandVars(input, lookup), want);
    });
  }

  test('a string without references is returned unchanged', () => {
    assert.equal(expandVars('plain text (with parens)', lookup), 'plain text (with parens)');
    assert.equal(expandVars('', lookup), '');
  });

  test('the lookup is asked only for referenced names', () => {
    const asked: string[] = [];
    expandVars('$(A) $$(B) $(C', (n) => {
      asked.push(n);
      return undefined;
    });
    assert.deepEqual(asked, ['A']);
  });
});
