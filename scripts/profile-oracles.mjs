#!/usr/bin/env node
// Compares each version profile with the real kustomize of that version (`kubectl kustomize` of
// the kubectl that embeds it, installed by scripts/setup-kubectl-oracles.sh), byte for byte:
// stdout, stderr and exit status, on every case of the conformance corpus (../shared/conformance),
// of test/fixtures and of test/profiles. kustomize-ts runs as a link named `kustomize-v<version>`
// (the way Argo CD registers one kustomize per version), so the link's name chooses the profile.
//
// A case is `identical` (stdout, stderr and exit status the same, once kubectl's `error: ` is
// read as our `Error: `), `stderr-differs` (the same output and exit status, other words on
// stderr) or `differs`. conformance/profiles/<version>.txt lists the first two kinds; a case
// listed there that does worse now is a regression, and fails the run. `--update` rewrites the
// lists from this run.
//
//   node scripts/profile-oracles.mjs [--versions 5.4.2,5.7.1] [--oracle VERSION=KUBECTL]...
//        [--corpus DIR] [--filter SUBSTR] [--jobs N] [--update] [--show] [--kustomize-ts PATH]
//
// --oracle   use this kubectl for VERSION (default: those setup-kubectl-oracles.sh installs)
// --show     print each case that is not identical, with the first difference
// --kustomize-ts PATH   the launcher to link to (default bin/kustomize-ts.js of this checkout)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { args, corpus, flag, repo } from './script-args.mjs';

const flags = (name) => args.flatMap((a, i) => (a === name ? [args[i + 1]] : []));
const jobs = Math.max(1, Number(flag('--jobs', '2')));
const filter = flag('--filter', undefined);
const update = args.includes('--update');
const show = args.includes('--show');
const launcher = resolve(flag('--kustomize-ts', join(repo, 'bin', 'kustomize-ts.js')));

/** The oracles: VERSION → kubectl, from --oracle or from the setup script. */
function oracles() {
  const given = flags('--oracle').map((o) => o.split('='));
  if (given.length > 0) return new Map(given);
  const setup = spawnSync(join(repo, 'scripts', 'setup-kubectl-oracles.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (setup.status !== 0) {
    console.error('profile-oracles: scripts/setup-kubectl-oracles.sh failed');
    process.exit(1);
  }
  return new Map(setup.stdout.trim().split('\n').map((l) => l.split(' ')));
}

/** Every case: its id, the directory to build in, the build path and the flags. */
function cases() {
  const found = [];
  const corpusCases = join(corpus, 'cases');
  if (!existsSync(corpusCases)) {
    console.error(`profile-oracles: no corpus at ${corpus}: it lives in ../shared/conformance, next to the checkout (or give --corpus DIR)`);
    process.exit(1);
  }
  (function walk(dir) {
    const entries = readdirSync(dir, { withFileTypes: true });
    if (entries.some((e) => e.name === 'case.json')) {
      const meta = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8'));
      const o = meta.options ?? {};
      const common = [];
      if (o.loadRestrictor === 'none') common.push('--load-restrictor', 'LoadRestrictionsNone');
      if (o.enablePlugins) common.push('--enable-alpha-plugins');
      if (o.reorder === 'none' || o.reorder === 'legacy') common.push('--reorder', o.reorder);
      if (o.addManagedByLabel) common.push('--enable-managedby-label');
      // (no --enable-exec: kubectl's kustomize has no such flag, and passes exec functions over without it, as we do)
      found.push({ id: `corpus/${dir.slice(corpusCases.length + 1)}`, cwd: join(dir, 'input'), build: meta.build, flags: common });
      return;
    }
    for (const e of entries) if (e.isDirectory()) walk(join(dir, e.name));
  })(corpusCases);
  for (const set of ['fixtures', 'profiles']) {
    const top = join(repo, 'test', set);
    if (!existsSync(top)) continue;
    for (const name of readdirSync(top).sort()) {
      const dir = join(top, name);
      if (!existsSync(join(dir, 'input'))) continue;
      const o = existsSync(join(dir, 'options.json')) ? JSON.parse(readFileSync(join(dir, 'options.json'), 'utf8')) : {};
      const common = [];
      if (o.reorder === 'none' || o.reorder === 'legacy') common.push('--reorder', o.reorder);
      if (o.loadRestrictor === 'none') common.push('--load-restrictor', 'LoadRestrictionsNone');
      if (o.enableHelm) common.push('--enable-helm', '--helm-command', process.env.KUSTOMIZE_TS_HELM ?? join(repo, '.cache', 'helm', 'helm', 'helm'));
      found.push({ id: `${set}/${name}`, cwd: join(dir, 'input'), build: o.build ?? '.', flags: common });
    }
  }
  return found.filter((c) => !filter || c.id.includes(filter)).sort((a, b) => (a.id < b.id ? -1 : 1));
}

function run(command, argv, cwd) {
  return new Promise((resolveRun) => {
    const child = spawn(command, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KUSTOMIZE_TS_VERSION: '' } });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolveRun({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), status: code ?? `${signal}` });
    });
  });
}

