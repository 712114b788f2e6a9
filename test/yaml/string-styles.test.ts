/**
 * The styles kyaml gives the strings kustomize writes (src/yaml/string-styles.ts). The texts
 * below are those of the fixture generated-string-styles, whose expected output kubectl
 * (kustomize v5.5.0) recorded: a patch's plain scalar over a generated value came out quoted
 * exactly for the texts read here as no string.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { freshStringMap, readsAsNonString11, setStringField, setUntaggedField } from '../../src/yaml/string-styles.js';
import { isStyled, markStyled, untaggedText, type YMap } from '../../src/yaml/value.js';
import { resolvePlainScalar } from '../../src/yaml/resolve.js';

describe('readsAsNonString11', () => {
  test('numbers, booleans, null, and texts that are YAML structure read as no string', () => {
    for (const text of ['5', 'on', '0x1F', '1_000', '~', '.5', 'a: b', '[1]', '# note', '-']) assert.equal(readsAsNonString11(text), true, text);
  });
  test('words, dates, base-60 texts (go-yaml v2 reads none), texts with a line break and the empty text read as strings', () => {
    for (const text of ['x', 'abc', '2001-12-14', '1:20', 'dg==', 'line1\nline2\n', '', '*alias']) assert.equal(readsAsNonString11(text), false, text);
  });
});

describe('freshStringMap', () => {
  test('styles the values with a line break and those read as no string; keeps the order given', () => {
    const m = freshStringMap([['b', 'on'], ['a', 'x'], ['c', 'two\nlines\n']]);
    assert.deepEqual(Object.entries(m), [['b', 'on'], ['a', 'x'], ['c', 'two\nlines\n']]);
    assert.deepEqual(['a', 'b', 'c'].map((k) => isStyled(m, k)), [false, true, true]);
  });
});

describe('setStringField', () => {
  test('a field it creates takes the style asked for; one it replaces keeps its own', () => {
    const m: YMap = { plain: 'a', quoted: 'b' };
    markStyled(m, new Set(['quoted']));
    setStringField(m, 'plain', '5', true);
    setStringField(m, 'quoted', 'c', false);
    setStringField(m, 'new', '6', true);
    assert.deepEqual(m, { plain: '5', quoted: 'c', new: '6' });
    assert.deepEqual(['plain', 'quoted', 'new'].map((k) => isStyled(m, k)), [false, true, true]);
  });
});

describe('setUntaggedField', () => {
  test('over a plain field, a text that reads as a number is the number, its text kept; over a quoted one, or created, a string', () => {
    const m: YMap = { plain: 2, quoted: '7' };
    markStyled(m, new Set(['quoted']));
    setUntaggedField(m, 'plain', '12');
    setUntaggedField(m, 'quoted', '17');
    setUntaggedField(m, 'created', '123');
    assert.deepEqual(m, { plain: 12, quoted: '17', created: '123' });
    assert.equal(untaggedText(m, 'plain', resolvePlainScalar), '12');
    assert.equal(isStyled(m, 'created'), true);
  });
  test('a text whose value would not print it back stays a string', () => {
    const m: YMap = { a: 'x', b: 'x', c: 'x' };
    setUntaggedField(m, 'a', '012');
    setUntaggedField(m, 'b', 'True');
    setUntaggedField(m, 'c', 'null');
    assert.deepEqual(m, { a: '012', b: 'True', c: 'null' });
  });
});
