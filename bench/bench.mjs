#!/usr/bin/env node
// Benchmark: kustomize-ts vs `kubectl kustomize`, side by side, on generated kustomization trees.
//
//   npx tsc -p . && node bench/bench.mjs [--sizes 1000,5000] [--runs 3] [--kubectl-timeout 600]
//                                         [--kts-only] [--keep DIR] [--kubectl PATH]
//
// For every size N it writes a tree whose build yields exactly N resources (bench/generate.mjs),
// then builds it with both tools, alternating (kts, kubectl, kts, kubectl, ...), checks that the
// outputs are byte-identical, and prints a markdown table (stdout); progress goes to stderr.
// Exit status: 0 when every build succeeded and every compared output was identical, 1 otherwise.
// See bench/README.md.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTree, MIN_RESOURCES } from './generate.mjs';
import { median, run } from './measure.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..');
const DEFAULT_KTS_BIN = path.join(REPO, 'bin', 'kustomize-ts.js');

// ---------------------------------------------------------------- flags

const USAGE = `usage: node bench/bench.mjs [flags]

  --sizes LIST            comma-separated resource counts to build (default 1000,5000)
  --runs N                timed runs per tool and size (default 3)
  --kubectl-timeout SECS  stop a kubectl build after this long and report "> SECS s" (default 600);
                          the remaining kubectl runs at that size and at larger sizes are skipped
  --kubectl-budget SECS   stop repeating kubectl at a size once its runs there have taken this long
                          (or the next one would exceed it, judging by the last); kustomize-ts still
                          does all its runs (default 400; 0 = no budget). Keeps the default run
                          short: kubectl v5.5 needs minutes at 5000 resources.
  --kts-only              time only kustomize-ts (no kubectl, no comparison)
  --keep DIR              write the trees and outputs under DIR and keep them
  --kubectl PATH          the kubectl binary (default: kubectl on PATH)
  --kts PATH              the kustomize-ts CLI script run with this node (default: bin/kustomize-ts.js
                          of this checkout, which needs dist/ compiled: npx tsc -p .)
  -h, --help              this help
`;

function parseArgs(argv) {
  const o = { sizes: [1000, 5000], runs: 3, kubectlTimeout: 600, kubectlBudget: 400, ktsOnly: false, keep: undefined, kubectl: 'kubectl', kts: DEFAULT_KTS_BIN };
  const value = (i, name) => {
    if (i >= argv.length) fail(`${name} needs a value`);
    return argv[i];
  };
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    let inline;
    if (a.startsWith('--') && a.includes('=')) [a, inline] = [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)];
    const next = () => inline ?? value(++i, a);
    switch (a) {
      case '--sizes':
        o.sizes = next().split(',').filter(Boolean).map((s) => intArg(s, '--sizes', MIN_RESOURCES));
        if (o.sizes.length === 0) fail('--sizes is empty');
        break;
      case '--runs':
        o.runs = intArg(next(), '--runs', 1);
        break;
      case '--kubectl-timeout':
        o.kubectlTimeout = Number(next());
        if (!(o.kubectlTimeout > 0)) fail('--kubectl-timeout must be a positive number of seconds');
        break;
      case '--kubectl-budget':
        o.kubectlBudget = Number(next());
        if (!(o.kubectlBudget >= 0)) fail('--kubectl-budget must be a number of seconds');
        break;
      case '--kts-only':
        o.ktsOnly = true;
        break;
      case '--keep':
        o.keep = path.resolve(next());
        break;
      case '--kubectl':
        o.kubectl = next();
        break;
      case '--kts':
        o.kts = path.resolve(next());
        break;
      case '-h':
      case '--help':
        process.stdout.write(USAGE);
        process.exit(0);
      default:
        fail(`unknown argument ${argv[i]}\n\n${USAGE}`);
    }
  }
  return o;
}

function intArg(s, name, min) {
  const n = Number(s);
  if (!Number.isInteger(n) || n < min) fail(`${name}: ${s} is not an integer >= ${min}`);
  return n;
}

function fail(msg) {
  process.stderr.write(`bench: ${msg}\n`);
  process.exit(2);
}

const load = () => os.loadavg()[0].toFixed(1);
const log = (msg) => process.stderr.write(`${msg}\n`);

// ---------------------------------------------------------------- running one build

// ---------------------------------------------------------------- output comparison

