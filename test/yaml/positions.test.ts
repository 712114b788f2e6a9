/**
 * Where values are written (explain's positions): the fast reader's placements agree with the
 * `yaml` package's nodes on every YAML file of the fixtures and examples, and each scalar's
 * position holds its text.
 */
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { composedPositions, documentPositions, positionAt } from '../../src/yaml/positions.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

function yamlFiles(dir: string): string[] {
  return nodeFs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = nodePath.join(dir, e.name);
    if (e.isDirectory()) return yamlFiles(path);
    return e.isFile() && /\.ya?ml$/.test(e.name) ? [path] : [];
  });
}

test('the fast placements are the yaml package positions, on every fixture and example file', () => {
  const files = [...yamlFiles(nodePath.join(REPO, 'test', 'fixtures')), ...yamlFiles(nodePath.join(REPO, 'examples'))];
  assert.ok(files.length > 100, `${files.length} files`);
  let compared = 0;
  for (const file of files) {
    const text = nodeFs.readFileSync(file, 'utf8');
    const composed = composedPositions(text);
    if (composed.length === 0) continue; // not YAML the yaml package reads (an error fixture)
    assert.deepEqual(documentPositions(text), composed, file);
    compared++;
  }
  assert.ok(compared > 100, `${compared} files compared`);
});

test('an offset moves every position: an inline patch, on the lines after its key', () => {
  const text = 'spec:\n  replicas: 3\n  ports:\n  - port: 80\n';
  const [tree] = documentPositions(text, { line: 10, column: 5 });
  assert.deepEqual(positionAt(tree!, ['spec', 'ports', 0, 'port']), { at: { line: 13, column: 15 }, whole: true, key: { line: 13, column: 9 } });
  assert.deepEqual(positionAt(tree!, ['spec', 'replicas']), { at: { line: 11, column: 17 }, whole: true, key: { line: 11, column: 7 } });
  // a list item has no key
  assert.deepEqual(positionAt(tree!, ['spec', 'ports', 0]), { at: { line: 13, column: 9 }, whole: true });
  // a path the text lacks: the deepest part it has (the map under spec starts at its first key, on the line after its own)
  assert.deepEqual(positionAt(tree!, ['spec', 'nope']), { at: { line: 11, column: 7 }, whole: false, key: { line: 10, column: 5 } });
});

test('keys are placed where they are written: quoted, in a flow map, in a list item', () => {
  const text = 'a:\n- "b c": {d: 1, \'e\': 2}\n  f:\n    g: 3\n';
  const [tree] = documentPositions(text);
  assert.deepEqual(positionAt(tree!, ['a', 0, 'b c', 'e']).key, { line: 2, column: 17 });
  assert.deepEqual(positionAt(tree!, ['a', 0, 'b c']).key, { line: 2, column: 3 });
  assert.deepEqual(positionAt(tree!, ['a', 0, 'f']), { at: { line: 4, column: 5 }, whole: true, key: { line: 3, column: 3 } });
  assert.deepEqual(documentPositions(text), composedPositions(text));
});

test('aliases and merge keys are placed at their anchors', () => {
  const text = 'base: &b\n  x: 1\n  y: 2\nuse: *b\nmerged:\n  <<: *b\n  y: 3\n';
  const [tree] = documentPositions(text);
  assert.deepEqual(positionAt(tree!, ['use', 'x']).at, { line: 2, column: 6 });
  assert.deepEqual(positionAt(tree!, ['merged', 'x']).at, { line: 2, column: 6 });
  assert.deepEqual(positionAt(tree!, ['merged', 'y']).at, { line: 7, column: 6 });
});
