#!/usr/bin/env node
// Records (or checks) what the real kustomize of each version with an oracle prints for the
// version-profile cases: test/profiles/<case>/input is a kustomization tree (options.json as
// test/fixtures': {"build": "<dir>", "reorder": "none"|"legacy", "loadRestrictor": "none",
// "enableHelm": true, which runs $KUSTOMIZE_TS_HELM, else scripts/setup-helm.sh's helm});
// expected/<version>.yaml is the oracle's stdout, expected/<version>.error.txt its error (the
// message after `error: `). The oracles are the kubectls scripts/setup-kubectl-oracles.sh
// installs (kustomize 5.4.2, 5.5.0, 5.6.0, 5.7.1). The versions without one (5.4.3, 5.7.0,
// 5.8.0, 5.8.1) are written by hand from that release's own tests, and left alone here.
//
//   node test/profiles/record.mjs [--check] [CASE...]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const check = args.includes('--check');
const only = args.filter((a) => !a.startsWith('--'));
const setup = spawnSync(join(here, '..', '..', 'scripts', 'setup-kubectl-oracles.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
if (setup.status !== 0) process.exit(1);
const oracles = setup.stdout.trim().split('\n').map((l) => l.split(' '));

/** kubectl's error message: its stderr without flag notices and warnings, `error: ` taken off. */
function errorOf(stderr) {
  return stderr
    .split('\n')
    .filter((l) => !l.startsWith('# Warning: ') && !l.startsWith('Flag --'))
    .join('\n')
    .replace(/^error: /, '');
}

let differs = 0;
for (const name of readdirSync(here).sort()) {
  const dir = join(here, name);
  if (!existsSync(join(dir, 'input')) || (only.length && !only.includes(name))) continue;
  const o = existsSync(join(dir, 'options.json')) ? JSON.parse(readFileSync(join(dir, 'options.json'), 'utf8')) : {};
  const flags = [];
  if (o.reorder) flags.push('--reorder', o.reorder);
  if (o.loadRestrictor === 'none') flags.push('--load-restrictor', 'LoadRestrictionsNone');
  if (o.enableHelm) flags.push('--enable-helm', '--helm-command', process.env.KUSTOMIZE_TS_HELM ?? join(here, '..', '..', '.cache', 'helm', 'helm', 'helm'));
  for (const [version, kubectl] of oracles) {
    const run = spawnSync(kubectl, ['kustomize', ...flags, o.build ?? '.'], { cwd: join(dir, 'input'), encoding: 'utf8' });
    const [file, text] = run.status === 0 ? [`${version}.yaml`, run.stdout] : [`${version}.error.txt`, errorOf(run.stderr)];
    const path = join(dir, 'expected', file);
    if (check) {
      if (!existsSync(path) || readFileSync(path, 'utf8') !== text) {
        differs++;
        console.log(`${name}: ${file} is not what kustomize ${version} prints`);
      }
      continue;
    }
    mkdirSync(join(dir, 'expected'), { recursive: true });
    for (const other of [`${version}.yaml`, `${version}.error.txt`]) rmSync(join(dir, 'expected', other), { force: true });
    writeFileSync(path, text);
    console.log(`${name}: ${file}`);
  }
}
process.exit(differs ? 1 : 0);