function countDocuments(buf) {
  if (buf.length === 0) return 0;
  let n = 1;
  const sep = Buffer.from('\n---\n');
  for (let i = buf.indexOf(sep); i >= 0; i = buf.indexOf(sep, i + 1)) n++;
  return n;
}

/** A report of the first difference between two outputs: line number, context, resource. */
function describeDifference(aFile, bFile, aName, bName) {
  const a = fs.readFileSync(aFile, 'utf8').split('\n');
  const b = fs.readFileSync(bFile, 'utf8').split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  // the resource the line belongs to: its document's `kind:` and `metadata.name`
  let start = Math.min(i, a.length - 1);
  while (start > 0 && a[start - 1] !== '---') start--;
  let kind = '?';
  let name = '?';
  let inMeta = false;
  for (let j = start; j < a.length && a[j] !== '---'; j++) {
    if (a[j].startsWith('kind: ')) kind = a[j].slice(6);
    if (/^\S/.test(a[j])) inMeta = a[j] === 'metadata:';
    else if (inMeta && name === '?' && a[j].startsWith('  name: ')) name = a[j].slice(8);
  }
  const lo = Math.max(0, i - 3);
  const show = (lines, label) =>
    [`  ${label}:`]
      .concat(lines.slice(lo, i + 4).map((l, k) => `    ${String(lo + k + 1).padStart(7)}${lo + k === i ? ' >' : '  '} ${l}`))
      .join('\n');
  return [
    `  first difference at line ${i + 1} (${aName} has ${a.length} lines, ${bName} has ${b.length}), in ${kind} ${name}`,
    show(a, aName),
    show(b, bName),
  ].join('\n');
}

// ---------------------------------------------------------------- statistics and formatting


const fmtS = (s) => (s >= 100 ? s.toFixed(0) : s >= 10 ? s.toFixed(1) : s.toFixed(2)) + ' s';
const fmtRate = (r) => (r >= 1000 ? Math.round(r).toLocaleString('en-US') : r.toFixed(r >= 10 ? 0 : 1));
const fmtRatio = (r) => `${r >= 10 ? r.toFixed(0) : r.toFixed(1)}×`;
const cpuRatio = (row) =>
  row.ktsCpu.length && row.kubectlCpu.length && median(row.ktsCpu) > 0 && median(row.kubectlCpu) > 0
    ? fmtRatio(median(row.kubectlCpu) / median(row.ktsCpu))
    : '—';
const cpuCell = (xs) => (xs.length && median(xs) > 0 ? fmtS(median(xs)) : 'n/a');
const fmtMb = (kb) => (kb > 0 ? `${Math.round(kb / 1024)} MB` : 'n/a');

