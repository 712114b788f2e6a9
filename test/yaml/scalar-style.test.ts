/**
 * analyzeScalar decides the common texts (a one-line sentence, lines of ASCII text) without
 * walking them: its answers must be the character-by-character analysis's, on any text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { analyzeByCharacter, analyzeScalar } from '../../src/yaml/scalar-style.js';
import { assertProperty } from '../property.js';

// the characters the decisions turn on, and ordinary ones
const PIECES = ['a', 'Z', '0', ' ', '  ', '\n', ':', ': ', '#', ' #', '-', '- ', '?', '.', '...', '---', '"', "'", '|', '>', '!', '&', '*', '%', '@', '`', ',', '[', ']', '{', '}', '(', '/', '=', '+', '_', '\t', 'é', '\u0085', '\u2028', '\u0000', 'word', 'The quick fox'];

test('the shortcut analysis agrees with the character-by-character one', async () => {
  await assertProperty(
    fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }), (parts) => {
      const s = parts.join('');
      assert.deepEqual({ ...analyzeScalar(s) }, { ...analyzeByCharacter(s) }, JSON.stringify(s));
    }),
    20000,
  );
});

test('CRD descriptions take the shortcut and get the walk\'s answer', () => {
  for (const s of [
    'APIVersion defines the versioned schema of this representation of an object.',
    'Servers should convert recognized schemas to the latest internal value.\nMore info: https://git.k8s.io/community\n',
    'line one\n  indented\n',
    'trailing space \nnext',
    'ends with a space ',
  ]) {
    assert.deepEqual({ ...analyzeScalar(s) }, { ...analyzeByCharacter(s) }, JSON.stringify(s));
  }
});
