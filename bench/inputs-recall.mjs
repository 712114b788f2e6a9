#!/usr/bin/env node
// Recall of a build's inputs, checked against what kubectl really opens. For each repository
// given: `kustomize-ts build-all REPO --format ndjson` lists its roots and each root's inputs;
// each root is built by `kubectl kustomize ROOT` under strace (cwd: the repository), and the
// regular files kubectl opened under the repository are compared with our inputs. A root kubectl
// fails to build is tried again with --load-restrictor LoadRestrictionsNone on both sides (as
// the real-world sweep does); a root either side fails to build is not compared.
//
//   npm run build && node bench/inputs-recall.mjs REPO... [--jobs 2] [--timeout 60] [--json FILE]
//       [--kts bin/kustomize-ts.js] [--kubectl kubectl] [--strace strace] [-- BUILD FLAGS]
//
// Build flags after `--` (`--enable-helm --helm-command helm`, ...) are given to both sides.
// Prints the summary (roots checked, roots with misses, misses, extras) and every miss (a file
// kubectl opened that we did not list); extras (files we listed that kubectl did not open) are
// counted, and all of them go to --json. Exit 1 when anything is missed, 2 on a usage error.
// Repositories are checked one after the other, `--jobs` roots of one at a time.

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const { traceOpens, regularFilesUnder, compareOpened } = await import(path.join(HERE, '..', 'dist', 'test', 'build', 'strace-opens.js'));
const LRN = ['--load-restrictor', 'LoadRestrictionsNone'];

/** The command line: repositories and flags. */
function parseArgs(argv) {
  const opts = { repos: [], flags: [], jobs: 2, timeout: 60, json: undefined, kts: path.join(HERE, '..', 'bin', 'kustomize-ts.js'), kubectl: 'kubectl', strace: 'strace' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      opts.flags = argv.slice(i + 1);
      break;
    }
    if (!a.startsWith('--')) opts.repos.push(path.resolve(a));
    else if (['--jobs', '--timeout'].includes(a)) opts[a.slice(2)] = Number(argv[++i]);
    else if (['--json', '--kts', '--kubectl', '--strace'].includes(a)) opts[a.slice(2)] = argv[++i];
    else usage(`unknown flag ${a}`);
  }
  if (opts.repos.length === 0) usage('no repository given');
  if (!(opts.jobs >= 1) || !(opts.timeout > 0)) usage('--jobs and --timeout take positive numbers');
  return opts;
}

function usage(message) {
  process.stderr.write(`inputs-recall: ${message}\nusage: node bench/inputs-recall.mjs REPO... [--jobs N] [--timeout SECS] [--json FILE] [--kts FILE] [--kubectl CMD] [--strace CMD] [-- BUILD FLAGS]\n`);
  process.exit(2);
}

/** Runs a command to its end (its process group killed at the timeout); its stdout, stderr and whether it exited 0. */
function run(cmd, args, { cwd, timeout }) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out = [];
    const err = [];
    let timedOut = false;
    const timer =
      timeout &&
      setTimeout(() => {
        timedOut = true;
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }, timeout);
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0 && !timedOut, timedOut, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** kubectl kustomize ROOT under strace: whether it built, its output, the files it opened. */
async function kubectlOpens(opts, repo, root, flags) {
  return traceOpens(opts.strace, opts.kubectl, ['kustomize', root, ...opts.flags, ...flags], { cwd: repo, timeoutMs: opts.timeout * 1000 });
}

