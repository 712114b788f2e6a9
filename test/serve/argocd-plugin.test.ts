/**
 * deploy/argocd, kustomize-ts as an Argo CD Config Management Plugin, run as far as a machine
 * without a cluster can: plugin.yaml passes argocd-cmp-server's checks, its commands run as
 * argocd-cmp-server runs them (command and args joined, in the Application's directory, with the
 * sidecar's environment and Argo CD's variables) and render what kubectl does, and the Component
 * patches Argo CD's real argocd-repo-server Deployment as Argo CD's documentation asks, to the
 * same bytes with kustomize-ts and kubectl. test/serve/image.test.ts runs the commands in the image.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { build } from '../../src/build/build.js';
import { runCommand, type Run } from '../cli/run-command.js';
import { workDir, write } from '../git-repos.js';
import { requireTool } from '../require-tool.js';
import { container, theOne, volumeAt, type Deployment } from './workloads.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const PLUGIN_DIR = join(REPO, 'deploy', 'argocd');
const PLUGIN_TEXT = readFileSync(join(PLUGIN_DIR, 'plugin.yaml'), 'utf8');
const kubectl = requireTool('kubectl');
const work = workDir('kts-argocd-');

/** cmpserver/plugin/config.go's PluginConfig, as far as this plugin uses it. */
interface Command {
  command?: string[];
  args?: string[];
}
interface PluginConfig {
  apiVersion: string;
  kind: string;
  metadata: { name?: string };
  spec: { version?: string; init?: Command; generate: Command; discover?: { fileName?: string; find?: Command & { glob?: string } } };
}
const plugin = parse(PLUGIN_TEXT) as PluginConfig;

/** The sidecar's PATH: a kustomize-ts that is this checkout's launcher, as the image's is the package's. */
const bin = join(work, 'bin');
mkdirSync(bin);
symlinkSync(join(REPO, 'bin', 'kustomize-ts.js'), join(bin, 'kustomize-ts'));

/** Runs a plugin command as argocd-cmp-server's runCommand does: command[0] with command[1:] and args, in `dir`. */
function runPluginCommand(c: Command | undefined, dir: string): Promise<Run> {
  const [program, ...rest] = c?.command ?? [];
  assert.ok(program, 'the command is not empty');
  return runCommand(program, [...rest, ...(c?.args ?? [])], {
    cwd: dir,
    // the sidecar's environment, then the build environment Argo CD adds
    env: {
      ...process.env,
      PATH: `${bin}:${process.env['PATH']}`,
      ARGOCD_APP_NAME: 'hello',
      ARGOCD_APP_NAMESPACE: 'hello-prod',
      ARGOCD_APP_REVISION: '0123456789abcdef0123456789abcdef01234567',
      ARGOCD_APP_SOURCE_PATH: 'overlays/production',
      ARGOCD_APP_SOURCE_REPO_URL: 'https://git.example.com/hello.git',
      ARGOCD_APP_SOURCE_TARGET_REVISION: 'main',
      KUBE_VERSION: '1.33.0',
    },
  });
}

/** A copy of the bundled example, as argocd-cmp-server unpacks the repository it is sent. */
const app = join(work, 'repo', 'hello');
cpSync(join(REPO, 'examples', 'hello'), app, { recursive: true });
const appDir = join(app, 'overlays', 'production');

test('plugin.yaml is a configuration argocd-cmp-server accepts', () => {
  // ValidatePluginConfig's checks, and the address an Application names it by
  assert.equal(plugin.apiVersion, 'argoproj.io/v1alpha1');
  assert.equal(plugin.kind, 'ConfigManagementPlugin');
  assert.equal(plugin.metadata.name, 'kustomize-ts');
  assert.ok((plugin.spec.generate.command ?? []).length > 0);
  assert.equal(plugin.spec.version, undefined, 'Applications name it kustomize-ts, with no -VERSION');
  assert.equal(plugin.spec.init, undefined);
});

test('generate renders the Application’s directory as kubectl kustomize does', { skip: kubectl.skip }, async () => {
  const run = await runPluginCommand(plugin.spec.generate, appDir);
  assert.equal(run.stderr, '');
  assert.equal(run.status, 0);
  assert.equal(run.stdout, execFileSync(kubectl.path, ['kustomize', appDir]).toString());
});

