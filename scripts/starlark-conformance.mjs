#!/usr/bin/env node
// Runs starlark-go's test scripts (../shared/starlark-conformance) with our interpreter and
// compares with conformance/starlark-expected-passes.txt: fails when a chunk listed there fails
// now, or when the corpus is missing. `--update` rewrites the list; `--verbose` prints why each
// failing chunk fails.
//
//   npx tsc -p . && node scripts/starlark-conformance.mjs [--update] [--verbose]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { runCorpus } = await import(join(repo, 'dist', 'test', 'starlark', 'corpus.js'));
const { STARLARK_CORPUS } = await import(join(repo, 'dist', 'test', 'require-tool.js'));
const args = process.argv.slice(2);
const listFile = join(repo, 'conformance', 'starlark-expected-passes.txt');

// the corpus must be run: its absence fails, it is not a pass
if (!existsSync(STARLARK_CORPUS)) {
  console.error(`starlark conformance: no corpus at ${STARLARK_CORPUS}: it lives in ../shared/starlark-conformance, next to the checkout`);
  process.exit(1);
}
const started = Date.now();
const results = runCorpus(STARLARK_CORPUS);
const passed = results.filter((r) => r.passed).map((r) => r.name);
const summary = `${passed.length} passed, ${results.length - passed.length} failed (${Date.now() - started} ms)`;
if (args.includes('--verbose')) {
  for (const r of results.filter((x) => !x.passed)) console.log(`${r.name}\n  ${r.problems.join('\n  ')}`);
}
if (args.includes('--update')) {
  writeFileSync(listFile, passed.join('\n') + '\n');
  console.log(`starlark conformance: ${summary}; ${listFile} updated`);
  process.exit(0);
}
const expected = existsSync(listFile) ? readFileSync(listFile, 'utf8').split('\n').filter(Boolean) : [];
const now = new Set(passed);
const regressions = expected.filter((c) => !now.has(c));
const gained = passed.filter((c) => !expected.includes(c));
console.log(`starlark conformance: ${summary} (expected at least the ${expected.length} listed)`);
if (gained.length) console.log(`newly passing (run with --update to record): ${gained.join(', ')}`);
if (regressions.length) {
  console.error(`REGRESSIONS (listed as passing, failing now):\n  ${regressions.join('\n  ')}`);
  process.exit(1);
}
