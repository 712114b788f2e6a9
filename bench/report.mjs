#!/usr/bin/env node
// The speed report (npm run bench): kustomize-ts side by side with `kubectl kustomize`, runs
// alternating, outputs checked byte for byte, on
//   - the tiny tree examples/hello/overlays/production (also against `node -e 0`),
//   - real-world trees: every directory given with --trees, or else the set in the archive given
//     with --real-world (default: bench/real-world/trees.tar.gz, else ../shared/real-world/trees.tar.gz:
//     kustomization directories of public projects, see its SOURCES.md), with the median, lowest
//     and highest ratio split by kubectl's time; without an archive, kustomize's examples in the
//     shared conformance corpus and the CRD-heavy trees bench/generate-crds.mjs writes,
//   - generated large trees (bench/generate.mjs; each of its three overlays built) at --large sizes (kubectl only up to
//     --kubectl-max), with peak RSS and the growth exponent,
//   - warm library builds: builds of a medium tree after the first in the same process, without and
//     with a BuildCache (unchanged, and after an edit),
//   - explain: on every real-world tree, builds recording who wrote each value against plain
//     builds, warm in the library and as the CLI runs them (`explain --format json` against `build`),
//   - validate: on every real-world tree and a generated 2,000-resource overlay, checking the output
//     against its schemas against the build (warm, bench/validate-run.mjs) and `validate` against `build` (CLI),
//   - with --repo DIR, a whole repository: build-all against a loop of kubectl and a loop of our
//     build, every root's output checked, growth with the roots, and affected (bench/repository.mjs),
//   - the render server under load: `kustomize-ts serve` over about 200 roots of --repo and the
//     real-world trees, 10,000 requests at concurrency 1, 8 and 32 (bench/serve-load.mjs),
//   - the language server: `kustomize-ts lsp` over stdio, unsaved edits to diagnostics and hovers on
//     the real-world trees, and opening --repo (bench/lsp-load.mjs).
// Prints markdown tables on stdout, progress on stderr. Exit 1 when outputs differ or a build fails.
//
// With --against DIR the other side is not kubectl but kustomize-ts as built in DIR (a checkout of
// another commit, built with npm run build), at every size: how a change moves the time.
//
//   npm run build && node bench/report.mjs [--runs 9] [--large 2000,20000,100000] [--kubectl-max 2000]
//                                         [--trees DIR,DIR | --real-world FILE.tar.gz] [--skip tiny,real,large,warm,explain,validate,repo,serve,lsp]
//                                         [--against DIR] [--repo DIR]

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCrdTree } from './generate-crds.mjs';
import { ENVIRONMENTS, generateTree } from './generate.mjs';
import { median, run } from './measure.mjs';
import { repositorySection } from './repository.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// run as a program, as users run it (its #! line matters: see bin/kustomize-ts.js)
const KTS = path.join(REPO, 'bin', 'kustomize-ts.js');
const EXTRA_CA = Boolean(process.env.NODE_EXTRA_CA_CERTS);
const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const RUNS = Number(flag('--runs', '9'));
const LARGE = flag('--large', '2000,20000,100000').split(',').filter(Boolean).map(Number);
const KUBECTL_MAX = Number(flag('--kubectl-max', '2000'));
const AGAINST = flag('--against', '');
/** What kustomize-ts is compared with: kubectl, or kustomize-ts built in another checkout. */
const REF = AGAINST
  ? { label: `kustomize-ts at ${path.basename(path.resolve(AGAINST))}`, short: 'base', cmd: path.join(path.resolve(AGAINST), 'bin', 'kustomize-ts.js'), args: (dir) => ['build', dir] }
  : { label: 'kubectl kustomize', short: 'kubectl', cmd: 'kubectl', args: (dir) => ['kustomize', dir] };
const SKIP = new Set(flag('--skip', '').split(','));
const log = (m) => process.stderr.write(`${m}\n`);
const WORK = fs.mkdtempSync(path.join(os.tmpdir(), 'kts-report-'));
// the shared folder, beside the repository (or beside the worktree folder the repository is in)
const SHARED = [path.join(REPO, '..', 'shared'), path.join(REPO, '..', '..', 'shared')];
let failed = false;

