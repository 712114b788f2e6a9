/**
 * Every option flag of `build` sets its option: the CLI reads options only through the table,
 * so a flag cannot be declared and dropped. And the values kubectl would refuse are usage errors.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUILD_OPTION_FLAGS, optionsFromFlags } from '../../src/cli/build-options.js';
import { DEFAULT_OPTIONS } from '../../src/options.js';

const SAMPLES: Record<string, string> = {
  'load-restrictor': 'LoadRestrictionsNone',
  'plugin-timeout': '7',
  reorder: 'legacy',
  mount: 'type=bind,src=./data,dst=/data',
  'kustomize-version': '5.7.1',
};

const defaults: Record<string, unknown> = Object.assign({}, ...Object.values(DEFAULT_OPTIONS));

for (const { flag, option } of BUILD_OPTION_FLAGS) {
  test(`--${flag.name} sets ${option}`, () => {
    const sample = SAMPLES[flag.name] ?? 'x';
    const value = flag.type === 'bool' ? true : flag.type === 'list' ? [sample] : sample;
    const options = optionsFromFlags(new Map([[flag.name, value]]), {});
    assert.notEqual(options[option], undefined);
    assert.notDeepEqual(options[option], defaults[option], 'the flag changes the option from its default');
  });
}

test('an absent flag leaves its option to the default, or to its environment variable', () => {
  assert.deepEqual(optionsFromFlags(new Map(), {}), { reorder: 'unspecified' });
  assert.equal(optionsFromFlags(new Map(), { KUSTOMIZE_ENABLE_MANAGEDBY_LABEL: 'on' }).addManagedByLabel, true);
  assert.equal(optionsFromFlags(new Map([['enable-managedby-label', false]]), { KUSTOMIZE_ENABLE_MANAGEDBY_LABEL: 'on' }).addManagedByLabel, false);
});

test('--load-restrictor takes what the library option takes: kustomize’s spellings, and the library’s', () => {
  const restriction = (value: string) => optionsFromFlags(new Map([['load-restrictor', value]]), {}).loadRestrictor;
  assert.deepEqual(['LoadRestrictionsRootOnly', 'LoadRestrictionsNone', 'rootOnly', 'none'].map(restriction), ['rootOnly', 'none', 'rootOnly', 'none']);
});

test('values that are not what the flag takes are usage errors', () => {
  for (const [name, value] of [
    ['plugin-timeout', 'abc'],
    ['plugin-timeout', '0'],
    ['plugin-timeout', '-1'],
    ['load-restrictor', 'Loose'],
    ['reorder', 'random'],
  ] as const) {
    assert.throws(() => optionsFromFlags(new Map([[name, value]]), {}), (e: Error & { code?: string }) => e.code === 'USAGE', `${name}=${value}`);
  }
});
