/**
 * goJson must print what Go's encoding/json prints, because kustomize names generated
 * ConfigMaps and Secrets after a hash of it. Each expected suffix below is the one the real
 * `kubectl kustomize` (kustomize v5.5.0) gave a `configMapGenerator` whose `files` held
 * exactly these values (name `c`). The hash is sha256 over
 * `goJson({ data, kind: 'ConfigMap', name: '' })`, first 10 hex digits, `0→g 1→h 3→k a→m e→t`
 * (kustomize-behaviour.md §2.5).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { goJson } from '../../src/yaml/go-json.js';
import type { YMap } from '../../src/yaml/value.js';

const HASH_LETTERS: Record<string, string> = { '0': 'g', '1': 'h', '3': 'k', a: 'm', e: 't' };

function configMapHash(data: YMap): string {
  const json = goJson({ data, kind: 'ConfigMap', name: '' });
  const hex = createHash('sha256').update(json).digest('hex').slice(0, 10);
  return hex.replace(/[013ae]/g, (c) => HASH_LETTERS[c]!);
}

/** [case, generated data, suffix kustomize gave the ConfigMap] */
const generated: [name: string, data: YMap, suffix: string][] = [
  ['one', { A: '1' }, '89g4tffbfk'],
  ['html', { A: '<b>&c', B: 'é' }, '4h76k9bhh7'],
  ['controls', { A: '\x08', B: '\x0c', C: '\x01\x02\x1f', D: '\x7f', E: '\t\n\r' }, '498mbghd77'],
  ['separators', { A: 'a\u2028b\u2029c' }, '2g2k5bkmd7'],
  ['quotes', { A: 'a"b\\c/d' }, '6g2f7475hm'],
  ['unicode', { A: '😀', B: '\ufffd', C: '\ufeffx', D: '\x85', E: 'ÿ\xa0\x80' }, '8479htkc95'],
  ['keyorder', { b: '1', B: '2', a: '3', A: '4', _: '5', ['-']: '6', ['.']: '7', a0: '8', a10: '9', a2: '10', Z: '11', z: '12' }, 'kc8cfmc4c2'],
  ['empty', { A: '' }, 'k2f9d8k5f7'],
  ['long', { A: 'x'.repeat(5000) + '\n' + 'é'.repeat(100) }, 'khm9f5f65h'],
  ['multiline', { ['app.properties']: 'a=1\nb=2\n', ['run.sh']: '#!/bin/sh\necho "hi" > /tmp/x && exit 0\n' }, 'b2888cd8gb'],
];

describe('ConfigMap hash over goJson', () => {
  for (const [name, data, suffix] of generated) {
    test(name, () => assert.equal(configMapHash(data), suffix));
  }
  test('literals A=1 (kustomize-behaviour.md §2.5)', () => {
    assert.equal(goJson({ data: { A: '1' }, kind: 'ConfigMap', name: '' }), '{"data":{"A":"1"},"kind":"ConfigMap","name":""}');
    assert.equal(configMapHash({ A: '1' }), '89g4tffbfk');
  });
  test('literals A=<b>&c, B=é need Go escaping (kustomize-behaviour.md §2.5)', () => {
    assert.equal(
      goJson({ data: { A: '<b>&c', B: 'é' }, kind: 'ConfigMap', name: '' }),
      '{"data":{"A":"\\u003cb\\u003e\\u0026c","B":"é"},"kind":"ConfigMap","name":""}',
    );
    assert.equal(configMapHash({ A: '<b>&c', B: 'é' }), '4h76k9bhh7');
  });
});