/** `make`'s result, made on the first call. */
function once(make) {
  let made;
  return () => (made ??= make());
}

const ms = (s) => `${Math.round(s * 1000)} ms`;
const sec = (s) => (s >= 10 ? `${s.toFixed(1)} s` : `${s.toFixed(2)} s`);
const mb = (kb) => (kb > 0 ? `${Math.round(kb / 1024)} MB` : 'n/a');
const ratio = (a, b) => (a / b).toFixed(2);

/** Builds `dir` with both tools, alternating, `runs` times each; medians, peak RSS, identical output. */
async function compare(dir, runs, kubectlRuns = runs) {
  const out = { kts: [], kubectl: [], ktsRss: 0, kubectlRss: 0, identical: undefined };
  for (let i = 0; i < runs; i++) {
    const k = await run(KTS, ['build', dir], path.join(WORK, 'kts.yaml'));
    if (!k.ok) throw new Error(`kustomize-ts failed on ${dir}: ${k.stderr.slice(0, 500)}`);
    out.kts.push(k.seconds);
    out.ktsRss = Math.max(out.ktsRss, k.rssKb);
    if (i >= kubectlRuns) continue;
    const c = await run(REF.cmd, REF.args(dir), path.join(WORK, 'kubectl.yaml'));
    if (!c.ok) throw new Error(`${REF.label} failed on ${dir}: ${c.stderr.slice(0, 500)}`);
    out.kubectl.push(c.seconds);
    out.kubectlRss = Math.max(out.kubectlRss, c.rssKb);
    if (i === 0) out.identical = fs.readFileSync(path.join(WORK, 'kts.yaml')).equals(fs.readFileSync(path.join(WORK, 'kubectl.yaml')));
  }
  if (out.identical === false) failed = true;
  return out;
}

async function tiny() {
  const dir = path.join(REPO, 'examples', 'hello', 'overlays', 'production');
  const node0 = [];
  const bareNode0 = [];
  const both = { kts: [], kubectl: [], ktsRss: 0, kubectlRss: 0, identical: undefined };
  for (let i = 0; i < RUNS; i++) {
    const r = await compare(dir, 1);
    both.kts.push(...r.kts);
    both.kubectl.push(...r.kubectl);
    both.ktsRss = Math.max(both.ktsRss, r.ktsRss);
    both.kubectlRss = Math.max(both.kubectlRss, r.kubectlRss);
    both.identical = both.identical !== false && r.identical;
    node0.push((await run(process.execPath, ['-e', '0'], path.join(WORK, 'node0'))).seconds);
    if (EXTRA_CA) bareNode0.push((await run('env', ['-u', 'NODE_EXTRA_CA_CERTS', process.execPath, '-e', '0'], path.join(WORK, 'node0'))).seconds);
  }
  const k = median(both.kts), c = median(both.kubectl), n = median(node0);
  console.log('### Tiny tree (examples/hello/overlays/production)\n');
  console.log(`| kustomize-ts | ${REF.label} | kts / ${REF.short} | \`node -e 0\` | kts − node | kts peak RSS | ${REF.short} peak RSS | identical |`);
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | :---: |');
  console.log(`| ${ms(k)} | ${ms(c)} | ${ratio(k, c)} | ${ms(n)} | ${ms(k - n)} | ${mb(both.ktsRss)} | ${mb(both.kubectlRss)} | ${both.identical ? 'yes' : '**NO**'} |\n`);
  if (EXTRA_CA) {
    const b = median(bareNode0);
    console.log(`NODE_EXTRA_CA_CERTS is set here, which Node parses at start-up: \`node -e 0\` takes ${ms(n)} with it and ${ms(b)} without it; kts − node without it: ${ms(k - b)}. bin/kustomize-ts.js starts Node without it and applies the certificates to its own TLS connections (src/cli/deferred-ca-certs.ts).\n`);
  }
}

/** The vendored real-world set: a trees.tar.gz holding trees.json ({ trees: [{ project, path }] }), one folder per project. */
function realWorldArchive() {
  const given = flag('--real-world', '');
  if (given) return given;
  const candidates = [path.join(REPO, 'bench', 'real-world'), ...SHARED.map((d) => path.join(d, 'real-world'))];
  return candidates.map((d) => path.join(d, 'trees.tar.gz')).find((f) => fs.existsSync(f));
}

