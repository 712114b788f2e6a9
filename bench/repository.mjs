// The repository section of the speed report (bench/report.mjs --repo DIR): a whole GitOps
// repository rendered three ways in one run, on the same roots:
//   - `kustomize-ts build-all` (one process, worker threads on every core), peak RSS included,
//   - a loop of `kubectl kustomize ROOT`, one root after the other, as a CI job does today,
//   - a loop of `kustomize-ts build ROOT`, the same way;
// every root's output from build-all checked against kubectl's, byte for byte (a root kubectl
// fails on must fail in build-all too). Then how build-all's time and memory grow with the
// number of roots (prefixes of the repository's top-level directories, at about 100, 200, 400
// roots and all of them), and `kustomize-ts affected` on a git copy of the repository: nothing
// changed, one app's file edited, and the base the most roots read edited. Last, when DIR is a
// clean git work tree with history, `kustomize-ts diff` from HEAD~1 and from HEAD~10 to HEAD
// against kubectl rendering every root of both revisions (the loop above for HEAD, the same loop
// on a checkout of the base), its report checked against kubectl's renders resource by resource
// (bench/diff-compare.mjs).

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expectedChanges, findRoots, reportedChanges, withCheckout } from './diff-compare.mjs';
import { median, run } from './measure.mjs';

const ms = (s) => `${Math.round(s * 1000)} ms`;
const sec = (s) => (s >= 10 ? `${s.toFixed(1)} s` : `${s.toFixed(2)} s`);
const mb = (kb) => (kb > 0 ? `${Math.round(kb / 1024)} MB` : 'n/a');

