#!/usr/bin/env node
// `kustomize-ts diff` checked against kubectl on a repository's history. For each of the last N
// first-parent commits C of REPO (pairs C^ → C, oldest first), `kustomize-ts diff --base C^ --head
// C --format json` runs in REPO; the ground truth is made independently: each revision is checked
// out (`git worktree add --detach`, removed afterwards), its kustomization roots found by a walk of
// the checkout (a directory holding kustomization.yaml, .yml or Kustomization whose kind is not
// Component; .git and node_modules skipped, directory symlinks not followed), and every root
// rendered by `kubectl kustomize ROOT`, each revision once. Each output is cut into documents by
// (apiVersion, kind, metadata.namespace, metadata.name) and the two revisions compared per root:
//   - a root at both revisions that builds at both: its resources added, removed, or changed (the
//     document's text differs); the root `changed` when any is;
//   - a root at both that kubectl builds at one and fails at the other: `error`, no resources;
//   - a root at both that kubectl fails at both: left out. kustomize-ts reports it (`error`) when
//     its two errors differ; that is informational when `kustomize-ts build` fails on it at both
//     revisions too, kubectl's error text being other than ours;
//   - a root at one revision only: `added` or `removed`, its resources all added or removed (none
//     when kubectl fails on it).
// The set of (root, status) and (root, resource, change) must equal kustomize-ts diff's. Both tools
// run with their default flags. Each root in a mismatch is then built by `kustomize-ts build` on
// checkouts of both revisions: when that prints what kubectl prints at both (or fails where it
// fails), the mismatch is diff's; otherwise it is a difference of the builds, named as such.
//
//   npm run build && node bench/diff-vs-kubectl.mjs REPO [--commits 50] [--rev HEAD] [--jobs 2]
//       [--timeout 60] [--cache DIR] [--json FILE] [--kts bin/kustomize-ts.js] [--kubectl kubectl]
//
// Prints a line per pair (the counts, then each mismatch: in ours only / in kubectl only) and a
// summary with the speed: kustomize-ts diff's wall time per pair against kubectl's wall time
// rendering both revisions (`--jobs` roots at a time on both sides). `--cache DIR` keeps kubectl's
// renders of each revision, and the time they took, across runs (kubectl's output at a commit does
// not change; kustomize-ts always runs). Exit 1 on a mismatch, 2 on a usage error or when a tool
// breaks.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectedChanges, findRoots, git, reportedChanges, withCheckout } from './diff-compare.mjs';
import { capture as run, median, pool } from './measure.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The command line. */
function parseArgs(argv) {
  const opts = { repo: undefined, commits: 50, rev: 'HEAD', jobs: 2, timeout: 60, cache: undefined, json: undefined, kts: path.join(HERE, '..', 'bin', 'kustomize-ts.js'), kubectl: 'kubectl' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      if (opts.repo) usage(`one repository only (${opts.repo}, ${a})`);
      opts.repo = path.resolve(a);
    } else if (['--commits', '--jobs', '--timeout'].includes(a)) opts[a.slice(2)] = Number(argv[++i]);
    else if (['--rev', '--cache', '--json', '--kts', '--kubectl'].includes(a)) opts[a.slice(2)] = argv[++i];
    else usage(`unknown flag ${a}`);
  }
  if (!opts.repo) usage('no repository given');
  if (!(opts.commits >= 1) || !(opts.jobs >= 1) || !(opts.timeout > 0)) usage('--commits, --jobs and --timeout take positive numbers');
  return opts;
}

function usage(message) {
  process.stderr.write(
    `diff-vs-kubectl: ${message}\nusage: node bench/diff-vs-kubectl.mjs REPO [--commits N] [--rev REV] [--jobs N] [--timeout SECS] [--cache DIR] [--json FILE] [--kts FILE] [--kubectl CMD]\n`,
  );
  process.exit(2);
}

/** Why kubectl failed, in a word: the load restrictor, a remote (no network here), a helm chart, or something else. */
function failureKind(stderr) {
  if (/is not in or below|LoadRestrictionsNone/.test(stderr)) return 'load-restrictor';
  if (/helm|HelmChartInflationGenerator|--enable-helm/i.test(stderr)) return 'helm';
  if (/git cmd|exit status 128|http|no such host|dial tcp|github\.com|timed out/i.test(stderr)) return 'remote';
  return 'other';
}

/** What a root's build at a revision gave: its output, or why it failed. */
const outcome = (r) => (r.ok ? { ok: true, yaml: r.stdout.toString('utf8'), seconds: r.seconds } : { ok: false, error: r.timedOut ? 'timed out' : r.stderr.trim(), seconds: r.seconds });

/**
 * One revision rendered by kubectl, every root of it, on a checkout: its roots (path → { ok, yaml
 * | error }), kubectl's wall time (`jobs` roots at a time) and its time summed over the roots.
 */