/** The real-world trees, extracted once (the real-world and warm sections both use them). */
const realTrees = once(() => {
  const given = flag('--trees', '');
  if (given) return given.split(',').map((d) => ({ name: path.basename(d), dir: d }));
  const archive = realWorldArchive();
  if (archive) {
    const dir = path.join(WORK, 'real-world');
    fs.mkdirSync(dir);
    const tar = spawnSync('tar', ['-xzf', archive, '-C', dir], { encoding: 'utf8' });
    if (tar.status !== 0) throw new Error(`cannot extract ${archive}: ${tar.stderr}`);
    const { trees } = JSON.parse(fs.readFileSync(path.join(dir, 'trees.json'), 'utf8'));
    return trees.map((t) => ({ name: t.path ? `${t.project} ${t.path}` : t.project, dir: path.join(dir, t.project, t.path) }));
  }
  log(`no real-world set (bench/real-world/trees.tar.gz or shared/real-world/trees.tar.gz): kustomize's examples and generated CRD trees instead`);
  const trees = [];
  const corpus = SHARED.map((d) => path.join(d, 'conformance', 'cases', 'examples')).find((d) => fs.existsSync(d));
  if (corpus) {
    for (const name of fs.readdirSync(corpus).sort()) {
      const input = path.join(corpus, name, 'input');
      const spec = JSON.parse(fs.readFileSync(path.join(corpus, name, 'case.json'), 'utf8'));
      if (spec.expect !== 'output' || spec.options?.enablePlugins) continue;
      const rel = spec.build ?? '.';
      trees.push({ name: `kustomize example ${name}`, dir: path.join(input, rel) });
    }
  }
  for (const [name, crds] of [['CRD-heavy (argo-workflows-like: 20 CRDs, 16 MB)', 20], ['CRD-heavy (cert-manager-like: 6 CRDs, 5 MB)', 6]]) {
    const dir = path.join(WORK, `crds-${crds}`);
    generateCrdTree(dir, crds);
    trees.push({ name, dir: path.join(dir, 'overlay') });
  }
  return trees;
});

/** Median, lowest and highest kts/kubectl ratio of all rows and by kubectl's time, as issue 12 reports them. */
function ratioSummary(rows) {
  const groups = [
    ['all', () => true],
    [`${REF.short} < 150 ms`, (r) => r.c < 0.15],
    [`${REF.short} 150–400 ms`, (r) => r.c >= 0.15 && r.c <= 0.4],
    [`${REF.short} > 400 ms`, (r) => r.c > 0.4],
  ];
  console.log(`| trees | count | median kts / ${REF.short} | lowest | highest | kts faster |`);
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [label, take] of groups) {
    const ratios = rows.filter(take).map((r) => r.k / r.c);
    if (ratios.length === 0) continue;
    console.log(`| ${label} | ${ratios.length} | ${median(ratios).toFixed(2)} | ${Math.min(...ratios).toFixed(2)} | ${Math.max(...ratios).toFixed(2)} | ${ratios.filter((x) => x < 1).length} |`);
  }
  console.log('');
}

async function real() {
  const rows = [];
  for (const { name, dir } of realTrees()) {
    log(`real-world: ${name}`);
    try {
      const first = Math.max(3, Math.ceil(RUNS / 3));
      const r = await compare(dir, first);
      // a tree kubectl builds in tens of milliseconds is where a stray pause weighs most, and runs are cheap: it gets them all
      if (median(r.kubectl) < 0.3 && RUNS > first) {
        const more = await compare(dir, RUNS - first);
        r.kts.push(...more.kts);
        r.kubectl.push(...more.kubectl);
      }
      rows.push({ name, k: median(r.kts), c: median(r.kubectl), identical: r.identical });
    } catch (e) {
      log(`  skipped: ${e.message.split('\n')[0]}`);
    }
  }
  console.log('### Real-world trees\n');
  console.log(`| tree | kustomize-ts | ${REF.label} | kts / ${REF.short} | identical |`);
  console.log('| --- | ---: | ---: | ---: | :---: |');
  for (const r of rows) console.log(`| ${r.name} | ${ms(r.k)} | ${ms(r.c)} | ${ratio(r.k, r.c)} | ${r.identical ? 'yes' : '**NO**'} |`);
  console.log('');
  ratioSummary(rows);
}

