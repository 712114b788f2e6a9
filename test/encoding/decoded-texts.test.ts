import assert from 'node:assert/strict';
import { test } from 'node:test';
import { utf8DecodeStrict } from '../../src/encoding/base64.js';
import { DecodedTexts } from '../../src/encoding/decoded-texts.js';

/** A decoder that counts what it decodes. */
function counting(): { decode: (bytes: Uint8Array) => string | undefined; decoded: string[] } {
  const decoded: string[] = [];
  return {
    decoded,
    decode: (bytes) => {
      const text = utf8DecodeStrict(bytes);
      decoded.push(text ?? '(not UTF-8)');
      return text;
    },
  };
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

test('a file that reads as before is not decoded again; one whose bytes changed is', () => {
  const { decode, decoded } = counting();
  const texts = new DecodedTexts(100, decode);
  assert.equal(texts.text('/a.yaml', bytes('a: 1\n')), 'a: 1\n');
  assert.equal(texts.text('/a.yaml', bytes('a: 1\n')), 'a: 1\n');
  assert.equal(texts.text('/a.yaml', bytes('a: 2\n')), 'a: 2\n');
  assert.equal(texts.text('/b.yaml', bytes('a: 2\n')), 'a: 2\n');
  assert.deepEqual(decoded, ['a: 1\n', 'a: 2\n', 'a: 2\n']);
});

test('the bytes are remembered as a copy: a file system that reuses its buffer does not change what was read', () => {
  const { decode, decoded } = counting();
  const texts = new DecodedTexts(100, decode);
  const buffer = bytes('x: 1\n');
  assert.equal(texts.text('/x.yaml', buffer), 'x: 1\n');
  buffer.set(bytes('x: 2\n'));
  assert.equal(texts.text('/x.yaml', buffer), 'x: 2\n');
  assert.equal(decoded.length, 2);
});

test('bytes that are not UTF-8 read as undefined, each time', () => {
  const { decode, decoded } = counting();
  const texts = new DecodedTexts(100, decode);
  const invalid = new Uint8Array([0x61, 0xff, 0x0a]);
  assert.equal(texts.text('/bad.yaml', invalid), undefined);
  assert.equal(texts.text('/bad.yaml', invalid), undefined);
  assert.equal(decoded.length, 2);
});

test('the least recently read file goes when the bytes held pass the bound', () => {
  const { decode, decoded } = counting();
  // each file below: about 45 bytes, its path, bytes and text; two fit
  const texts = new DecodedTexts(100, decode);
  texts.text('/a', bytes('aaaaa'));
  texts.text('/b', bytes('bbbbb'));
  texts.text('/a', bytes('aaaaa')); // a is now the most recent
  texts.text('/c', bytes('ccccc')); // b goes
  texts.text('/a', bytes('aaaaa'));
  texts.text('/b', bytes('bbbbb'));
  assert.deepEqual(decoded, ['aaaaa', 'bbbbb', 'ccccc', 'bbbbb']);
});