/** kubectl prints its error as `error: …` (cobra's CheckErr); kustomize, and we, as `Error: …`. */
const asOurs = (stderr) => stderr.replace(/^error: /m, 'Error: ');

function verdict(theirs, ours) {
  if (theirs.stdout !== ours.stdout || theirs.status !== ours.status) return 'differs';
  return asOurs(theirs.stderr) === ours.stderr ? 'identical' : 'stderr-differs';
}

function firstDifference(a, b) {
  const x = a.split('\n');
  const y = b.split('\n');
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return `line ${i + 1}:\n      kubectl:      ${JSON.stringify(x[i] ?? '<end>').slice(0, 300)}\n      kustomize-ts: ${JSON.stringify(y[i] ?? '<end>').slice(0, 300)}`;
}

function describe(theirs, ours) {
  if (theirs.status !== ours.status) return `exit ${theirs.status} (kubectl) vs ${ours.status}: ${firstDifference(asOurs(theirs.stderr), ours.stderr)}`;
  if (theirs.stdout !== ours.stdout) return `stdout ${firstDifference(theirs.stdout, ours.stdout)}`;
  return `stderr ${firstDifference(asOurs(theirs.stderr), ours.stderr)}`;
}

const RANK = { identical: 0, 'stderr-differs': 1, differs: 2 };
const links = mkdtempSync(join(tmpdir(), 'kts-profile-oracles-'));
const all = cases();
let regressions = 0;
try {
  for (const [version, kubectl] of oracles()) {
    if (flag('--versions', undefined) && !flag('--versions').split(',').includes(version)) continue;
    const ours = join(links, `kustomize-v${version}`);
    symlinkSync(launcher, ours);
    const results = new Map();
    let next = 0;
    const worker = async () => {
      while (next < all.length) {
        const c = all[next++];
        const [t, o] = await Promise.all([run(kubectl, ['kustomize', ...c.flags, c.build], c.cwd), run(ours, ['build', ...c.flags, c.build], c.cwd)]);
        const v = verdict(t, o);
        results.set(c.id, v);
        if (show && v !== 'identical') console.log(`  ${version} ${v} ${c.id}: ${describe(t, o)}`);
      }
    };
    await Promise.all(Array.from({ length: jobs }, worker));
    const counts = { identical: 0, 'stderr-differs': 0, differs: 0 };
    for (const v of results.values()) counts[v]++;
    console.log(`profile-oracles: kustomize ${version}: ${results.size} cases: ${counts.identical} identical, ${counts['stderr-differs']} with other words on stderr, ${counts.differs} differ`);
    const listFile = join(repo, 'conformance', 'profiles', `${version}.txt`);
    const listed = existsSync(listFile) ? readFileSync(listFile, 'utf8').split('\n').filter(Boolean).map((l) => l.split(' ')) : [];
    if (update) {
      mkdirSync(dirname(listFile), { recursive: true });
      const keep = filter ? listed.filter(([, id]) => !results.has(id)) : [];
      const now = [...results].filter(([, v]) => v !== 'differs').map(([id, v]) => [v, id]);
      writeFileSync(listFile, [...keep, ...now].sort((a, b) => (a[1] < b[1] ? -1 : 1)).map((l) => l.join(' ')).join('\n') + '\n');
      continue;
    }
    for (const [was, id] of listed) {
      const now = results.get(id);
      if (now === undefined) continue;
      if (RANK[now] > RANK[was]) {
        regressions++;
        console.error(`  REGRESSION ${version} ${id}: listed ${was}, now ${now}`);
      }
    }
    const listedIds = new Set(listed.map(([, id]) => id));
    const gained = [...results].filter(([id, v]) => v !== 'differs' && (!listedIds.has(id) || RANK[v] < RANK[listed.find(([, l]) => l === id)[0]]));
    if (gained.length) console.log(`  better than listed (run with --update to record): ${gained.map(([id]) => id).join(', ')}`);
  }
} finally {
  rmSync(links, { recursive: true, force: true });
}
process.exit(regressions > 0 ? 1 : 0);