/** `kustomize-ts build ROOT FLAGS --inputs`: its output and inputs (relative to the repository), or why it failed. */
async function ktsBuild(opts, repo, root, flags, scratch) {
  const file = path.join(scratch, `inputs-${Math.random().toString(36).slice(2)}.json`);
  try {
    const r = await run(process.execPath, [opts.kts, 'build', root, ...opts.flags, ...flags, '--inputs', file], { cwd: repo, timeout: opts.timeout * 1000 });
    if (!r.ok) return { ok: false, error: r.stderr.trim() };
    const { inputs } = JSON.parse(fs.readFileSync(file, 'utf8'));
    return { ok: true, yaml: r.stdout, inputs: inputs.map((f) => path.join(root, f)) };
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** Every root of a repository with its build by kustomize-ts (build-all, ndjson). */
async function ktsRoots(opts, repo) {
  const r = await run(process.execPath, [opts.kts, 'build-all', '.', '--format', 'ndjson', '--jobs', String(opts.jobs), ...opts.flags], { cwd: repo });
  const roots = r.stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  if (roots.length === 0 && !r.ok) throw new Error(`build-all failed in ${repo}: ${r.stderr.trim()}`);
  return roots;
}

/** Checks one root: kubectl under strace against our inputs, with LRNone on both sides when kubectl needs it. */
async function checkRoot(opts, repo, realRepo, listed, scratch) {
  const root = listed.path;
  let flags = [];
  let k = await kubectlOpens(opts, repo, root, flags);
  let ours = listed.ok ? { ok: true, yaml: Buffer.from(listed.yaml, 'utf8'), inputs: listed.inputs } : { ok: false, error: listed.error?.message ?? JSON.stringify(listed.error) };
  if (!k.ok && !k.timedOut) {
    flags = LRN;
    k = await kubectlOpens(opts, repo, root, flags);
    if (k.ok) ours = await ktsBuild(opts, repo, root, flags, scratch);
  }
  if (!k.ok) return { root, status: 'kubectl-fails', error: k.timedOut ? 'timed out' : k.stderr.trim() };
  if (!ours.ok) return { root, flags: flags.join(' '), status: 'kts-fails', error: ours.error };
  const opened = regularFilesUnder(k.opened, realRepo);
  const inputs = regularFilesUnder(
    ours.inputs.map((f) => path.resolve(repo, f)),
    realRepo,
  );
  const { missed, extra } = compareOpened(opened, inputs);
  return { root, flags: flags.join(' '), status: 'checked', sameOutput: Buffer.compare(k.stdout, ours.yaml) === 0, opened: opened.size, unplaced: k.unplaced, missed, extra };
}

/** Runs `work` on each item, `jobs` at a time, keeping the items' order in the results. */
async function pool(items, jobs, work) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
  return results;
}

const count = (results, key) => results.reduce((n, r) => n + r[key].length, 0);

/** The summary, the roots kustomize-ts fails while kubectl builds, and every miss. */
function report(all) {
  const checked = all.filter((r) => r.status === 'checked');
  const missing = checked.filter((r) => r.missed.length);
  const lines = [
    `roots: ${all.length} found, ${checked.length} checked (${checked.filter((r) => r.flags).length} with LoadRestrictionsNone), ` +
      `${all.filter((r) => r.status === 'kubectl-fails').length} kubectl fails, ${all.filter((r) => r.status === 'kts-fails').length} kustomize-ts fails while kubectl builds`,
    `files kubectl opened under the repositories: ${checked.reduce((n, r) => n + r.opened, 0)}`,
    `misses: ${count(checked, 'missed')} in ${missing.length} roots`,
    `extras: ${count(checked, 'extra')} in ${checked.filter((r) => r.extra.length).length} roots (${new Set(checked.flatMap((r) => r.extra.map((f) => `${r.repo}/${f}`))).size} distinct files)`,
    `outputs differing from kubectl's: ${checked.filter((r) => !r.sameOutput).length}`,
  ];
  const unplaced = checked.reduce((n, r) => n + r.unplaced, 0);
  if (unplaced) lines.push(`opens relative to a descriptor strace did not name, not compared: ${unplaced}`);
  for (const r of all.filter((r) => r.status === 'kts-fails')) lines.push(`kustomize-ts fails: ${r.repo} ${r.root} ${r.flags}: ${r.error.split('\n')[0]}`);
  for (const r of missing) {
    lines.push(`missed in ${path.join(r.repo, r.root)}${r.flags ? ` (${r.flags})` : ''}:`);
    for (const f of r.missed) lines.push(`  ${f}`);
  }
  return { text: `${lines.join('\n')}\n`, missed: missing.length > 0 };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'inputs-recall-'));
  const all = [];
  try {
    for (const repo of opts.repos) {
      const realRepo = fs.realpathSync(repo);
      const roots = await ktsRoots(opts, repo);
      const results = await pool(roots, opts.jobs, (listed) => checkRoot(opts, repo, realRepo, listed, scratch));
      for (const r of results) all.push({ repo, ...r });
      const checked = results.filter((r) => r.status === 'checked');
      process.stderr.write(
        `${path.basename(repo)}: ${roots.length} roots, ${checked.length} checked, ${checked.filter((r) => r.missed.length).length} with misses, ` +
          `${count(checked, 'missed')} missed, ${count(checked, 'extra')} extra\n`,
      );
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const { text, missed } = report(all);
  process.stdout.write(text);
  if (opts.json) fs.writeFileSync(opts.json, `${JSON.stringify(all, undefined, 1)}\n`);
  process.exitCode = missed ? 1 : 0;
}

await main();
