import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { requireTool } from '../require-tool.js';
import { runCorpus } from './corpus.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const listFile = join(repo, 'conformance', 'starlark-expected-passes.txt');
const corpus = requireTool('starlark-corpus');

test('the Starlark conformance corpus: no chunk listed as passing fails', { skip: corpus.skip }, (t) => {
  const results = runCorpus(corpus.path);
  const expected = existsSync(listFile) ? readFileSync(listFile, 'utf8').split('\n').filter(Boolean) : [];
  assert.ok(expected.length > 0, 'the list of passing chunks is there');
  const byName = new Map(results.map((r) => [r.name, r]));
  const regressions = expected.filter((n) => !byName.get(n)?.passed).map((n) => `${n}: ${byName.get(n)?.problems.join('; ') ?? 'no such chunk'}`);
  assert.deepEqual(regressions, []);
  t.diagnostic(`${results.filter((r) => r.passed).length} of ${results.length} chunks pass`);
});