/** `build-all DIR --format ndjson`, run as users run it: its results by root, its time and peak RSS. */
async function buildAll(kts, dir, work, extra = []) {
  const out = path.join(work, 'build-all.ndjson');
  const r = await run(kts, ['build-all', dir, '--format', 'ndjson', ...extra], out);
  // exit 1 only says a root failed: each root's result is in the output
  if (r.code !== 0 && r.code !== 1) throw new Error(`build-all failed on ${dir}: ${r.stderr.slice(0, 500)}`);
  const results = fs
    .readFileSync(out, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  return { results, seconds: r.seconds, rssKb: r.rssKb };
}

/** Runs `cmd args… ROOT` for each root in turn: the loop's total time, each root's output (undefined when it failed). */
async function loop(cmd, args, dir, roots, work, log, label) {
  const outputs = new Map();
  let seconds = 0;
  let rssKb = 0;
  const file = path.join(work, 'loop.yaml');
  for (const [i, root] of roots.entries()) {
    if (i % 100 === 0) log(`repository: ${label} ${i}/${roots.length}`);
    const r = await run(cmd, [...args, path.join(dir, root)], file, 120);
    seconds += r.seconds;
    rssKb = Math.max(rssKb, r.rssKb);
    outputs.set(root, r.ok ? fs.readFileSync(file, 'utf8') : undefined);
  }
  return { seconds, rssKb, outputs };
}

/** A copy of `dir` holding its first top-level directories (in path order), enough for at least `want` roots. */
function prefixCopy(dir, into, rootsByTop, want) {
  fs.mkdirSync(into, { recursive: true });
  let count = 0;
  for (const [top, n] of rootsByTop) {
    if (count >= want) break;
    fs.cpSync(path.join(dir, top), path.join(into, top), { recursive: true, verbatimSymlinks: true });
    count += n;
  }
  return count;
}

function git(cwd, ...args) {
  const r = spawnSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** `affected --since HEAD` in `dir`, 3 times: the median time and the roots listed. */
async function affected(kts, dir, work) {
  const times = [];
  let listed = 0;
  for (let i = 0; i < 3; i++) {
    const out = path.join(work, 'affected.txt');
    const r = await run(kts, ['affected', dir, '--since', 'HEAD'], out);
    if (!r.ok) throw new Error(`affected failed: ${r.stderr.slice(0, 500)}`);
    times.push(r.seconds);
    listed = fs.readFileSync(out, 'utf8').split('\n').filter(Boolean).length;
  }
  return { seconds: median(times), listed };
}

/** kubectl's renders of `roots` by a loop, as diff-compare.mjs takes them. */
const renders = (roots, outputs) => ({ roots: Object.fromEntries(roots.map((root) => [root, outputs.get(root) === undefined ? { ok: false } : { ok: true, yaml: outputs.get(root) }])) });

/**
 * `kustomize-ts diff DIR --base HEAD~n --head HEAD` for each n (3 runs, the median), against
 * kubectl rendering every root at both revisions one after the other (HEAD's loop given, the
 * base's run here on a checkout of it); its report compared with kubectl's renders. Nothing
 * when DIR is not a clean git work tree (the head's loop ran on its files) or lacks the commit.
 */
async function diffs(kts, dir, work, head, log) {
  const clean = spawnSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' });
  if (clean.status !== 0 || clean.stdout !== '') {
    log(`repository: diff left out: ${dir} is not a clean git work tree`);
    return [];
  }
  const rows = [];
  for (const n of [1, 10]) {
    const base = spawnSync('git', ['rev-parse', '--verify', '--quiet', `HEAD~${n}`], { cwd: dir, encoding: 'utf8' }).stdout.trim();
    if (base === '') continue;
    log(`repository: kubectl loop at HEAD~${n}`);
    const before = await withCheckout(dir, base, work, async (checkout) => {
      const roots = findRoots(checkout);
      const { seconds, outputs } = await loop('kubectl', ['kustomize'], checkout, roots, work, log, `kubectl loop at HEAD~${n}`);
      return { seconds, rendered: renders(roots, outputs) };
    });
    const times = [];
    let report;
    for (let i = 0; i < 3; i++) {
      const out = path.join(work, 'diff.json');
      const r = await run(kts, ['diff', dir, '--base', base, '--head', 'HEAD', '--format', 'json'], out);
      if (r.code !== 0 && r.code !== 1) throw new Error(`diff failed on ${dir}: ${r.stderr.slice(0, 500)}`);
      times.push(r.seconds);
      report = JSON.parse(fs.readFileSync(out, 'utf8'));
    }
    const { lines: expected } = expectedChanges(before.rendered, head.rendered);
    const ours = reportedChanges(report);
    const mismatched = [...ours].filter((l) => !expected.has(l)).length + [...expected].filter((l) => !ours.has(l)).length;
    const resources = [...expected].filter((l) => l.split('\t').length === 3).length;
    rows.push({ n, roots: report.roots.length, resources, diff: median(times), kubectl: before.seconds + head.seconds, mismatched });
  }
  return rows;
}

export async function repositorySection({ repo, kts, work, runs, log }) {
  const dir = path.resolve(repo);
  const name = path.basename(dir);
  log(`repository: ${name}: build-all`);
  const first = await buildAll(kts, dir, work);
  const roots = first.results.map((r) => r.path);
  const allTimes = [first.seconds];
  let peak = first.rssKb;
  for (let i = 1; i < Math.max(3, Math.ceil(runs / 3)); i++) {
    const again = await buildAll(kts, dir, work);
    allTimes.push(again.seconds);
    peak = Math.max(peak, again.rssKb);
  }
  const oneThread = await buildAll(kts, dir, work, ['--jobs', '1']);
  const kubectl = await loop('kubectl', ['kustomize'], dir, roots, work, log, 'kubectl loop');
  const ours = await loop(kts, ['build'], dir, roots, work, log, 'kustomize-ts loop');

  // build-all against kubectl, root by root
  const tally = { identical: 0, differ: [], bothFail: 0, onlyOursFails: [], onlyKubectlFails: [] };
  for (const r of first.results) {
    const theirs = kubectl.outputs.get(r.path);
    if (theirs === undefined) r.ok ? tally.onlyKubectlFails.push(r.path) : tally.bothFail++;
    else if (!r.ok) tally.onlyOursFails.push(r.path);
    else if (r.yaml === theirs) tally.identical++;
    else tally.differ.push(r.path);
  }
  const loopSame = roots.filter((root) => ours.outputs.get(root) === kubectl.outputs.get(root)).length;
  const buildAllTime = median(allTimes);

  console.log(`### A whole repository: ${name} (${roots.length} kustomization roots)\n`);
  console.log('One run, the same roots: `kustomize-ts build-all` (worker threads on every core, and on one thread), a loop of');
  console.log('`kubectl kustomize ROOT` one root after the other, and a loop of `kustomize-ts build ROOT` the same way. Every');
  console.log("root's output from build-all is compared with kubectl's, byte for byte.\n");
  console.log('| way | time | per root | vs kubectl loop | peak RSS |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  const row = (label, s, rss) => console.log(`| ${label} | ${sec(s)} | ${ms(s / roots.length)} | ${(kubectl.seconds / s).toFixed(1)}× | ${rss} |`);
  row(`\`build-all\` (median of ${allTimes.length})`, buildAllTime, mb(peak));
  row('`build-all --jobs 1`', oneThread.seconds, mb(oneThread.rssKb));
  row('loop of `kustomize-ts build`', ours.seconds, `${mb(ours.rssKb)} per process`);
  row('loop of `kubectl kustomize`', kubectl.seconds, `${mb(kubectl.rssKb)} per process`);
  console.log('');
  const fails = (list) => (list.length ? `${list.length} (${list.slice(0, 5).join(', ')}${list.length > 5 ? ', …' : ''})` : '0');
  console.log(`build-all against kubectl: **${tally.identical}** roots identical, ${tally.bothFail} fail in both, ${fails(tally.differ)} differ, ${fails(tally.onlyOursFails)} fail in build-all only, ${fails(tally.onlyKubectlFails)} fail in kubectl only. The loop of \`kustomize-ts build\` printed what kubectl printed for ${loopSame} of ${roots.length} roots (a failure printing nothing).\n`);
  const mismatched = tally.differ.length + tally.onlyOursFails.length + tally.onlyKubectlFails.length;

  // growth: prefixes of the repository's top-level directories
  const rootsByTop = new Map();
  for (const root of roots) {
    const top = root.split('/')[0];
    if (top !== '.') rootsByTop.set(top, (rootsByTop.get(top) ?? 0) + 1);
  }
  const sizes = [100, 200, 400].filter((n) => n < roots.length);
  console.log('How build-all grows with the roots: copies of the repository holding its first top-level directories, in path');
  console.log(`order, up to about 100, 200 and 400 roots, and the whole repository (median of ${Math.max(3, Math.ceil(runs / 3))} runs each).\n`);
  console.log('| roots | build-all | per root | peak RSS |');
  console.log('| ---: | ---: | ---: | ---: |');
  for (const want of sizes) {
    const into = path.join(work, `prefix-${want}`);
    prefixCopy(dir, into, rootsByTop, want);
    const times = [];
    let rss = 0;
    let count = 0;
    for (let i = 0; i < Math.max(3, Math.ceil(runs / 3)); i++) {
      const r = await buildAll(kts, into, work);
      times.push(r.seconds);
      rss = Math.max(rss, r.rssKb);
      count = r.results.length;
    }
    console.log(`| ${count} | ${sec(median(times))} | ${ms(median(times) / count)} | ${mb(rss)} |`);
    fs.rmSync(into, { recursive: true, force: true });
  }
  console.log(`| ${roots.length} | ${sec(buildAllTime)} | ${ms(buildAllTime / roots.length)} | ${mb(peak)} |\n`);

  // affected, on a git copy
  const copy = path.join(work, 'git-copy');
  fs.cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
  fs.rmSync(path.join(copy, '.git'), { recursive: true, force: true });
  git(copy, 'init', '-q');
  git(copy, 'add', '-A');
  git(copy, 'commit', '-q', '-m', 'bench');
  const readers = new Map();
  for (const r of first.results) if (r.ok) for (const f of r.inputs) readers.set(f, (readers.get(f) ?? 0) + 1);
  const byReaders = [...readers].filter(([f]) => !path.basename(f).startsWith('kustomization')).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const mostRead = byReaders[0];
  const leastRead = byReaders.at(-1);
  const nothing = await affected(kts, copy, work);
  const edit = async ([file]) => {
    fs.appendFileSync(path.join(copy, file), '\n# edited\n');
    const r = await affected(kts, copy, work);
    git(copy, 'checkout', '--', '.');
    return r;
  };
  const one = await edit(leastRead);
  const most = await edit(mostRead);
  console.log(`\`kustomize-ts affected --since HEAD\` on a git copy of the repository (${roots.length} roots; median of 3):\n`);
  console.log('| change | roots listed | time |');
  console.log('| --- | ---: | ---: |');
  console.log(`| nothing | ${nothing.listed} | ${ms(nothing.seconds)} |`);
  console.log(`| \`${leastRead[0]}\` edited (read by ${leastRead[1]} root${leastRead[1] === 1 ? '' : 's'}) | ${one.listed} | ${sec(one.seconds)} |`);
  console.log(`| \`${mostRead[0]}\` edited (read by ${mostRead[1]} roots) | ${most.listed} | ${sec(most.seconds)} |\n`);

  // the roots the loop rendered are build-all's: the walk diff-compare.mjs makes must find the same
  const headRoots = findRoots(dir);
  const diffRows = await diffs(kts, dir, work, { seconds: kubectl.seconds, rendered: renders(headRoots, kubectl.outputs) }, log);
  if (diffRows.length > 0) {
    console.log('`kustomize-ts diff --base REV --head HEAD --format json` (median of 3) against a loop of `kubectl kustomize ROOT` over');
    console.log("every root at both revisions, one after the other; diff's report compared with kubectl's renders, resource by resource:\n");
    console.log('| base | roots that differ | resource changes | `kustomize-ts diff` | kubectl loop, both revisions | vs kubectl loop | lines not as kubectl |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const r of diffRows) console.log(`| HEAD~${r.n} | ${r.roots} | ${r.resources} | ${sec(r.diff)} | ${sec(r.kubectl)} | ${(r.kubectl / r.diff).toFixed(1)}× | ${r.mismatched} |`);
    console.log('');
  }
  return { mismatched: mismatched + diffRows.reduce((n, r) => n + r.mismatched, 0) + (headRoots.join('\n') === roots.join('\n') ? 0 : 1) };
}
