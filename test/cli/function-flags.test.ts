/**
 * The function flags of `build` reach the functions, run through the CLI in-process
 * (`main(args, io)`): `-e/--env` for exec and container functions, `--mount`, `--as-current-user`
 * and `--network-name` for containers (real podman; required in CI), and the flag values that
 * are usage errors.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { main } from '../../src/cli/main.js';
import { exec, writeTree } from '../plugins/plugin-tree.js';
import { buildImage as buildBusyboxImage } from '../plugins/container-image.js';
import { requireTool } from '../require-tool.js';

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  annotations:\n    foo: unset\n    whoami: unknown\n    data: none\n    net: unknown\n';

const ENV_FN = exec(`#!/bin/sh
sed -e "s/^      foo: .*/      foo: '$FOO'/"
`);

const execConfig = `apiVersion: example.com/v1
kind: Env
metadata:
  name: env
  annotations:
    config.kubernetes.io/function: |
      exec:
        path: ./fn.sh
`;

test('-e/--env reaches an exec function (merged into its environment, as kustomize v5.7+)', async () => {
  const dir = writeTree({ 'kustomization.yaml': 'resources:\n- cm.yaml\ntransformers:\n- fn.yaml\n', 'cm.yaml': CM, 'fn.yaml': execConfig, 'fn.sh': ENV_FN });
  const r = await cli(['build', dir, '--enable-alpha-plugins', '--enable-exec', '-e', 'FOO=from-flag']);
  assert.equal(r.err, '');
  assert.match(r.out, /foo: from-flag/);
  const attached = await cli(['build', dir, '--enable_alpha_plugins', '--enable-exec', '--env=FOO=attached']);
  assert.match(attached.out, /foo: attached/);
});

test('--plugin-timeout must be a positive number of seconds', async () => {
  const dir = writeTree({ 'kustomization.yaml': 'resources:\n- cm.yaml\n', 'cm.yaml': CM });
  for (const bad of ['abc', '0', '-5', '']) {
    const r = await cli(['build', dir, `--plugin-timeout=${bad}`]);
    assert.equal(r.code, 1, bad);
    assert.match(r.err, /^Error: invalid argument ".*" for "--plugin-timeout" flag/);
    assert.equal(r.out, '');
  }
  assert.equal((await cli(['build', dir, '--plugin-timeout', '2.5'])).code, 0);
});

test('-o with its value attached (-o/path, -o=path) writes there', async () => {
  const dir = writeTree({ 'kustomization.yaml': 'resources:\n- cm.yaml\n', 'cm.yaml': CM });
  const outDir = mkdtempSync(join(tmpdir(), 'kts-o-'));
  for (const arg of [`-o${join(outDir, 'a.yaml')}`, `-o=${join(outDir, 'b.yaml')}`]) {
    const r = await cli(['build', dir, arg]);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, '');
  }
  assert.match(execFileSync('cat', [join(outDir, 'a.yaml'), join(outDir, 'b.yaml')]).toString(), /name: cm[^]*name: cm/);
});

test('a malformed --mount is a usage error, and a key given twice is refused', async () => {
  const dir = writeTree({ 'kustomization.yaml': 'resources:\n- cm.yaml\n', 'cm.yaml': CM });
  assert.match((await cli(['build', dir, '--mount', 'type=bind,src=./data,source=/etc,dst=/d'])).err, /src is given twice/);
  assert.match((await cli(['build', dir, '--mount', 'bogus=1'])).err, /invalid storage option "bogus=1"/);
});

test('deprecated flags are noted as kubectl notes them', async () => {
  const dir = writeTree({ 'kustomization.yaml': 'resources:\n- cm.yaml\n', 'cm.yaml': CM });
  const r = await cli(['build', dir, '--reorder', 'none']);
  assert.equal(r.err, "Flag --reorder has been deprecated, use the new 'sortOptions' field in kustomization.yaml instead.\n");
});

// Containers

const { skip } = requireTool('podman');
const IMAGE = 'localhost/kustomize-ts-test/flags:v1';

function buildImage(): void {
  buildBusyboxImage(
    IMAGE,
    [
      'uid=$(/bin/busybox id -u)',
      'data=$(/bin/busybox cat /data/value 2>/dev/null || echo none)',
      "net=$(/bin/busybox ls /sys/class/net | /bin/busybox tr '\\n' ' ')",
      "/bin/busybox sed -e \"s/^      whoami: .*/      whoami: '$uid'/\" -e \"s/^      foo: .*/      foo: '$FOO'/\" -e \"s/^      data: .*/      data: '$data'/\" -e \"s/^      net: .*/      net: '$net'/\"",
      '',
    ].join('\n'),
  );
}

const containerConfig = (network: boolean) => `apiVersion: example.com/v1
kind: Flags
metadata:
  name: flags
  annotations:
    config.kubernetes.io/function: |
      container:
        image: ${IMAGE}
        network: ${network}
`;

function containerTree(network = false): string {
  return writeTree({
    'app/kustomization.yaml': 'resources:\n- cm.yaml\ntransformers:\n- fn.yaml\n',
    'app/cm.yaml': CM,
    'app/fn.yaml': containerConfig(network),
    'app/data/value': 'mounted\n',
  });
}

let built = false;
const image = () => {
  if (!built) buildImage();
  built = true;
};

test('--env, --mount and --as-current-user reach a container function', { skip }, async () => {
  image();
  const app = join(containerTree(), 'app');
  const plain = await cli(['build', app, '--enable-alpha-plugins']);
  assert.equal(plain.code, 0, plain.err);
  assert.match(plain.out, /data: none\n[^]*foo: ""\n[^]*whoami: "65534"/);
  const r = await cli(['build', app, '--enable-alpha-plugins', '-e', 'FOO=bar', '--mount', 'type=bind,src=./data,dst=/data', '--as-current-user']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, new RegExp(`data: mounted\\n[^]*foo: bar\\n[^]*whoami: "${process.getuid!()}"`));
});

test('--network-name chooses the network of a function that declares network access', { skip }, async () => {
  image();
  const app = join(containerTree(true), 'app');
  assert.match((await cli(['build', app, '--enable-alpha-plugins'])).err, /network required but not enabled with --network/);
  const host = await cli(['build', app, '--enable-alpha-plugins', '--network']);
  assert.equal(host.code, 0, host.err);
  assert.match(host.out, /net: .*eth0/, 'without --network-name: the host network, as kustomize');
  const none = await cli(['build', app, '--enable-alpha-plugins', '--network', '--network-name', 'none']);
  assert.equal(none.code, 0, none.err);
  assert.match(none.out, /net: 'lo '/);
});

test('a mount source that leaves the kustomization through a symbolic link is refused', { skip }, async () => {
  const root = containerTree();
  const outside = mkdtempSync(join(tmpdir(), 'kts-outside-'));
  symlinkSync(outside, join(root, 'app/escape'));
  const r = await cli(['build', join(root, 'app'), '--enable-alpha-plugins', '--mount', 'type=bind,src=./escape,dst=/data']);
  assert.equal(r.code, 1);
  assert.match(r.err, /mount path '\.\/escape' must be relative to\/under the current kustomization directory/);
});