async function large() {
  const rows = [];
  for (const n of LARGE) {
    const dir = path.join(WORK, `n${n}`);
    log(`large: generating ${n}`);
    const { overlays } = generateTree(dir, n);
    const withKubectl = AGAINST !== '' || n <= KUBECTL_MAX;
    // every overlay is built, as a user building each environment does: times add up
    const row = { n, k: 0, c: withKubectl ? 0 : undefined, ktsRss: 0, kubectlRss: 0, identical: withKubectl ? true : undefined };
    for (const overlay of overlays) {
      log(`large: ${n} ${path.basename(overlay)}`);
      // kubectl takes tens of seconds from 2,000 resources on: it builds each overlay once, and
      // kustomize-ts three times (its median taken), once only past 20,000
      const r = await compare(overlay, n > 20000 ? 1 : 3, !withKubectl ? 0 : AGAINST || n < 2000 ? 3 : 1);
      row.k += median(r.kts);
      if (withKubectl) row.c += median(r.kubectl);
      row.ktsRss = Math.max(row.ktsRss, r.ktsRss);
      row.kubectlRss = Math.max(row.kubectlRss, r.kubectlRss);
      if (withKubectl) row.identical &&= r.identical;
    }
    rows.push(row);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`### Large generated trees (bench/generate.mjs): N resources × ${ENVIRONMENTS.length} overlays (${ENVIRONMENTS.join(', ')}), each built\n`);
  console.log(`| resources | kustomize-ts, all overlays | ${REF.label}, all overlays | ${REF.short} / kts | kts peak RSS | ${REF.short} peak RSS | identical |`);
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | :---: |');
  for (const r of rows) {
    const c = r.c === undefined ? 'not run' : sec(r.c);
    console.log(`| ${r.n} × ${ENVIRONMENTS.length} | ${sec(r.k)} | ${c} | ${r.c === undefined ? '' : `${(r.c / r.k).toFixed(AGAINST ? 2 : 0)}×`} | ${mb(r.ktsRss)} | ${r.c === undefined ? '' : mb(r.kubectlRss)} | ${r.identical === undefined ? '' : r.identical ? 'yes' : '**NO**'} |`);
  }
  if (rows.length >= 2) {
    const [a, b] = rows.slice(-2);
    console.log(`\ngrowth exponent between ${a.n} and ${b.n}: ${(Math.log(b.k / a.k) / Math.log(b.n / a.n)).toFixed(2)} (1 = linear)\n`);
  }
}

/**
 * Builds `dir` 40 times, four ways, each in a fresh process (bench/warm-run.mjs): without a
 * cache; with a BuildCache and nothing changed; with a BuildCache and the kustomization file
 * edited before each build; the same with the kustomization file of a base edited instead (none
 * when the tree has no base). For each way, the median of builds 2-12 (while the JIT warms up, as
 * in a short session) and of builds 31-40 (once it has, as in a long-lived editor or server), in
 * ms. The ways must print the same.
 */
function warmBuilds(dir) {
  const run = (...args) => {
    const child = spawnSync(process.execPath, [path.join(REPO, 'bench', 'warm-run.mjs'), dir, ...args], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr.trim().split('\n').at(-1) ?? `exit ${child.status}`);
    return JSON.parse(child.stdout);
  };
  const [plain, unchanged, edited] = ['plain', 'unchanged', 'edited'].map((mode) => run(mode));
  const base = run('find-base');
  const baseEdited = base === null ? undefined : run('edited', base);
  if ([unchanged, edited, baseEdited].some((r) => r && r.sha256 !== plain.sha256)) {
    log(`  warm: ${dir}: the builds with a cache printed something else`);
    failed = true;
  }
  const phases = (r) => r && { early: median(r.times.slice(1, 12)), late: median(r.times.slice(30)) };
  return {
    resources: plain.resources,
    first: plain.times[0],
    second: plain.times[1],
    plain: phases(plain),
    unchanged: phases(unchanged),
    edited: phases(edited),
    baseEdited: phases(baseEdited),
  };
}