test('generate fails, with nothing on stdout, when the kustomization does not build', async () => {
  const broken = join(work, 'repo', 'broken');
  write(broken, { 'kustomization.yaml': 'resources:\n- missing.yaml\n' });
  const run = await runPluginCommand(plugin.spec.generate, broken);
  assert.notEqual(run.status, 0, 'a non-zero exit fails the sync instead of pruning everything');
  assert.equal(run.stdout, '');
  assert.match(run.stderr, /^Error: .*missing\.yaml/m);
});

test('discover matches a directory with a kustomization, under each name kustomize reads', async () => {
  // argocd-cmp-server's matchRepository: the find command's exit status 0 and output not empty
  assert.equal(plugin.spec.discover?.fileName, undefined, 'find, not fileName, decides');
  for (const name of ['kustomization.yaml', 'kustomization.yml', 'Kustomization']) {
    const dir = join(work, 'discover', name);
    write(dir, { [name]: 'resources: []\n', 'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n' });
    const run = await runPluginCommand(plugin.spec.discover?.find, dir);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, `./${name}\n`);
  }
  const found = await runPluginCommand(plugin.spec.discover?.find, appDir);
  assert.notEqual(found.stdout, '');
});

test('discover passes over plain manifests, and kustomizations only in directories below', async () => {
  const plain = join(work, 'discover', 'plain');
  write(plain, { 'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n', 'sub/kustomization.yaml': 'resources: []\n' });
  const run = await runPluginCommand(plugin.spec.discover?.find, plain);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, '');
});

test('the Component patches Argo CD’s argocd-repo-server with the sidecar Argo CD’s documentation asks for', { skip: kubectl.skip }, async () => {
  const install = join(work, 'install');
  const upstream = readFileSync(join(REPO, 'test', 'serve', 'fixtures', 'argocd-repo-server-deployment.yaml'), 'utf8');
  write(install, {
    'argocd-repo-server-deployment.yaml': upstream,
    'kustomization.yaml': `resources:\n- argocd-repo-server-deployment.yaml\ncomponents:\n- ${relative(install, PLUGIN_DIR)}\n`,
  });
  const { yaml, objects } = await build(install, { reorder: 'unspecified' });
  assert.equal(yaml, execFileSync(kubectl.path, ['kustomize', install]).toString());

  const before = (parse(upstream) as Deployment).spec.template.spec;
  const pod = theOne<Deployment>(objects, 'Deployment', 'argocd-repo-server').spec.template.spec;
  // Argo CD's own containers are left as they were
  assert.deepEqual(container(pod, 'argocd-repo-server'), container(before, 'argocd-repo-server'));
  assert.deepEqual(container(pod, 'copyutil'), container(before, 'copyutil'));

  const sidecar = container(pod, 'kustomize-ts');
  assert.deepEqual(sidecar.command, ['/var/run/argocd/argocd-cmp-server']);
  assert.equal(sidecar.securityContext?.runAsUser, 999);
  assert.equal(sidecar.securityContext?.runAsNonRoot, true);
  // argocd-cmp-server is the binary copyutil copies into var-files
  assert.equal(volumeAt(pod, sidecar, '/var/run/argocd').volume.name, volumeAt(pod, container(pod, 'copyutil'), '/var/run/argocd').volume.name);
  // the sockets: the directory the repo-server looks for plugins in
  const repoServer = container(pod, 'argocd-repo-server');
  const plugins = '/home/argocd/cmp-server/plugins';
  assert.equal(volumeAt(pod, sidecar, plugins).volume.name, volumeAt(pod, repoServer, plugins).volume.name);
  // plugin.yaml, from the generated ConfigMap
  const config = volumeAt(pod, sidecar, '/home/argocd/cmp-server/config/plugin.yaml');
  assert.equal(config.mount.subPath, 'plugin.yaml');
  const configMap = theOne<{ data: Record<string, string> }>(objects, 'ConfigMap', config.volume.configMap?.name);
  assert.equal(configMap.data['plugin.yaml'], PLUGIN_TEXT);
  // a /tmp of its own
  assert.notEqual(volumeAt(pod, sidecar, '/tmp').volume.name, volumeAt(pod, repoServer, '/tmp').volume.name);
});
