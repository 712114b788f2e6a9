/** The editor's `kustomize.kustomizeVersion` setting: the release the workspace's builds behave as. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildOptionsOf, readSettings } from '../../src/language/settings.js';

test('kustomize.kustomizeVersion chooses the release the builds behave as; 5.8.1 by default', () => {
  const { settings, problems } = readSettings({ kustomizeVersion: '5.7.1' });
  assert.deepEqual(problems, []);
  assert.equal(buildOptionsOf(settings, '/w').kustomizeVersion, '5.7.1');
  assert.equal(buildOptionsOf(readSettings({}).settings, '/w').kustomizeVersion, '5.8.1');
});

test('a release without a profile is named as a problem, and the default used', () => {
  const { settings, problems } = readSettings({ kustomizeVersion: '5.3.0' });
  assert.equal(settings.kustomizeVersion, '5.8.1');
  assert.deepEqual(problems, ['kustomize.kustomizeVersion: "5.3.0" is not a valid value; using "5.8.1"']);
});
