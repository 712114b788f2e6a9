#!/usr/bin/env node
// Summarises a V8 .cpuprofile (from `node --cpu-prof`): top functions by self time and by
// total (inclusive) time, and self time per source file.
//
//   node --cpu-prof --cpu-prof-dir /tmp/prof bin/kustomize-ts.js build TREE/overlays/prod > /dev/null
//   node bench/profile.mjs /tmp/prof/*.cpuprofile [--top 25]
//
// Or let it do both:  node bench/profile.mjs --run N [--top 25] [--kts PATH]
// which generates a tree of N resources (bench/generate.mjs), profiles one kustomize-ts build of it
// and prints the summary.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTree } from './generate.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..');

function summarise(file, top) {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  // time per sample: timeDeltas[i] is the time before sample i; attribute the *next* delta
  const selfUs = new Map(); // node id -> µs
  const { samples, timeDeltas } = prof;
  for (let i = 0; i < samples.length; i++) {
    const dt = i + 1 < timeDeltas.length ? timeDeltas[i + 1] : 0;
    selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + Math.max(0, dt));
  }
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

  const short = (url) => {
    if (!url) return '';
    let u = url.replace(/^file:\/\//, '');
    const nm = u.lastIndexOf('/node_modules/');
    if (nm >= 0) return u.slice(nm + 1);
    const i = u.indexOf('/dist/');
    return i >= 0 ? u.slice(i + 1) : u;
  };
  const key = (n) => {
    const cf = n.callFrame;
    const name = cf.functionName || '(anonymous)';
    return cf.url ? `${name}  ${short(cf.url)}:${cf.lineNumber + 1}` : name;
  };

  const self = new Map();
  const perFile = new Map();
  const inclusive = new Map();
  for (const [id, us] of selfUs) {
    const n = byId.get(id);
    const k = key(n);
    self.set(k, (self.get(k) ?? 0) + us);
    const f = short(n.callFrame.url) || `(${n.callFrame.functionName || 'native'})`;
    perFile.set(f, (perFile.get(f) ?? 0) + us);
    // inclusive: every distinct function on the stack gets the sample once
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const ck = key(byId.get(cur));
      if (seen.has(ck)) continue;
      seen.add(ck);
      inclusive.set(ck, (inclusive.get(ck) ?? 0) + us);
    }
  }

  const ms = (us) => `${(us / 1000).toFixed(0).padStart(7)} ms`;
  const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
  const table = (title, m, n) => {
    const rows = [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
    return [`${title}`, ...rows.map(([k, us]) => `  ${ms(us)} ${pct(us)}  ${k}`)].join('\n');
  };
  const out = [
    `${file}: ${(total / 1e6).toFixed(2)} s sampled, ${samples.length} samples`,
    '',
    table(`top ${top} functions by self time`, self, top),
    '',
    table(`top ${top} files by self time`, perFile, top),
    '',
    table(`top ${top} functions by total (inclusive) time`, inclusive, top),
  ];
  return out.join('\n');
}

function main() {
  const argv = process.argv.slice(2);
  let top = 25;
  let runN;
  let kts = path.join(REPO, 'bin', 'kustomize-ts.js');
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--top') top = Number(argv[++i]);
    else if (argv[i] === '--run') runN = Number(argv[++i]);
    else if (argv[i] === '--kts') kts = path.resolve(argv[++i]);
    else files.push(argv[i]);
  }
  if (runN) {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kts-prof-'));
    const tree = generateTree(path.join(work, `n${runN}`), runN);
    const profDir = path.join(work, 'prof');
    process.stderr.write(`profiling kustomize-ts on ${runN} resources (${tree.overlay})\n`);
    const r = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', profDir, kts, 'build', tree.overlay], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (r.status !== 0) {
      process.stderr.write(`kustomize-ts failed (exit ${r.status})\n`);
      process.exit(1);
    }
    for (const f of fs.readdirSync(profDir)) files.push(path.join(profDir, f));
    process.stderr.write(`profile kept in ${profDir}\n`);
  }
  if (files.length === 0) {
    process.stderr.write('usage: node bench/profile.mjs FILE.cpuprofile... [--top N]  |  node bench/profile.mjs --run N [--top N] [--kts PATH]\n');
    process.exit(2);
  }
  for (const f of files) process.stdout.write(`${summarise(f, top)}\n`);
}

main();
