#!/usr/bin/env node
// Runs the shared conformance corpus (../shared/conformance) against the built CLI and
// compares the result with conformance/expected-passes.txt: fails when a case that is listed
// there fails now (a regression), or when the corpus is missing. `--update` rewrites the list
// from this run.
// `--cached` builds every case through the library with a `BuildCache`, twice
// (scripts/build-cached.mjs), instead of with the CLI; the same cases must pass.
//
//   node scripts/conformance.mjs [--update] [--cached] [--corpus DIR] [--jobs N]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { args, corpus, flag, repo } from './script-args.mjs';
const jobs = flag('--jobs', '2');
const listFile = join(repo, 'conformance', 'expected-passes.txt');

// the corpus must be run: its absence fails, it is not a pass
if (!existsSync(join(corpus, 'run'))) {
  console.error(`conformance: no corpus at ${corpus} (no ${join(corpus, 'run')}): it lives in ../shared/conformance, next to the checkout (or give --corpus DIR)`);
  process.exit(1);
}
const out = join(mkdtempSync(join(tmpdir(), 'kts-conformance-')), 'results.json');
const cached = args.includes('--cached');
const builder = cached ? join(repo, 'scripts', 'build-cached.mjs') : join(repo, 'bin', 'kustomize-ts.js');
const run = spawnSync(join(corpus, 'run'), ['--jobs', jobs, '--json', out, '--', process.execPath, builder, 'build'], {
  stdio: ['ignore', 'inherit', 'inherit'],
});
if (!existsSync(out)) {
  console.error(`conformance: the runner produced no results (exit ${run.status})`);
  process.exit(1);
}
const results = JSON.parse(readFileSync(out, 'utf8')).results;
const passed = results.filter((r) => r.status === 'pass').map((r) => r.case).sort();

if (args.includes('--update')) {
  writeFileSync(listFile, passed.join('\n') + '\n');
  console.log(`conformance: ${passed.length} of ${results.length} pass; ${listFile} updated`);
  process.exit(0);
}
const expected = existsSync(listFile) ? readFileSync(listFile, 'utf8').split('\n').filter(Boolean) : [];
const now = new Set(passed);
const regressions = expected.filter((c) => !now.has(c));
const gained = passed.filter((c) => !expected.includes(c));
console.log(`conformance${cached ? ' (through a BuildCache)' : ''}: ${passed.length} of ${results.length} pass (expected at least the ${expected.length} listed)`);
if (gained.length) console.log(`newly passing (run with --update to record): ${gained.join(', ')}`);
if (regressions.length) {
  console.error(`REGRESSIONS (listed as passing, failing now):\n  ${regressions.join('\n  ')}`);
  process.exit(1);
}
