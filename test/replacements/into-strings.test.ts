/**
 * Replacements into JSON or YAML held in a string (kustomize 5.8.0, #5679), on the points the
 * profile cases (test/profiles/replacement-into-*) leave out. The answers follow from
 * api/filters/replacement/replacement.go (setValueInStructuredData, serializeStructuredData)
 * and kyaml/yaml/match.go (handleStructuredDataInScalar) in v5.8.0; under 5.7.1 every path
 * here fails as a path through a string does (the profile cases hold the oracle's words).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { build } from '../../src/build/build.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { goJsonIndented } from '../../src/yaml/go-json.js';
import { parseYamlDocument } from '../../src/yaml/parse.js';
import { isMap, type Value } from '../../src/yaml/value.js';

interface Target {
  /** the target ConfigMap's `data.doc` */
  doc: string;
  /** the path below `data.doc` */
  path: string;
  /** the source ConfigMap's `data.value` */
  value?: string;
  options?: string;
  version?: string;
}

/** The target's `data.doc` after the replacement, or the build's error. */
async function replaced(t: Target): Promise<{ doc?: string; error?: string }> {
  const resources = [
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: src\ndata:\n  value: ' + JSON.stringify(t.value ?? 'new'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tgt\ndata:\n  doc: ' + JSON.stringify(t.doc),
  ].join('\n---\n');
  const kustomization = `resources: [res.yaml]\nreplacements:\n- source: {name: src, fieldPath: data.value}\n  targets:\n  - select: {name: tgt}\n    fieldPaths: ['data.doc.${t.path}']\n${t.options ? `    options: ${t.options}\n` : ''}`;
  const fs = MemoryFileSystem.from({ 'res.yaml': resources, 'kustomization.yaml': kustomization });
  try {
    const { yaml } = await build('.', { fs, kustomizeVersion: t.version ?? '5.8.0' });
    const docs = yaml.split('\n---\n').map((d) => parseYamlDocument(d) as Value);
    const target = docs.find((d) => isMap(d) && isMap(d['metadata']) && d['metadata']['name'] === 'tgt') as { data: { doc: string } };
    return { doc: target.data.doc };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

describe('JSON held in a string', () => {
  test('Go encoding: keys sorted, HTML characters escaped, compact when the string was', async () => {
    assert.deepEqual(await replaced({ doc: '{"z": 1, "a": {"b": "x"}}', path: 'a.b', value: '<a&b>' }), { doc: '{"a":{"b":"\\u003ca\\u0026b\\u003e"},"z":1}' });
  });

  test('indented by two spaces when the string has a line break and two spaces in a row', async () => {
    assert.deepEqual(await replaced({ doc: '{\n    "a": [1, {"b": "x"}],\n    "e": {}, "l": []\n}', path: 'a.1.b' }), {
      doc: '{\n  "a": [\n    1,\n    {\n      "b": "new"\n    }\n  ],\n  "e": {},\n  "l": []\n}',
    });
    // a line break without two spaces in a row: compact
    assert.deepEqual(await replaced({ doc: '{\n"a": "x"\n}', path: 'a' }), { doc: '{"a":"new"}' });
  });

  test('a list at the top, entered by index', async () => {
    assert.deepEqual(await replaced({ doc: '["a", "b"]', path: '1' }), { doc: '["a","new"]' });
  });

  test('the value goes in whole: delimiter and index are not read there', async () => {
    assert.deepEqual(await replaced({ doc: '{"image": "nginx:1.0"}', path: 'image', value: '2.0', options: '{delimiter: ":", index: 1}' }), { doc: '{"image":"2.0"}' });
  });

  test('text a number cannot take leaves the string as it was, without an error', async () => {
    assert.deepEqual(await replaced({ doc: '{"port": 8080}', path: 'port', value: 'http' }), { doc: '{"port": 8080}' });
  });

  test('an index past the end fails on the document, which is no list to the walk that reports it', async () => {
    assert.deepEqual(await replaced({ doc: '["a", "b"]', path: '5' }), {
      error: 'unable to find field "data.doc.5" in replacement target: wrong node kind: expected SequenceNode but got DocumentNode: node contents:\n["a", "b"]',
    });
  });
});

describe('YAML held in a string', () => {
  test('only the first document is kept', async () => {
    assert.deepEqual(await replaced({ doc: 'a: x\n---\nb: y\n', path: 'a' }), { doc: 'a: new' });
  });

  test('a string written over a quoted one is quoted alike; a plain one that would read as another type is quoted', async () => {
    assert.deepEqual(await replaced({ doc: "a: 'x'\nb: \"y\"\n", path: 'a', value: 'q' }), { doc: "a: 'q'\nb: \"y\"" });
    assert.deepEqual(await replaced({ doc: 'a: x\n', path: 'a', value: 'true' }), { doc: 'a: "true"' });
  });

  test('what was not written stays as written: anchors and aliases, comments, an explicit document start', async () => {
    assert.deepEqual(await replaced({ doc: '---\nbase: &b {x: 1} # shared\nother: *b\nname: a\n', path: 'name' }), { doc: 'base: &b {x: 1} # shared\nother: *b\nname: new' });
  });

  test('a string that reads as a plain scalar fails as a path through a string always did', async () => {
    assert.deepEqual(await replaced({ doc: 'nginx', path: 'tag' }), {
      error: 'unable to find field "data.doc.tag" in replacement target: wrong node kind: expected MappingNode but got ScalarNode: node contents:\nnginx',
    });
  });

  test('a string of no document is no node', async () => {
    assert.deepEqual(await replaced({ doc: '# nothing', path: 'a' }), {
      error: 'unable to find field "data.doc.a" in replacement target: wrong node kind: expected MappingNode but got ',
    });
  });
});

test('under 5.7.1 a path into a string fails', async () => {
  const got = await replaced({ doc: '{"a": "x"}', path: 'a', version: '5.7.1' });
  assert.match(got.error ?? '', /^unable to find field "data\.doc\.a" in replacement target: wrong node kind: expected MappingNode but got ScalarNode/);
});

test('goJsonIndented prints as json.MarshalIndent(v, "", "  ")', () => {
  assert.equal(goJsonIndented({ b: [1, [], {}], a: { c: null } }), '{\n  "a": {\n    "c": null\n  },\n  "b": [\n    1,\n    [],\n    {}\n  ]\n}');
  assert.equal(goJsonIndented([]), '[]');
});
