#!/usr/bin/env node
// The version profiles on the real-world trees (bench/real-world/trees.tar.gz, or --real-world):
//   - speed: every profile's warm library builds against the default's (5.8.1), interleaved in one
//     process (a round builds every tree once under each profile, in turn), their CPU time, the
//     median per tree, then the median and highest ratio over the trees;
//   - with --oracles: each tree built by the CLI under every profile that has an oracle (the
//     kubectls of scripts/setup-kubectl-oracles.sh) and by that kubectl, compared byte for byte.
//
//   npm run build && node bench/profiles.mjs [--real-world FILE.tar.gz] [--rounds 16] [--oracles]
//
// (--rounds a multiple of the 8 profiles gives each the same places in the order)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from '../dist/src/index.js';
import { KUSTOMIZE_PROFILES } from '../dist/src/versions/profiles.js';
import { median } from './measure.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const ROUNDS = Number(flag('--rounds', '16'));
const archive = flag('--real-world', [path.join(REPO, 'bench', 'real-world', 'trees.tar.gz'), path.join(REPO, '..', 'shared', 'real-world', 'trees.tar.gz')].find((f) => fs.existsSync(f)));
if (!archive) {
  console.error('profiles: no real-world archive (give --real-world FILE.tar.gz)');
  process.exit(1);
}
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kts-profiles-'));
const tar = spawnSync('tar', ['-xzf', archive, '-C', work], { encoding: 'utf8' });
if (tar.status !== 0) throw new Error(`cannot extract ${archive}: ${tar.stderr}`);
const trees = JSON.parse(fs.readFileSync(path.join(work, 'trees.json'), 'utf8')).trees.map((t) => ({
  name: t.path ? `${t.project} ${t.path}` : t.project,
  dir: path.join(work, t.project, t.path),
  flags: t.loadRestrictor === 'none' ? ['--load-restrictor', 'LoadRestrictionsNone'] : [],
  options: t.loadRestrictor === 'none' ? { loadRestrictor: 'none' } : {},
}));
const versions = KUSTOMIZE_PROFILES.map((p) => p.version);
const DEFAULT = '5.8.1';

/** The CPU time (user and system, ms) of one build: on a shared 2-core machine, what other processes take does not count. */
async function timed(tree, version) {
  const before = process.cpuUsage();
  await build(tree.dir, { ...tree.options, kustomizeVersion: version, reorder: 'unspecified', warn: () => {} });
  const { user, system } = process.cpuUsage(before);
  return (user + system) / 1000;
}

// trees every profile builds (one that fails under some profile is left out of the timing)
const timedTrees = [];
for (const tree of trees) {
  try {
    for (const v of versions) await timed(tree, v);
    timedTrees.push(tree);
  } catch (e) {
    process.stderr.write(`  ${tree.name}: left out (${String(e.message).split('\n')[0]})\n`);
  }
}
const times = new Map(timedTrees.map((t) => [t, new Map(versions.map((v) => [v, []]))]));
for (let round = 0; round < ROUNDS; round++) {
  process.stderr.write(`round ${round + 1}/${ROUNDS}\n`);
  for (const tree of timedTrees) {
    // a build untimed first: the first build of a tree after another is the slower (its files, the
    // caches), and that is not the profile's doing; the order of the profiles turns with the rounds
    await timed(tree, DEFAULT);
    const order = versions.map((_, i) => versions[(i + round) % versions.length]);
    for (const v of order) times.get(tree).get(v).push(await timed(tree, v));
  }
}
console.log(`### Version profiles: warm library builds of ${timedTrees.length} real-world trees, ${ROUNDS} rounds\n`);
console.log(`| profile | CPU ms, sum of the trees' medians | median ratio to ${DEFAULT} | highest ratio | trees slower by more than 3% |`);
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const v of versions) {
  const ratios = timedTrees.map((t) => median(times.get(t).get(v)) / median(times.get(t).get(DEFAULT)));
  const sum = timedTrees.reduce((s, t) => s + median(times.get(t).get(v)), 0);
  console.log(`| ${v} | ${sum.toFixed(0)} | ${median(ratios).toFixed(3)} | ${Math.max(...ratios).toFixed(3)} | ${ratios.filter((r) => r > 1.03).length} |`);
}
console.log('');

if (args.includes('--oracles')) {
  const setup = spawnSync(path.join(REPO, 'scripts', 'setup-kubectl-oracles.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (setup.status !== 0) process.exit(1);
  console.log(`### Real-world trees under each profile with an oracle, against its kubectl\n`);
  console.log('| profile | trees | identical (stdout, exit status) | differing |');
  console.log('| --- | ---: | ---: | --- |');
  let differing = 0;
  for (const [version, kubectl] of setup.stdout.trim().split('\n').map((l) => l.split(' '))) {
    const differ = [];
    for (const tree of trees) {
      const theirs = spawnSync(kubectl, ['kustomize', ...tree.flags, tree.dir], { encoding: 'utf8', maxBuffer: 1 << 28 });
      const ours = spawnSync(process.execPath, [path.join(REPO, 'bin', 'kustomize-ts.js'), 'build', '--kustomize-version', version, ...tree.flags, tree.dir], { encoding: 'utf8', maxBuffer: 1 << 28 });
      if (theirs.stdout !== ours.stdout || theirs.status !== ours.status) differ.push(tree.name);
    }
    differing += differ.length;
    console.log(`| ${version} | ${trees.length} | ${trees.length - differ.length} | ${differ.join(', ') || 'none'} |`);
  }
  console.log('');
  if (differing) process.exitCode = 1;
}
fs.rmSync(work, { recursive: true, force: true });