const WAYS = ['plain', 'unchanged', 'edited', 'baseEdited'];

async function warm() {
  const generated = path.join(WORK, 'warm');
  generateTree(generated, 200);
  const hello = path.join(WORK, 'hello');
  fs.cpSync(path.join(REPO, 'examples', 'hello'), hello, { recursive: true });
  const named = [
    ['examples/hello/overlays/production', path.join(hello, 'overlays', 'production')],
    ['generated, prod overlay', path.join(generated, 'overlays', 'prod')],
  ];
  console.log('### Library, warm (same process)\n');
  console.log('Each way is 40 builds in a fresh process (bench/warm-run.mjs). Without a cache, every build reads, parses,');
  console.log('transforms and prints everything. With a `BuildCache`, a build whose files all read as before is answered from it;');
  console.log('after an edit (here: a comment appended to the top kustomization file before each build) the build runs, taking');
  console.log('the bases whose files read as before from the cache, and parsing and printing only what changed; after an edit in');
  console.log('a base (the same, to the kustomization file of the first base the build reads), that base and the top run again.');
  console.log('Each cell: median of builds 2–12 (the JIT warming up, as in a short session) / median of builds 31–40 (once it');
  console.log('has, as in a long-lived editor or server).\n');
  console.log('| tree | resources | first build | second build | no cache | with a cache, unchanged | with a cache, edited | with a cache, a base edited |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  const pair = (p) => (p ? `${p.early.toFixed(1)} / ${p.late.toFixed(1)} ms` : '—');
  for (const [name, dir] of named) {
    const r = warmBuilds(dir);
    console.log(`| ${name} | ${r.resources} | ${r.first.toFixed(1)} ms | ${r.second.toFixed(1)} ms | ${WAYS.map((w) => pair(r[w])).join(' | ')} |`);
  }
  console.log('');
  // every real-world tree, summarised by size: what an editor or a server rebuilding it sees
  const rows = [];
  for (const { name, dir } of realTrees()) {
    try {
      rows.push({ name, ...warmBuilds(dir) });
    } catch (e) {
      log(`  warm: skipped ${name}: ${e.message.split('\n')[0]}`);
    }
  }
  if (rows.length === 0) return;
  console.log('Real-world trees, warm, by number of resources. Each cell: median over the trees of their medians of builds');
  console.log('2–12 / of builds 31–40, and the highest tree at 31–40 (a base edited: over the trees that have a local base):\n');
  console.log('| resources | trees | no cache | with a cache, unchanged | with a cache, edited | with a cache, a base edited |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [label, lo, hi] of [['1–20', 1, 20], ['21–100', 21, 100], ['101–500', 101, 500], ['over 500', 501, Infinity]]) {
    const group = rows.filter((r) => r.resources >= lo && r.resources <= hi);
    if (group.length === 0) continue;
    const cell = (way) => {
      const measured = group.filter((r) => r[way]);
      if (measured.length === 0) return '—';
      const top = measured.reduce((a, b) => (b[way].late > a[way].late ? b : a));
      const early = median(measured.map((r) => r[way].early));
      const late = median(measured.map((r) => r[way].late));
      const count = measured.length < group.length ? `; ${measured.length} tree${measured.length === 1 ? '' : 's'}` : '';
      return `${early.toFixed(1)} / ${late.toFixed(1)} ms (highest ${top[way].late.toFixed(1)} ms, ${top.name}${count})`;
    };
    console.log(`| ${label} | ${group.length} | ${WAYS.map(cell).join(' | ')} |`);
  }
  console.log('');
}

/**
 * What `explain` costs over `build` on the real-world trees: warm in the library (builds 31–40 of
 * 40 in a fresh process, bench/warm-run.mjs) and as the CLI runs (`explain --format json` against
 * `build`, runs alternating). The goal: at most 1.5×.
 */
async function explain() {
  console.log('### explain against build\n');
  const rows = [];
  for (const { name, dir } of realTrees()) {
    try {
      const warm = (mode) => {
        const child = spawnSync(process.execPath, [path.join(REPO, 'bench', 'warm-run.mjs'), dir, mode], { encoding: 'utf8' });
        if (child.status !== 0) throw new Error(child.stderr.trim().split('\n').at(-1) ?? `exit ${child.status}`);
        return JSON.parse(child.stdout);
      };
      const [plain, explained] = [warm('plain'), warm('explain')];
      if (plain.sha256 !== explained.sha256) {
        log(`  explain: ${name}: a build recording provenance printed something else`);
        failed = true;
      }
      const cli = { build: [], explain: [] };
      for (let i = 0; i < RUNS; i++) {
        for (const [way, args] of [['build', ['build', dir]], ['explain', ['explain', dir, '--format', 'json']]]) {
          const r = await run(KTS, args, path.join(WORK, `${way}.out`));
          if (!r.ok) throw new Error(`${way}: ${r.stderr.trim().split('\n').at(-1)}`);
          cli[way].push(r.seconds);
        }
      }
      rows.push({ name, resources: plain.resources, warm: median(explained.times.slice(30)) / median(plain.times.slice(30)), cli: median(cli.explain) / median(cli.build) });
    } catch (e) {
      log(`  explain: skipped ${name}: ${e.message.split('\n')[0]}`);
    }
  }
  if (rows.length === 0) return;
  const summary = (key) => {
    const sorted = [...rows].sort((a, b) => a[key] - b[key]);
    const top = sorted.at(-1);
    return `${median(rows.map((r) => r[key])).toFixed(2)}× (lowest ${sorted[0][key].toFixed(2)}×, highest ${top[key].toFixed(2)}×: ${top.name}, ${top.resources} resources)`;
  };
  console.log(`${rows.length} real-world trees. explain's time over build's, median over the trees:\n`);
  console.log('| how | explain / build |');
  console.log('| --- | --- |');
  console.log(`| library, warm (builds 31–40) | ${summary('warm')} |`);
  console.log(`| CLI, a process per run (median of ${RUNS}) | ${summary('cli')} |`);
  console.log('');
}

/**
 * What validating costs over the build it checks (issue 37's goals: at most 0.3× the build, at
 * least 5,000 resources a second on one core), on the real-world trees and a generated
 * 2,000-resource overlay: warm in the library (bench/validate-run.mjs: checks 31–40 against builds
 * 31–40, in a fresh process), and as the CLI runs (`validate` against `build`, runs alternating,
 * which adds reading the Kubernetes schemas).
 */
async function validation() {
  console.log('### validate against build\n');
  const generated = path.join(WORK, 'validate-2000');
  const { overlay } = generateTree(generated, 2000);
  const trees = [...realTrees(), { name: 'generated 2,000 resources (prod)', dir: overlay }];
  const rows = [];
  for (const { name, dir } of trees) {
    try {
      const child = spawnSync(process.execPath, [path.join(REPO, 'bench', 'validate-run.mjs'), dir], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
      if (child.status !== 0) throw new Error(child.stderr.trim().split('\n').at(-1) ?? `exit ${child.status}`);
      const warm = JSON.parse(child.stdout);
      const cli = { build: [], validate: [] };
      for (let i = 0; i < RUNS; i++) {
        for (const [way, args] of [['build', ['build', dir]], ['validate', ['validate', dir, '--ignore-missing-schemas']]]) {
          const r = await run(KTS, args, path.join(WORK, `${way}.out`));
          if (!r.ok && way === 'build') throw new Error(`${way}: ${r.stderr.trim().split('\n').at(-1)}`);
          cli[way].push(r.seconds);
        }
      }
      const check = median(warm.checks.slice(30));
      rows.push({ name, resources: warm.resources, warm: check / median(warm.builds.slice(30)), rate: warm.resources / (check / 1000), cold: warm.checks[0], load: warm.schemaLoad, cli: median(cli.validate) / median(cli.build), cliMs: (median(cli.validate) - median(cli.build)) * 1000 });
    } catch (e) {
      log(`  validate: skipped ${name}: ${e.message.split('\n')[0]}`);
    }
  }
  if (rows.length === 0) return;
  const big = rows.filter((r) => r.resources >= 100);
  const summary = (list, key, unit = '×') => {
    const sorted = [...list].sort((a, b) => a[key] - b[key]);
    const f = (v) => (unit === '×' ? `${v.toFixed(2)}×` : unit === '/s' ? `${Math.round(v).toLocaleString('en')}/s` : `${v.toFixed(1)} ms`);
    return `${f(median(list.map((r) => r[key])))} (lowest ${f(sorted[0][key])}, highest ${f(sorted.at(-1)[key])}: ${sorted.at(-1).name})`;
  };
  const real = rows.filter((r) => !r.name.startsWith('generated')).length;
  console.log(`${rows.length} trees (${real} real-world${real < rows.length ? ' and the generated 2,000-resource overlay' : ''}); median over the trees:\n`);
  console.log('| what | median (lowest, highest) |');
  console.log('| --- | --- |');
  console.log(`| check / build, library, warm (runs 31–40) | ${summary(rows, 'warm')} |`);
  console.log(`| resources checked a second, warm, one thread | ${summary(rows, 'rate', '/s')} |`);
  if (big.length > 0) console.log(`| resources checked a second, trees of 100 resources or more (${big.length}) | ${summary(big, 'rate', '/s')} |`);
  console.log(`| the first check of a process (definitions read as met) | ${summary(rows, 'cold', 'ms')} |`);
  console.log(`| reading Kubernetes' schemas, once per process | ${summary(rows, 'load', 'ms')} |`);
  console.log(`| CLI: validate / build (median of ${RUNS}, a process per run) | ${summary(rows, 'cli')} |`);
  console.log(`| CLI: validate − build | ${summary(rows, 'cliMs', 'ms')} |`);
  const generatedRow = rows.at(-1);
  if (generatedRow?.name.startsWith('generated')) console.log(`\nThe generated overlay: ${generatedRow.resources} resources, check / build ${generatedRow.warm.toFixed(2)}×, ${Math.round(generatedRow.rate).toLocaleString('en')} resources a second.`);
  console.log('');
}

/**
 * The render server under load (bench/serve-load.mjs) over the repository's roots and the
 * real-world trees, in a process of its own: the load generator must not share its event loop
 * with the rest of the report. Its kubectl outputs stay cached in its own folder across reports.
 */
function serve(repo) {
  const archive = realWorldArchive();
  if (!repo && !archive) {
    log('serve: left out: neither --repo nor a real-world archive to serve');
    return;
  }
  const sources = [...(repo ? ['--repo', repo] : []), ...(archive ? ['--real-world', archive] : [])];
  const child = spawnSync(process.execPath, [path.join(REPO, 'bench', 'serve-load.mjs'), ...sources, '--kts', KTS], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (child.status !== 0) failed = true;
}

/** The language server (bench/lsp-load.mjs), in a process of its own, as the server load is. */
function languageServer(repo) {
  const archive = realWorldArchive();
  const sources = [...(repo ? ['--repo', repo] : []), ...(archive ? ['--real-world', archive] : [])];
  const child = spawnSync(process.execPath, [path.join(REPO, 'bench', 'lsp-load.mjs'), ...sources], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (child.status !== 0) failed = true;
}

console.log(`node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)} at start\n`);
try {
  if (!SKIP.has('tiny')) await tiny();
  if (!SKIP.has('real')) await real();
  if (!SKIP.has('warm')) await warm();
  if (!SKIP.has('explain') && !AGAINST) await explain();
  if (!SKIP.has('validate') && !AGAINST) await validation();
  if (!SKIP.has('large')) await large();
  const repo = flag('--repo', '');
  if (repo && !SKIP.has('repo') && !AGAINST) {
    const { mismatched } = await repositorySection({ repo, kts: KTS, work: WORK, runs: RUNS, log });
    if (mismatched > 0) failed = true;
  }
  if (!SKIP.has('serve') && !AGAINST) serve(repo);
  if (!SKIP.has('lsp') && !AGAINST) languageServer(repo);
} finally {
  fs.rmSync(WORK, { recursive: true, force: true });
}
console.log(`load average ${os.loadavg()[0].toFixed(1)} at end`);
if (failed) {
  console.log('\n**OUTPUTS DIFFER**');
  process.exitCode = 1;
}
