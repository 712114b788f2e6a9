#!/usr/bin/env node
// Differential fuzzing against the real kustomize: random kustomization trees (tree.mjs), each
// built by `kubectl kustomize` and by kustomize-ts's library (as the CLI builds: no --reorder
// flag), outputs compared byte for byte. When kubectl fails, kustomize-ts must fail too; their
// messages are compared but a different wording is only counted, not a mismatch (error texts
// are checked by the fixtures and the conformance corpus).
//
//   npm run fuzz -- [--cases N] [--from F] [--seed S] [--only I] [--keep DIR] [--jobs J]
//                   [--kubectl PATH] [--kustomize-version V] [--verbose] [--errors]
//
// --cases N     how many trees (default 200); case I of seed S is always the same tree
// --from F      the first case (default 0): cases F to F+N-1, so that one run can be split
// --seed S      the run's seed (default 1)
// --only I      just case I (with --keep, to look at one tree)
// --keep DIR    write every mismatching tree to DIR/seed-S-case-I/ (with kubectl's and our output)
// --jobs J      kubectl processes at once (default 2)
// --kubectl P   the reference kubectl (default: kubectl on the PATH); the run's first line
//               names the kustomize it embeds
// --kustomize-version V
//               build as kustomize V does (the library's `kustomizeVersion`, the CLI's
//               --kustomize-version): the profile that matches the --kubectl given. Checked
//               before the run with `kustomize-ts version --kustomize-version V`, so a build
//               without that profile stops the run instead of comparing the default
// --verbose     print each both-fail pair of messages that differ
// --errors      print kubectl's error for each case where both fail
//
// Exits 1 when a case mismatches. Needs `npm run build` first (npm run fuzz does it).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from '../../dist/src/index.js';
import { caseSeed } from './random.mjs';
import { generateTree } from './tree.mjs';
import { normalizeKubectl } from './divergences.mjs';

const args = process.argv.slice(2);
function flag(name, fallback) {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  if (i + 1 >= args.length) usage(`${name} needs a value`);
  return args[i + 1];
}
function usage(message) {
  console.error(`fuzz: ${message}\nusage: npm run fuzz -- [--cases N] [--from F] [--seed S] [--only I] [--keep DIR] [--jobs J] [--kubectl PATH] [--kustomize-version V] [--verbose] [--errors]`);
  process.exit(2);
}
const integer = (name, fallback) => {
  const v = Number(flag(name, fallback));
  if (!Number.isInteger(v) || v < 0) usage(`${name} takes a whole number`);
  return v;
};
const seed = integer('--seed', '1');
const cases = integer('--cases', '200');
const from = integer('--from', '0');
const only = flag('--only', undefined);
const keep = flag('--keep', undefined);
const jobs = Math.max(1, integer('--jobs', '2'));
const kubectl = flag('--kubectl', 'kubectl');
const kustomizeVersion = flag('--kustomize-version', undefined);
const verbose = args.includes('--verbose');
const showErrors = args.includes('--errors');

/** What a command prints, or the run stops with its error. */
function runOnce(command, commandArgs) {
  const run = spawnSync(command, commandArgs, { encoding: 'utf8' });
  if (run.error || run.status !== 0) {
    console.error(`fuzz: ${[command, ...commandArgs].join(' ')} failed: ${run.error?.message ?? run.stderr.trim()}`);
    process.exit(2);
  }
  return run.stdout;
}
const oracle = /Kustomize Version: (\S+)/.exec(runOnce(kubectl, ['version', '--client']))?.[1] ?? 'unknown';
const cli = fileURLToPath(new URL('../../bin/kustomize-ts.js', import.meta.url));
const profileFlags = kustomizeVersion === undefined ? [] : ['--kustomize-version', kustomizeVersion];
const profile = runOnce(process.execPath, [cli, 'version', ...profileFlags]).trim();
console.log(`fuzz: oracle ${kubectl} (kustomize ${oracle}), kustomize-ts ${profile}`);

const work = mkdtempSync(join(tmpdir(), 'kts-fuzz-'));
const indexes = only !== undefined ? [Number(only)] : Array.from({ length: cases }, (_, i) => from + i);
const totals = { cases: 0, identical: 0, bothFail: 0, messagesDiffer: 0, mismatches: 0 };
const shapes = new Map();
const started = Date.now();

/** kubectl's own error text from its stderr (klog's `err="…"` or `err=<` block, else what follows the warnings: `error: …`). */
function kubectlError(stderr) {
  const quoted = /err="((?:[^"\\]|\\.)*)"/.exec(stderr);
  if (quoted) return JSON.parse(`"${quoted[1]}"`);
  const block = /err=<\n([\s\S]*?)\n >/.exec(stderr);
  if (block) return block[1].split('\n').map((l) => l.replace(/^\t/, '')).join('\n');
  const error = stderr.split('\n').filter((line) => !line.startsWith('# Warning: ')).join('\n');
  return error.replace(/^error: /, '').trim();
}

