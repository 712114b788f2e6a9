/**
 * Hostile YAML ends in a KustomizeError naming the file, never a stack overflow or an endless
 * expansion: self-referencing aliases (kubectl: "anchor 'a' value contains itself"), alias
 * bombs (yaml.v3's "document contains excessive aliasing"), and nesting deeper than the limit.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build, KustomizeError, MemoryFileSystem } from '../../src/index.js';
import { MAX_NESTING_DEPTH } from '../../src/yaml/nesting-depth.js';
import { parseYamlDocuments } from '../../src/yaml/parse.js';

function yamlError(text: string, message: string): (e: unknown) => boolean {
  return (e) => {
    assert.ok(e instanceof KustomizeError, `not a KustomizeError: ${String(e)}`);
    assert.equal(e.code, 'YAML_INVALID');
    assert.equal(e.file, 'r.yaml');
    assert.ok(e.message.includes(message), `${e.message} (for ${text.slice(0, 60)}...)`);
    return true;
  };
}

test('a kustomization whose alias refers to the node that holds it fails as kubectl does', async () => {
  const fs = MemoryFileSystem.from({ 'app/kustomization.yaml': 'namePrefix: &a [*a]\n' });
  await assert.rejects(build('/app', { fs }), (e: unknown) => {
    assert.ok(e instanceof KustomizeError);
    assert.equal(e.code, 'YAML_INVALID');
    assert.match(e.message, /anchor 'a' value contains itself/);
    assert.match(e.file ?? '', /kustomization\.yaml$/);
    return true;
  });
});

test('self-references through maps and nested anchors are refused too; ordinary aliases still expand', () => {
  for (const text of ['a: &x {b: *x}\n', 'a: &x\n  b: &y [1, *x]\n', 'a: &x [&y [*y]]\n']) {
    assert.throws(() => parseYamlDocuments(text, 'r.yaml'), yamlError(text, 'value contains itself'));
  }
  assert.deepEqual(parseYamlDocuments('a: &x [1, {b: 2}]\nc: *x\nd: [*x, *x]\n', 'r.yaml'), [
    { a: [1, { b: 2 }], c: [1, { b: 2 }], d: [[1, { b: 2 }], [1, { b: 2 }]] },
  ]);
});

test('an alias bomb stops with an error instead of expanding billions of nodes', () => {
  const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++) {
    const prev = String.fromCharCode(0x60 + i);
    const name = String.fromCharCode(0x61 + i);
    levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
  }
  const text = `${levels.join('\n')}\n`;
  assert.throws(() => parseYamlDocuments(text, 'r.yaml'), yamlError(text, 'document contains excessive aliasing'));
});

test(`nesting deeper than ${MAX_NESTING_DEPTH} levels is an error, not a stack overflow`, () => {
  const flow = (depth: number): string => `a: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
  const block = (depth: number): string => Array.from({ length: depth }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' 1\n';
  for (const text of [flow(MAX_NESTING_DEPTH + 10), flow(100_000), block(MAX_NESTING_DEPTH + 10), block(3000)]) {
    assert.throws(() => parseYamlDocuments(text, 'r.yaml'), yamlError(text, `exceeded max depth of ${MAX_NESTING_DEPTH}`));
  }
  // an alias chain nests deeper than it is written (here its expansion also counts as excessive aliasing)
  const chain = ['a0: &a0 [1]', ...Array.from({ length: MAX_NESTING_DEPTH + 10 }, (_, i) => `a${i + 1}: &a${i + 1} [*a${i}]`)].join('\n');
  assert.throws(() => parseYamlDocuments(chain, 'r.yaml'), yamlError(chain, ''));
  const deepAlias = `x: &x ${'['.repeat(MAX_NESTING_DEPTH - 5)}${']'.repeat(MAX_NESTING_DEPTH - 5)}\ny: [[[[[[[[[[*x]]]]]]]]]]\n`;
  assert.throws(() => parseYamlDocuments(deepAlias, 'r.yaml'), yamlError(deepAlias, `exceeded max depth of ${MAX_NESTING_DEPTH}`));
  // within the limit, both readers read it
  const ok = parseYamlDocuments(flow(MAX_NESTING_DEPTH - 10), 'r.yaml');
  assert.equal(ok.length, 1);
  assert.equal(parseYamlDocuments(block(MAX_NESTING_DEPTH - 10), 'r.yaml').length, 1);
});
