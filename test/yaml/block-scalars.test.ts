/**
 * Block scalars as kustomize reads them. Each expected value is what `kubectl kustomize`
 * (kustomize v5.5.0) printed for the field in a ConfigMap; the build-level cases are in
 * test/fixtures/block-scalars.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseYamlDocument } from '../../src/yaml/parse.js';
import { isMap } from '../../src/yaml/value.js';

function field(text: string): unknown {
  const doc = parseYamlDocument(text);
  assert.ok(isMap(doc));
  return doc['a'];
}

test('a block scalar that ends the input without a line break keeps no final line break', () => {
  assert.equal(field('a: |\n  x'), 'x');
  assert.equal(field('a: |+\n  x'), 'x');
  assert.equal(field('a: >\n  x\n  y'), 'x y');
  assert.equal(field('a: |\n  x\n'), 'x\n');
  assert.equal(field('a: |+\n  x\n\n  '), 'x\n\n');
});

test('folded scalars read back the way yaml.v3 writes them', () => {
  assert.equal(field('a: >\n  folded\n    more indented\n  back\n'), 'folded\n\n  more indented\nback\n');
  assert.equal(field('a: >\n  x\n\n    y\n  z\n'), 'x\n\n\n  y\nz\n');
  assert.equal(field('a: >\n  x\n  \ty\n  z\n'), 'x\n\n\ty\nz\n');
  assert.equal(field('a: >+\n  x\n\n'), 'x\n\n\n');
  // a value that starts with a blank: single breaks between ordinary lines fold into spaces
  assert.equal(field('a: >2\n    lead\n  x\n\n  y\n'), '  lead\nx y\n');
  // written double-quoted (a space before a break), so read back unchanged
  assert.equal(field('a: >\n  x\n    \n    y\n'), 'x\n  \n  y\n');
  assert.equal(field('a: >\n  one\n  two\n'), 'one two\n');
});

test('literal scalars are not changed', () => {
  assert.equal(field('a: |\n  x\n    y\n'), 'x\n  y\n');
});
