import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseYamlDocuments, type ParseOptions } from '../../src/yaml/parse.js';
import { ParsedTexts } from '../../src/yaml/parsed-texts.js';

/** A reader that counts what it parses, by dialect. */
function counting(): { parse: typeof parseYamlDocuments; parses: string[] } {
  const parses: string[] = [];
  return {
    parses,
    parse: (text: string, file = '', options: ParseOptions = {}) => {
      parses.push(`${options.dialect ?? 'v3'}:${text}`);
      return parseYamlDocuments(text, file, options);
    },
  };
}

test('a text is parsed once, and every call gets its own copy of the documents', () => {
  const { parse, parses } = counting();
  const texts = new ParsedTexts(10_000, parse);
  const first = texts.documents('data:\n  a: "1"\n', 'cm.yaml');
  (first[0] as { data: { a: string } }).data.a = 'changed';
  assert.deepEqual(texts.documents('data:\n  a: "1"\n', 'cm.yaml'), [{ data: { a: '1' } }]);
  assert.deepEqual(parses, ['v3:data:\n  a: "1"\n']);
});

test('each dialect is parsed on its own: go-yaml v2 reads `on` as true, yaml.v3 as a string', () => {
  const { parse, parses } = counting();
  const texts = new ParsedTexts(10_000, parse);
  assert.deepEqual(texts.documents('x: on\n', ''), [{ x: 'on' }]);
  assert.deepEqual(texts.documents('x: on\n', '', { dialect: 'yaml11' }), [{ x: true }]);
  assert.deepEqual(texts.documents('x: on\n', '', { dialect: 'yaml11' }), [{ x: true }]);
  assert.deepEqual(texts.documents('x: on\n', ''), [{ x: 'on' }]);
  assert.equal(parses.length, 2);
});

test('the least recently used text goes when the bytes kept pass the bound, and a text larger than the bound is never kept', () => {
  const { parse, parses } = counting();
  // each text below and its document: about 1,050 bytes; two fit
  const texts = new ParsedTexts(2200, parse);
  texts.documents('a: 1\n', '');
  texts.documents('b: 2\n', '');
  texts.documents('a: 1\n', ''); // a is now the most recent
  texts.documents('c: 3\n', ''); // b, the least recent, goes
  assert.ok(texts.bytes <= 2200 && texts.bytes > 1100, `${texts.bytes} bytes held`);
  texts.documents('a: 1\n', '');
  texts.documents('b: 2\n', '');
  assert.deepEqual(parses, ['v3:a: 1\n', 'v3:b: 2\n', 'v3:c: 3\n', 'v3:b: 2\n']);
  const long = `key: ${'x'.repeat(1100)}\n`;
  texts.documents(long, '');
  texts.documents(long, '');
  assert.equal(parses.filter((p) => p === `v3:${long}`).length, 2);
});

test('a text that fails to parse is not kept: it fails again, with its file named', () => {
  const texts = new ParsedTexts(100);
  for (let i = 0; i < 2; i++) assert.throws(() => texts.documents('a: [\n', 'bad.yaml'), /bad\.yaml/);
});