async function renderRevision(opts, sha, scratch) {
  const cached = opts.cache && path.join(opts.cache, `${path.basename(opts.repo)}-${sha}.json`);
  if (cached && fs.existsSync(cached)) return JSON.parse(fs.readFileSync(cached, 'utf8'));
  const rendered = await withCheckout(opts.repo, sha, scratch, async (checkout) => {
    const roots = findRoots(checkout);
    const t0 = process.hrtime.bigint();
    const results = await pool(roots, opts.jobs, async (root) => outcome(await run(opts.kubectl, ['kustomize', root], { cwd: checkout, timeout: opts.timeout * 1000 })));
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    return { sha, wall, summed: results.reduce((s, r) => s + r.seconds, 0), roots: Object.fromEntries(roots.map((root, i) => [root, results[i]])) };
  });
  if (cached) fs.writeFileSync(cached, JSON.stringify(rendered));
  return rendered;
}

/**
 * `roots` built by `kustomize-ts build` on a checkout of each revision: per root, whether it
 * builds as kubectl does at each revision that has it (the same output, or a failure where
 * kubectl fails), and whether it fails at both.
 */
async function buildWithOurs(opts, base, head, roots, scratch) {
  const builds = async (revision) =>
    withCheckout(opts.repo, revision.sha, scratch, async (checkout) => {
      const results = await pool(
        roots.filter((root) => root in revision.roots),
        opts.jobs,
        async (root) => [root, outcome(await run(process.execPath, [opts.kts, 'build', root], { cwd: checkout, timeout: opts.timeout * 1000 }))],
      );
      return new Map(results);
    });
  const [before, after] = [await builds(base), await builds(head)];
  const asKubectl = (revision, ours, root) => !(root in revision.roots) || (ours.get(root).ok ? revision.roots[root].ok && ours.get(root).yaml === revision.roots[root].yaml : !revision.roots[root].ok);
  return new Map(
    roots.map((root) => [
      root,
      {
        sameAtBase: asKubectl(base, before, root),
        sameAtHead: asKubectl(head, after, root),
        failsAtBoth: before.get(root)?.ok === false && after.get(root)?.ok === false,
      },
    ]),
  );
}

/** Checks one pair: our diff against kubectl's renders of both revisions. */
async function checkPair(opts, base, head, scratch) {
  const r = await run(process.execPath, [opts.kts, 'diff', '.', '--base', base.sha, '--head', head.sha, '--format', 'json', '--jobs', String(opts.jobs)], { cwd: opts.repo });
  if (r.code !== 0 && r.code !== 1) throw new Error(`kustomize-ts diff ${base.sha}..${head.sha} exited ${r.code}: ${r.stderr}`);
  const report = JSON.parse(r.stdout.toString('utf8'));
  if (report.base !== base.sha || report.head !== head.sha) throw new Error(`kustomize-ts diff compared ${report.base}..${report.head}, not ${base.sha}..${head.sha}`);
  const { lines: expected, failingBoth } = expectedChanges(base, head);
  const ours = reportedChanges(report);
  const rootOf = (line) => line.split('\t')[0];
  const differing = () => [...new Set([...ours].filter((l) => !expected.has(l)).concat([...expected].filter((l) => !ours.has(l))).map(rootOf))];
  const suspects = differing();
  const builds = suspects.length > 0 ? await buildWithOurs(opts, base, head, suspects, scratch) : new Map();
  // kustomize-ts reports a root kubectl fails on at both revisions when its two errors differ
  const informational = report.roots.filter((x) => failingBoth.has(x.path) && x.status === 'error' && x.resources.length === 0 && builds.get(x.path).failsAtBoth).map((x) => x.path);
  for (const root of informational) ours.delete(`${root}\terror`);
  const mismatches = differing().map((root) => {
    const b = builds.get(root);
    const build = b.sameAtBase && b.sameAtHead ? 'same' : `differs at ${!b.sameAtBase && !b.sameAtHead ? 'both' : b.sameAtBase ? 'the head' : 'the base'}`;
    return { root, build, oursOnly: [...ours].filter((l) => rootOf(l) === root && !expected.has(l)).sort(), kubectlOnly: [...expected].filter((l) => rootOf(l) === root && !ours.has(l)).sort() };
  });
  const count = (kind) => [...expected].filter((l) => l.split('\t').length === 3 && l.endsWith(`\t${kind}`)).length;
  return {
    base: base.sha,
    head: head.sha,
    rootsBase: Object.keys(base.roots).length,
    rootsHead: Object.keys(head.roots).length,
    rootsDiffering: [...expected].filter((l) => l.split('\t').length === 2).length,
    added: count('added'),
    removed: count('removed'),
    changed: count('changed'),
    oursSeconds: r.seconds,
    kubectlSeconds: base.wall + head.wall,
    kubectlSummed: base.summed + head.summed,
    mismatches,
    informational: informational.map((root) => ({ root, code: report.roots.find((x) => x.path === root).error?.code })),
  };
}

