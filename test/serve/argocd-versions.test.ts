/**
 * deploy/argocd offers every version profile: an Application's plugin env KUSTOMIZE_VERSION
 * (ARGOCD_ENV_KUSTOMIZE_VERSION in the command's environment) chooses the kustomize release the
 * render behaves as. The command runs as argocd-cmp-server runs it (command and args joined, in
 * the Application's directory), on a test/profiles case whose output differs between 5.7.1 and 5.8.1.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { runCommand } from '../cli/run-command.js';
import { workDir } from '../git-repos.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CASE = join(REPO, 'test', 'profiles', 'replacement-target-selectors');
const generate = (parse(readFileSync(join(REPO, 'deploy', 'argocd', 'plugin.yaml'), 'utf8')) as { spec: { generate: { command: string[]; args: string[] } } }).spec.generate;
const expected = (version: string) => readFileSync(join(CASE, 'expected', `${version}.yaml`), 'utf8');

const work = workDir('kts-argocd-versions-');
const bin = join(work, 'bin');
mkdirSync(bin);
symlinkSync(join(REPO, 'bin', 'kustomize-ts.js'), join(bin, 'kustomize-ts'));
const app = join(work, 'repo', 'app');
cpSync(join(CASE, 'input'), app, { recursive: true });

/** The plugin's generate command with the sidecar's environment plus `env` (Argo CD's ARGOCD_ENV_ variables). */
function render(env: Record<string, string>) {
  const { KUSTOMIZE_TS_VERSION: _unset, ...sidecar } = process.env;
  const [program, ...rest] = generate.command;
  return runCommand(program!, [...rest, ...generate.args], { cwd: app, env: { ...sidecar, PATH: `${bin}:${process.env['PATH']}`, ARGOCD_APP_NAME: 'app', ...env } });
}

test("an Application's KUSTOMIZE_VERSION chooses the release; without it, 5.8.1", async () => {
  assert.equal((await render({ ARGOCD_ENV_KUSTOMIZE_VERSION: '5.7.1' })).stdout, expected('5.7.1'));
  assert.equal((await render({ ARGOCD_ENV_KUSTOMIZE_VERSION: 'v5.7' })).stdout, expected('5.7.1'));
  assert.equal((await render({})).stdout, expected('5.8.1'));
});

test("the sidecar's KUSTOMIZE_TS_VERSION is the default an Application's choice overrides", async () => {
  assert.equal((await render({ KUSTOMIZE_TS_VERSION: '5.7.1' })).stdout, expected('5.7.1'));
  assert.equal((await render({ KUSTOMIZE_TS_VERSION: '5.7.1', ARGOCD_ENV_KUSTOMIZE_VERSION: '5.8.0' })).stdout, expected('5.8.0'));
});

test('a version without a profile fails the render, with nothing on stdout', async () => {
  const r = await render({ ARGOCD_ENV_KUSTOMIZE_VERSION: '5.3.0; echo injected' });
  assert.notEqual(r.status, 0);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /kustomize version '5\.3\.0; echo injected' is not supported/);
});
