/**
 * Choosing the kustomize release the CLI behaves as, run as programs run it (the launcher): by
 * `--kustomize-version`, by the name of a link to the launcher (what Argo CD's
 * `kustomize.path.v5.7.1` points at), or by $KUSTOMIZE_TS_VERSION, in that order; `version`
 * reports the chosen one first. The build behind each is one of test/profiles' cases, whose
 * expected output differs between 5.7.1 and 5.8.1.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { VERSION } from '../../src/options.js';
import { workDir } from '../git-repos.js';
import { runCommand } from './run-command.js';

const BIN = fileURLToPath(new URL('../../../bin/kustomize-ts.js', import.meta.url));
const CASE = fileURLToPath(new URL('../../../test/profiles/replacement-target-selectors/', import.meta.url));
const expected = (version: string) => readFileSync(join(CASE, 'expected', `${version}.yaml`), 'utf8');

const links = join(workDir('kts-versions-'), 'bin');
mkdirSync(links);
/** A link to the launcher named `name`, as an installation for Argo CD makes one. */
function linked(name: string): string {
  const path = join(links, name);
  symlinkSync(BIN, path);
  return path;
}
const kustomize571 = linked('kustomize-v5.7.1');
const kustomize55 = linked('kustomize-5.5');
const kustomize53 = linked('kustomize-v5.3.0');

/** Runs `program` with `args` in the case's input; the environment without a version unless `version` is given. */
function run(program: string, args: string[], version?: string) {
  const { KUSTOMIZE_TS_VERSION: _unset, ...env } = process.env;
  return runCommand(program, args, { cwd: join(CASE, 'input'), env: version === undefined ? env : { ...env, KUSTOMIZE_TS_VERSION: version } });
}

test('--kustomize-version chooses the release a build behaves as; 5.8.1 without it', async () => {
  assert.equal((await run(BIN, ['build', '--kustomize-version', '5.7.1', '.'])).stdout, expected('5.7.1'));
  assert.equal((await run(BIN, ['build', '--kustomize-version=v5.7.1', '.'])).stdout, expected('5.7.1'));
  assert.equal((await run(BIN, ['build', '.'])).stdout, expected('5.8.1'));
});

test('X.Y means the newest X.Y release', async () => {
  assert.equal((await run(BIN, ['version', '--kustomize-version', '5.7'])).stdout, `v5.7.1 (kustomize-ts v${VERSION})\n`);
  assert.equal((await run(BIN, ['version', '--kustomize-version', '5.4'])).stdout, `v5.4.3 (kustomize-ts v${VERSION})\n`);
});

test('a version without a profile is a usage error listing those supported, on every command', async () => {
  for (const args of [['build', '--kustomize-version', '5.3.0', '.'], ['version', '--kustomize-version', '6'], ['validate', '--kustomize-version', 'latest', '.'], ['build-all', '--kustomize-version', '5.9', '.']]) {
    const r = await run(BIN, args);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^Error: --kustomize-version: kustomize version '[^']+' is not supported; the supported versions are 5\.4\.2, 5\.4\.3, 5\.5\.0, 5\.6\.0, 5\.7\.0, 5\.7\.1, 5\.8\.0, 5\.8\.1 /);
  }
});

test('version and version --short report the chosen release first, then kustomize-ts', async () => {
  assert.equal((await run(BIN, ['version', '--short', '--kustomize-version', '5.6.0'])).stdout, `{kustomize/v5.6.0  kustomize-ts/v${VERSION}   }\n`);
  const json = JSON.parse((await run(BIN, ['version', '-o', 'json', '--kustomize-version', '5.6.0'])).stdout) as { version: string };
  assert.equal(json.version, 'kustomize/v5.6.0');
});

test("a link's name chooses the release: kustomize-v5.7.1 builds and reports as 5.7.1", async () => {
  assert.equal((await run(kustomize571, ['build', '.'])).stdout, expected('5.7.1'));
  assert.equal((await run(kustomize571, ['version', '--short'])).stdout, `{kustomize/v5.7.1  kustomize-ts/v${VERSION}   }\n`);
  assert.equal((await run(kustomize55, ['version'])).stdout, `v5.5.0 (kustomize-ts v${VERSION})\n`);
});

test('the flag comes before the link, and the link before $KUSTOMIZE_TS_VERSION', async () => {
  assert.equal((await run(kustomize571, ['build', '--kustomize-version', '5.8.1', '.'])).stdout, expected('5.8.1'));
  assert.equal((await run(kustomize571, ['version'], '5.4.2')).stdout, `v5.7.1 (kustomize-ts v${VERSION})\n`);
  assert.equal((await run(BIN, ['build', '.'], '5.7.1')).stdout, expected('5.7.1'));
  assert.equal((await run(BIN, ['version'], '5.6')).stdout, `v5.6.0 (kustomize-ts v${VERSION})\n`);
});

test('a link or $KUSTOMIZE_TS_VERSION naming a release without a profile fails the same way, saying where it came from', async () => {
  const byLink = await run(kustomize53, ['build', '.']);
  assert.equal(byLink.status, 2);
  assert.match(byLink.stderr, /^Error: the program's name kustomize-v5\.3\.0: kustomize version 'v5\.3\.0' is not supported/);
  const byEnv = await run(BIN, ['build', '.'], '4.5.7');
  assert.equal(byEnv.status, 2);
  assert.match(byEnv.stderr, /^Error: \$KUSTOMIZE_TS_VERSION: kustomize version '4\.5\.7' is not supported/);
});
