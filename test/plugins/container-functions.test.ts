import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { build } from '../../src/build/build.js';
import { requireTool } from '../require-tool.js';
import { buildImage } from './container-image.js';
import { writeTree } from './plugin-tree.js';

// Container KRM functions in real containers, through podman (the CI installs it with
// scripts/setup-containers.sh; test/require-tool.ts says what happens without it).

const podman = requireTool('podman');
const kubectl = requireTool('kubectl');
const skip = podman.skip;

const IMAGE = 'localhost/kustomize-ts-test/sed:v1';
const FAILING_IMAGE = 'localhost/kustomize-ts-test/fails:v1';

if (!skip) {
  buildImage(
    IMAGE,
    [
      "uid=$(/bin/busybox id -u)",
      "/bin/busybox sed -e 's/^    name: /    name: fn-/' -e \"s/^      whoami: .*/      whoami: '$uid'/\"",
    ].join('\n') + '\n',
  );
  buildImage(FAILING_IMAGE, '/bin/busybox cat > /dev/null\necho "container says no" >&2\nexit 4\n');
}

const fn = (image: string, extra = '') => `apiVersion: example.com/v1
kind: Sed
metadata:
  name: sed
  annotations:
    config.kubernetes.io/function: |
      container:
        image: ${image}
${extra}`;

const app = (fnYaml: string) =>
  writeTree({
    'app/kustomization.yaml': 'resources:\n- cm.yaml\ntransformers:\n- fn.yaml\n',
    'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  annotations:\n    whoami: unknown\ndata:\n  k: v\n',
    'app/fn.yaml': fnYaml,
  });

test('a container function runs in a real container, as user nobody', { skip }, async () => {
  const dir = app(fn(IMAGE));
  const { yaml } = await build(join(dir, 'app'), { enablePlugins: true, containerRuntime: 'podman' });
  assert.equal(yaml, 'apiVersion: v1\ndata:\n  k: v\nkind: ConfigMap\nmetadata:\n  annotations:\n    whoami: "65534"\n  name: fn-cm\n');
});

test('the output matches kubectl kustomize running the same container function', { skip: skip || kubectl.skip }, async () => {
  const dir = app(fn(IMAGE));
  const ours = (await build(join(dir, 'app'), { enablePlugins: true, containerRuntime: 'podman', reorder: 'legacy' })).yaml;
  // kubectl calls `docker`: give it podman under that name
  const shim = mkdtempSync(join(tmpdir(), 'kts-docker-shim-'));
  if (!existsSync(join(shim, 'docker'))) symlinkSync(podman.path, join(shim, 'docker'));
  const theirs = execFileSync(kubectl.path, ['kustomize', '--enable-alpha-plugins', join(dir, 'app')], {
    env: { ...process.env, PATH: `${shim}:${process.env['PATH']}` },
  }).toString();
  assert.equal(ours, theirs);
});

test('a container function that fails fails the build with its stderr', { skip }, async () => {
  const dir = app(fn(FAILING_IMAGE));
  await assert.rejects(build(join(dir, 'app'), { enablePlugins: true, containerRuntime: 'podman' }), /exit status 4\ncontainer says no/);
});

test('a container function asking for the network needs --network', { skip }, async () => {
  const dir = app(fn(IMAGE).replace('image: ' + IMAGE, `image: ${IMAGE}\n        network: true`));
  await assert.rejects(build(join(dir, 'app'), { enablePlugins: true, containerRuntime: 'podman' }), /network required but not enabled with --network/);
  const { yaml } = await build(join(dir, 'app'), { enablePlugins: true, containerRuntime: 'podman', network: true });
  assert.match(yaml, /name: fn-cm/);
});

test('mounts outside the kustomization directory are refused under the default load restrictor', { skip }, async () => {
  const dir = app(fn(IMAGE).replace('image: ' + IMAGE, `image: ${IMAGE}\n        mounts:\n        - type: bind\n          src: ../outside\n          dst: /data`));
  await assert.rejects(build(join(dir, 'app'), { enablePlugins: true, containerRuntime: 'podman' }), /mount path '\.\.\/outside' must be relative to\/under the current kustomization directory/);
});

test('a mount whose src smuggles another option with a comma is refused', async () => {
  const dir = app(fn(IMAGE).replace('image: ' + IMAGE, `image: ${IMAGE}\n        mounts:\n        - type: bind\n          src: ./data,source=/etc\n          dst: /data`));
  await assert.rejects(build(join(dir, 'app'), { enablePlugins: true, containerRuntime: 'podman' }), /may not hold commas/);
});
