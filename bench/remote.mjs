#!/usr/bin/env node
// Benchmark of remote bases: a tree whose overlay pulls BASES bases from one git repository
// (served over smart HTTP from 127.0.0.1), built
//   - by kubectl kustomize (a clone per reference), when kubectl is installed;
//   - by kustomize-ts without a cache (each repository at a ref fetched once per build: "warm in build");
//   - by kustomize-ts with --remote-cache, first build (cold cache) and later builds (warm cache),
//     once with the ref a tag (re-resolved with git ls-remote) and once a pinned commit (no network).
//
//   npx tsc -p . && node bench/remote.mjs [--bases 10] [--runs 3]
//
// Prints a markdown table (medians of --runs builds, each a fresh CLI process) and checks that
// every variant printed the same YAML. Separate from bench.mjs, which times local trees.

import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KTS = path.join(REPO, 'bin', 'kustomize-ts.js');
const { startServer } = await import(path.join(REPO, 'dist/test/load/git-http-server.js'));

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const BASES = flag('bases', 10);
const RUNS = flag('runs', 3);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kts-bench-remote-'));
const git = (cwd, ...a) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.com', ...a], { cwd, stdio: ['ignore', 'pipe', 'pipe'] }).toString().trim();

// the repository: BASES bases of 20 ConfigMaps each, and some bulk so a clone costs what real ones do
const src = path.join(work, 'src');
for (let b = 0; b < BASES; b++) {
  const dir = path.join(src, `base${b}`);
  fs.mkdirSync(dir, { recursive: true });
  const files = [];
  for (let r = 0; r < 20; r++) {
    files.push(`cm${r}.yaml`);
    fs.writeFileSync(path.join(dir, `cm${r}.yaml`), `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b${b}-cm${r}\ndata:\n  key: value-${b}-${r}\n`);
  }
  fs.writeFileSync(path.join(dir, 'kustomization.yaml'), `resources:\n${files.map((f) => `- ${f}`).join('\n')}\n`);
}
fs.mkdirSync(path.join(src, 'docs'));
for (let i = 0; i < 200; i++) fs.writeFileSync(path.join(src, 'docs', `page${i}.md`), `# page ${i}\n${'lorem ipsum '.repeat(400)}\n`);
git(src, 'init', '-q', '-b', 'main');
git(src, 'add', '.');
git(src, 'commit', '-q', '-m', 'bench');
git(src, 'tag', 'v1');
const commit = git(src, 'rev-parse', 'HEAD');
fs.mkdirSync(path.join(work, 'srv/org'), { recursive: true });
git(work, 'clone', '-q', '--bare', src, path.join(work, 'srv/org/repo.git'));
const server = await startServer(path.join(work, 'srv'), path.join(work, 'www'));

const overlay = (ref) => {
  const dir = fs.mkdtempSync(path.join(work, 'overlay-'));
  const refs = Array.from({ length: BASES }, (_, b) => `- ${server.url}/org/repo.git//base${b}?ref=${ref}`);
  fs.writeFileSync(path.join(dir, 'kustomization.yaml'), `resources:\n${refs.join('\n')}\nnamespace: bench\n`);
  return dir;
};
const byTag = overlay('v1');
const byCommit = overlay(commit);

/** Runs a build in a child process (so the in-process git server keeps answering); returns seconds and stdout. */
async function timed(argv) {
  const { spawn } = await import('node:child_process');
  const started = performance.now();
  const out = await new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    let err = '';
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks).toString()) : reject(new Error(`${argv.join(' ')}: exit ${code}\n${err}`))));
  });
  return { seconds: (performance.now() - started) / 1000, out };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kts = (dir, ...flags) => [process.execPath, KTS, 'build', dir, ...flags];

const rows = [];
const outputs = new Set();
async function measure(label, makeArgv, { before } = {}) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    before?.();
    const { seconds, out } = await timed(makeArgv());
    times.push(seconds);
    outputs.add(out);
  }
  rows.push([label, median(times)]);
  process.stderr.write(`${label}: ${times.map((t) => t.toFixed(2)).join(', ')} s\n`);
}

if (spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0) {
  await measure(`kubectl kustomize (${BASES} clones)`, () => ['kubectl', 'kustomize', byTag]);
}
await measure('kustomize-ts, no cache (1 clone per build)', () => kts(byTag));
let cache;
await measure('kustomize-ts, --remote-cache empty (cold)', () => kts(byTag, '--remote-cache', cache), { before: () => (cache = fs.mkdtempSync(path.join(work, 'cache-'))) });
await measure('kustomize-ts, --remote-cache warm, ref a tag (ls-remote)', () => kts(byTag, '--remote-cache', cache));
await measure('kustomize-ts, --remote-cache warm, pinned commit (no network)', () => kts(byCommit, '--remote-cache', cache));
await measure('kustomize-ts, --remote-cache warm, --offline', () => kts(byTag, '--remote-cache', cache, '--offline'));

await server.close();
fs.rmSync(work, { recursive: true, force: true });

console.log(`| ${BASES} remote bases from one repository | median of ${RUNS} |\n| --- | ---: |`);
for (const [label, s] of rows) console.log(`| ${label} | ${s.toFixed(2)} s |`);
console.log(`\nidentical output across all variants: ${outputs.size === 1 ? 'yes' : 'NO'}`);
process.exitCode = outputs.size === 1 ? 0 : 1;