// ---------------------------------------------------------------- main

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const probe = spawnSync(process.execPath, [opts.kts, 'version'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    fail(`cannot run ${opts.kts} version (compile first: npx tsc -p .)\n${(probe.stderr || probe.error?.message || '').trim()}`);
  }
  let kubectlVersion = '';
  if (!opts.ktsOnly) {
    const v = spawnSync(opts.kubectl, ['version', '--client'], { encoding: 'utf8' });
    if (v.error || v.status !== 0) fail(`cannot run ${opts.kubectl} (${v.error?.message ?? v.stderr.trim()}); use --kts-only or --kubectl PATH`);
    kubectlVersion = /Kustomize Version: (\S+)/.exec(v.stdout)?.[1] ?? '?';
  }
  const work = opts.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kts-bench-'));
  fs.mkdirSync(work, { recursive: true });
  const cpu = os.cpus()[0]?.model?.trim() ?? '?';
  log(`kustomize-ts ${opts.kts} (${probe.stdout.trim()}); node ${process.version}; ${opts.ktsOnly ? 'kts only' : `kubectl kustomize (kustomize ${kubectlVersion})`}`);
  log(`machine: ${cpu}, ${os.cpus().length} CPUs; work dir ${work}`);

  const loadAtStart = load();
  const rows = [];
  let failed = false;
  let keepWork = Boolean(opts.keep);
  let kubectlGaveUp = false; // a timeout at a smaller size: larger sizes would time out too

  for (const n of opts.sizes) {
    const dir = path.join(work, `n${n}`);
    fs.rmSync(dir, { recursive: true, force: true });
    const g0 = Date.now();
    const tree = generateTree(dir, n);
    log(`\n== ${n} resources: ${tree.apps} apps, ${tree.files} files under ${dir} (generated in ${Date.now() - g0} ms)`);
    const kinds = Object.entries(tree.counts)
      .sort((x, y) => y[1] - x[1])
      .map(([k, c]) => `${c} ${k}`)
      .join(', ');
    log(`   ${kinds}`);

    const row = { n, resources: undefined, kts: [], kubectl: [], ktsCpu: [], kubectlCpu: [], ktsRss: 0, kubectlRss: 0, kubectlTimeout: false, identical: undefined, notes: [] };
    const ktsOut = path.join(dir, 'out-kts.yaml');
    const kubectlOut = path.join(dir, 'out-kubectl.yaml');
    let ktsFirst;
    let kubectlFirst;
    let runKubectl = !opts.ktsOnly && !kubectlGaveUp;
    if (!opts.ktsOnly && kubectlGaveUp) row.notes.push('kubectl skipped (timed out at a smaller size)');

    for (let r = 1; r <= opts.runs; r++) {
      // kustomize-ts
      const out = r === 1 ? ktsOut : path.join(dir, 'out-kts.rerun.yaml');
      const k = await run(process.execPath, [opts.kts, 'build', tree.overlay], out, 0);
      if (!k.ok) {
        log(`   kts run ${r}: FAILED (exit ${k.code ?? k.signal})\n${k.stderr}`);
        failed = true;
        break;
      }
      row.kts.push(k.seconds);
      row.ktsCpu.push(k.cpu);
      row.ktsRss = Math.max(row.ktsRss, k.rssKb);
      if (r === 1) ktsFirst = fs.readFileSync(ktsOut);
      else if (!fs.readFileSync(out).equals(ktsFirst)) {
        log(`   kts run ${r}: output differs from run 1 (non-deterministic!)`);
        row.notes.push('kts output not deterministic');
        failed = true;
      }
      log(`   run ${r}/${opts.runs}  kustomize-ts  ${fmtS(k.seconds).padStart(8)}  CPU ${fmtS(k.cpu).padStart(8)}  peak RSS ${fmtMb(k.rssKb)}  load ${load()}`);

      // kubectl
      if (!runKubectl) continue;
      const kout = r === 1 || !kubectlFirst ? kubectlOut : path.join(dir, 'out-kubectl.rerun.yaml');
      const c = await run(opts.kubectl, ['kustomize', tree.overlay], kout, opts.kubectlTimeout);
      if (c.timedOut) {
        log(`   run ${r}/${opts.runs}  kubectl       > ${opts.kubectlTimeout} s (timed out; no more kubectl runs at this size or larger)`);
        row.kubectlTimeout = true;
        runKubectl = false;
        kubectlGaveUp = true;
        continue;
      }
      if (!c.ok) {
        log(`   kubectl run ${r}: FAILED (exit ${c.code ?? c.signal})\n${c.stderr}`);
        row.notes.push('kubectl failed');
        failed = true;
        runKubectl = false;
        continue;
      }
      row.kubectl.push(c.seconds);
      row.kubectlCpu.push(c.cpu);
      row.kubectlRss = Math.max(row.kubectlRss, c.rssKb);
      const spent = row.kubectl.reduce((a, b) => a + b, 0);
      if (opts.kubectlBudget > 0 && r < opts.runs && spent + c.seconds > opts.kubectlBudget) {
        runKubectl = false;
        row.kubectlBudgetHit = true;
      }
      if (!kubectlFirst) kubectlFirst = fs.readFileSync(kout);
      log(`   run ${r}/${opts.runs}  kubectl       ${fmtS(c.seconds).padStart(8)}  CPU ${fmtS(c.cpu).padStart(8)}  peak RSS ${fmtMb(c.rssKb)}  load ${load()}`);
      if (row.kubectlBudgetHit) log(`   (kubectl budget of ${opts.kubectlBudget} s reached at this size: no more kubectl runs here; --kubectl-budget 0 for all)`);
    }

    if (ktsFirst) {
      row.resources = countDocuments(ktsFirst);
      if (row.resources !== n) {
        log(`   kts printed ${row.resources} resources, the tree should give ${n}`);
        row.notes.push(`kts printed ${row.resources} resources`);
      }
    }
    if (ktsFirst && kubectlFirst) {
      row.identical = ktsFirst.equals(kubectlFirst);
      if (!row.identical) {
        failed = true;
        keepWork = true;
        log(`\n   !!!!!!!! OUTPUTS DIFFER at ${n} resources: kustomize-ts and kubectl kustomize disagree !!!!!!!!`);
        log(describeDifference(kubectlOut, ktsOut, 'kubectl', 'kustomize-ts'));
        log(`   full outputs: ${kubectlOut}\n                 ${ktsOut}\n   (diff -u ${kubectlOut} ${ktsOut})`);
      } else log(`   outputs identical (${ktsFirst.length.toLocaleString('en-US')} bytes, ${row.resources} resources)`);
    }
    rows.push(row);
    if (failed && !ktsFirst) break;
  }

  // ---- the table
  const lines = [];
  const header = opts.ktsOnly
    ? ['size', 'resources', 'kustomize-ts (median)', 'resources/s', 'CPU', 'peak RSS']
    : ['size', 'resources', 'kustomize-ts (median)', 'kubectl kustomize (median)', 'kubectl / kts', 'kubectl / kts (CPU)', 'kts resources/s', 'kubectl resources/s', 'kts CPU', 'kubectl CPU', 'kts peak RSS', 'kubectl peak RSS', 'identical'];
  lines.push(`| ${header.join(' | ')} |`);
  lines.push(`|${header.map((h) => (h === 'identical' ? ' :---: ' : ' ---: ')).join('|')}|`);
  for (const row of rows) {
    const res = row.resources ?? row.n;
    const kts = row.kts.length ? median(row.kts) : undefined;
    const ktsCell = kts === undefined ? 'failed' : fmtS(kts);
    const ktsRate = kts === undefined ? '—' : fmtRate(res / kts);
    if (opts.ktsOnly) {
      lines.push(`| ${row.n} | ${res} | ${ktsCell} | ${ktsRate} | ${cpuCell(row.ktsCpu)} | ${fmtMb(row.ktsRss)} |`);
      continue;
    }
    let kub;
    let kubCell;
    let ratio;
    let kubRate;
    if (row.kubectl.length) {
      kub = median(row.kubectl);
      const nRuns = `${row.kubectl.length} run${row.kubectl.length > 1 ? 's' : ''}`;
      kubCell =
        fmtS(kub) +
        (row.kubectlTimeout ? ` (${nRuns}; then > ${opts.kubectlTimeout} s)` : row.kubectl.length < opts.runs ? ` (${nRuns})` : '');
      ratio = kts === undefined ? '—' : fmtRatio(kub / kts);
      kubRate = fmtRate(res / kub);
    } else if (row.kubectlTimeout) {
      kubCell = `> ${opts.kubectlTimeout} s`;
      ratio = kts === undefined ? '—' : `> ${fmtRatio(opts.kubectlTimeout / kts)}`;
      kubRate = `< ${fmtRate(res / opts.kubectlTimeout)}`;
    } else {
      kubCell = row.notes.some((x) => x.startsWith('kubectl skipped')) ? 'skipped' : 'failed';
      ratio = '—';
      kubRate = '—';
    }
    const ident = row.identical === undefined ? 'not compared' : row.identical ? 'yes' : '**NO**';
    lines.push(
      `| ${row.n} | ${res} | ${ktsCell} | ${kubCell} | ${ratio} | ${cpuRatio(row)} | ${ktsRate} | ${kubRate} | ${cpuCell(row.ktsCpu)} | ${cpuCell(row.kubectlCpu)} | ${fmtMb(row.ktsRss)} | ${row.kubectlRss ? fmtMb(row.kubectlRss) : 'n/a'} | ${ident} |`,
    );
  }
  const env = `${opts.runs} run${opts.runs > 1 ? 's' : ''} per tool and size${opts.ktsOnly ? '' : ', alternating'}; node ${process.version}${
    opts.ktsOnly ? '' : `, kubectl kustomize (kustomize ${kubectlVersion})`
  }; ${cpu}, ${os.cpus().length} CPUs; 1-min load average ${loadAtStart} at start, ${load()} at end`;
  const differ = rows.filter((r) => r.identical === false).map((r) => r.n);
  const warn = differ.length
    ? `\n**OUTPUTS DIFFER** at ${differ.join(', ')} resources: kustomize-ts and kubectl kustomize disagree, so those timings compare different work (details on stderr).\n`
    : '';
  process.stdout.write(`\n${lines.join('\n')}\n\n${env}\n${warn}`);

  if (!keepWork) fs.rmSync(work, { recursive: true, force: true });
  else log(`\nkept ${work}`);
  if (failed) log('\nbench: FAILED (see above)');
  process.exitCode = failed ? 1 : 0;
}

await main();