const sec = (s) => (s >= 10 ? `${s.toFixed(1)} s` : `${s.toFixed(2)} s`);

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.cache) fs.mkdirSync(opts.cache, { recursive: true });
  const commits = git(opts.repo, 'rev-list', '--first-parent', `--max-count=${opts.commits + 1}`, opts.rev).split('\n').reverse();
  if (commits.length < 2) usage(`${opts.rev} has no parent`);
  // checkouts a killed run left behind
  git(opts.repo, 'worktree', 'prune');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'diff-vs-kubectl-'));
  const pairs = [];
  const failing = {};
  const noteFailures = (revision) => {
    for (const [root, r] of Object.entries(revision.roots)) if (!r.ok) (failing[failureKind(r.error)] ??= new Set()).add(root);
  };
  try {
    let base = await renderRevision(opts, commits[0], scratch);
    noteFailures(base);
    for (let i = 1; i < commits.length; i++) {
      const head = await renderRevision(opts, commits[i], scratch);
      noteFailures(head);
      const pair = await checkPair(opts, base, head, scratch);
      pairs.push(pair);
      process.stdout.write(
        `${i}/${commits.length - 1} ${base.sha.slice(0, 8)}..${head.sha.slice(0, 8)}: roots ${pair.rootsBase}→${pair.rootsHead}, ${pair.rootsDiffering} differ, ` +
          `resources +${pair.added} -${pair.removed} ~${pair.changed}; ${pair.mismatches.length === 0 ? 'same' : 'MISMATCH'}; diff ${sec(pair.oursSeconds)}, kubectl ${sec(pair.kubectlSeconds)}\n`,
      );
      for (const m of pair.mismatches) {
        process.stdout.write(`  ${m.root}: kustomize-ts build ${m.build === 'same' ? 'prints what kubectl prints at both: a diff mismatch' : `${m.build} from kubectl: a build difference`}\n`);
        for (const l of m.oursOnly) process.stdout.write(`    in ours only:    ${l.replaceAll('\t', '  ')}\n`);
        for (const l of m.kubectlOnly) process.stdout.write(`    in kubectl only: ${l.replaceAll('\t', '  ')}\n`);
      }
      for (const n of pair.informational) process.stdout.write(`  (both fail, errors differ for kustomize-ts: ${n.root}: ${n.code})\n`);
      base = head;
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const mismatches = pairs.flatMap((p) => p.mismatches.map((m) => ({ ...m, pair: `${p.base.slice(0, 8)}..${p.head.slice(0, 8)}` })));
  const ofDiff = mismatches.filter((m) => m.build === 'same');
  const sum = (key) => pairs.reduce((s, p) => s + p[key], 0);
  const ratios = pairs.map((p) => p.kubectlSeconds / p.oursSeconds);
  const lines = [
    `${path.basename(opts.repo)}: ${pairs.length} pairs, ${commits[0].slice(0, 8)}..${commits.at(-1).slice(0, 8)} (first parents of ${opts.rev})`,
    `roots per revision: ${Math.min(...pairs.map((p) => p.rootsHead))}–${Math.max(...pairs.map((p) => p.rootsHead))}; root changes compared: ${sum('rootsDiffering')}; ` +
      `resource changes compared: ${sum('added') + sum('removed') + sum('changed')} (+${sum('added')} -${sum('removed')} ~${sum('changed')})`,
    `pairs with a mismatch: ${pairs.filter((p) => p.mismatches.length).length}; roots mismatched: ${mismatches.length}, ${ofDiff.length} of them diff's (kustomize-ts build printing what kubectl prints)` +
      (mismatches.length ? ` (${mismatches.map((m) => `${m.pair} ${m.root}${m.build === 'same' ? '' : ` [build ${m.build}]`}`).join(', ')})` : ''),
    `roots kubectl fails on at some revision, by cause: ${Object.entries(failing).map(([k, s]) => `${k} ${s.size}`).join(', ') || 'none'}`,
    `both fail, kustomize-ts's errors differ (informational): ${pairs.reduce((s, p) => s + p.informational.length, 0)}`,
    `time: kustomize-ts diff ${sec(sum('oursSeconds'))} in all (median ${sec(median(pairs.map((p) => p.oursSeconds)))} a pair); ` +
      `kubectl rendering both revisions ${sec(sum('kubectlSeconds'))} (median ${sec(median(pairs.map((p) => p.kubectlSeconds)))} a pair, ${opts.jobs} at a time; ${sec(sum('kubectlSummed'))} one after the other)`,
    `speed ratio kubectl/diff per pair: median ${median(ratios).toFixed(1)}×, lowest ${Math.min(...ratios).toFixed(1)}×, highest ${Math.max(...ratios).toFixed(1)}×`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (opts.json) fs.writeFileSync(opts.json, `${JSON.stringify({ repo: opts.repo, pairs }, undefined, 1)}\n`);
  process.exitCode = mismatches.length ? 1 : 0;
}

await main().catch((e) => {
  process.stderr.write(`diff-vs-kubectl: ${e.stack ?? e}\n`);
  process.exit(2);
});