function runKubectl(dir) {
  return new Promise((resolve) => {
    const child = spawn(kubectl, ['kustomize', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', (e) => resolve({ ok: false, output: '', error: `cannot run ${kubectl}: ${e.message}`, spawnFailed: true }));
    child.on('close', (code) => {
      const stderr = Buffer.concat(err).toString('utf8');
      resolve(code === 0 ? { ok: true, output: Buffer.concat(out).toString('utf8') } : { ok: false, output: '', error: kubectlError(stderr) });
    });
  });
}

async function runOurs(dir) {
  try {
    const options = { reorder: 'unspecified', loadRestrictor: 'rootOnly', warn: () => {} };
    if (kustomizeVersion !== undefined) options.kustomizeVersion = kustomizeVersion;
    const { yaml } = await build(dir, options);
    return { ok: true, output: yaml };
  } catch (e) {
    return { ok: false, output: '', error: e instanceof Error ? e.message : String(e) };
  }
}

function writeTree(dir, files) {
  for (const [path, text] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** The first lines where two outputs part, for the report. */
function firstDifference(a, b) {
  const x = a.split('\n');
  const y = b.split('\n');
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const show = (lines) => lines.slice(Math.max(0, i - 2), i + 3).map((l) => `      ${l}`).join('\n');
  return `    at line ${i + 1}\n    kubectl:\n${show(x)}\n    kustomize-ts:\n${show(y)}`;
}

async function runCase(index) {
  const tree = generateTree(caseSeed(seed, index));
  const dir = join(work, `case-${index}`);
  writeTree(dir, tree.files);
  const root = join(dir, tree.build);
  const [theirs, ours] = await Promise.all([runKubectl(root), runOurs(root)]);
  if (theirs.spawnFailed) {
    console.error(`fuzz: ${theirs.error}`);
    process.exit(2);
  }
  totals.cases++;
  const shape = shapes.get(tree.shape) ?? { cases: 0, fail: 0 };
  shape.cases++;
  let verdict;
  if (theirs.ok && ours.ok) {
    const expected = normalizeKubectl(theirs.output);
    verdict = expected === ours.output ? 'identical' : 'output differs';
    if (verdict !== 'identical') verdict += `\n${firstDifference(expected, ours.output)}`;
  } else if (!theirs.ok && !ours.ok) {
    verdict = 'both fail';
    shape.fail++;
    if (showErrors) console.log(`case ${index}: both fail: ${theirs.error.split('\n')[0]}`);
    if (theirs.error.trim() !== ours.error.trim()) {
      totals.messagesDiffer++;
      if (verbose) console.log(`case ${index}: both fail, messages differ\n  kubectl:      ${theirs.error}\n  kustomize-ts: ${ours.error}`);
    }
  } else if (theirs.ok) verdict = `only kustomize-ts fails: ${ours.error}`;
  else verdict = `only kubectl fails: ${theirs.error}`;
  shapes.set(tree.shape, shape);
  if (verdict === 'identical') totals.identical++;
  else if (verdict === 'both fail') totals.bothFail++;
  else {
    totals.mismatches++;
    console.log(`MISMATCH seed ${seed} case ${index} (${tree.shape}, build ${tree.build}): ${verdict}`);
    if (keep) {
      const kept = join(keep, `seed-${seed}-case-${index}`);
      rmSync(kept, { recursive: true, force: true });
      cpSync(dir, join(kept, 'input'), { recursive: true });
      writeFileSync(join(kept, 'kubectl.txt'), theirs.ok ? theirs.output : `ERROR: ${theirs.error}\n`);
      writeFileSync(join(kept, 'kustomize-ts.txt'), ours.ok ? ours.output : `ERROR: ${ours.error}\n`);
      writeFileSync(join(kept, 'case.json'), JSON.stringify({ seed, case: index, build: tree.build, shape: tree.shape }, null, 2) + '\n');
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

let next = 0;
async function worker() {
  while (next < indexes.length) await runCase(indexes[next++]);
}
try {
  await Promise.all(Array.from({ length: Math.min(jobs, indexes.length) }, worker));
} finally {
  rmSync(work, { recursive: true, force: true });
}

const seconds = ((Date.now() - started) / 1000).toFixed(1);
const byShape = [...shapes].sort().map(([s, v]) => `${s} ${v.cases} (${v.fail} fail)`).join(', ');
const range = only !== undefined ? `case ${only}` : `cases ${from}-${from + cases - 1}`;
console.log(`fuzz: seed ${seed}, ${range}, ${totals.cases} cases in ${seconds} s: ${totals.identical} identical, ${totals.bothFail} both fail (${totals.messagesDiffer} with other messages), ${totals.mismatches} mismatches`);
console.log(`fuzz: shapes: ${byShape}`);
process.exit(totals.mismatches > 0 ? 1 : 0);
