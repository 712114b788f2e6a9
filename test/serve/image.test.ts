/**
 * deploy/image, built and run with podman: the image make-context.sh and the Containerfile make
 * from this checkout's package (FROM scratch: nothing is pulled) renders what the library does,
 * as the user the Deployment runs it as and as Argo CD's user 999, on a read-only root file
 * system; it has what deploy/ and deploy/argocd run in it (the preStop sleep, the plugin's sh
 * and find); and it serves /healthz and /v1/build and exits 0 on SIGTERM, as the Deployment's
 * probes and grace period expect.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { build } from '../../src/build/build.js';
import { workDir } from '../git-repos.js';
import { requireTool } from '../require-tool.js';
import { container, theOne, type Deployment } from './workloads.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const EXAMPLES = join(REPO, 'examples');
const IMAGE = 'localhost/kustomize-ts-test/serve:deploy';
const podman = requireTool('podman');
const skip = podman.skip;

/** The Deployment's user (deploy/deployment.yaml) and Argo CD's (deploy/argocd). */
const SERVER_USER = '65532';
const ARGOCD_USER = '999:999';

before(() => {
  if (skip) return;
  const work = workDir('kts-image-');
  // --ignore-scripts: prepack would rebuild dist/, which these tests are running from
  execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync(join(REPO, 'deploy', 'image', 'make-context.sh'), [join(work, 'context'), join(work, 'kustomize-ts-0.1.0.tgz')], { stdio: 'inherit' });
  execFileSync('podman', ['build', '-q', '-t', IMAGE, '-f', join(REPO, 'deploy', 'image', 'Containerfile'), join(work, 'context')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
});

after(() => {
  if (!skip) execFileSync('podman', ['rmi', '-f', IMAGE], { stdio: 'ignore' });
});

/** `podman run` of the image with no network, a read-only root and the examples at /repo; its stdout. */
function run(args: string[], options: string[] = []): string {
  return execFileSync('podman', ['run', '--rm', '--network', 'none', '--read-only', '-v', `${EXAMPLES}:/repo:ro`, ...options, IMAGE, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  }).toString();
}

const hello = async (): Promise<string> => (await build(join(EXAMPLES, 'hello', 'overlays', 'production'), { reorder: 'unspecified' })).yaml;

test('the image builds a kustomization as the library does, as the Deployment’s user', { skip }, async () => {
  assert.equal(run(['id', '-u'], ['--entrypoint', '/bin/busybox']).trim(), SERVER_USER);
  assert.equal(run(['build', '/repo/hello/overlays/production']), await hello());
});

test('the image runs the Argo CD plugin’s commands as user 999', { skip }, async () => {
  const plugin = parse(readFileSync(join(REPO, 'deploy', 'argocd', 'plugin.yaml'), 'utf8')) as {
    spec: { generate: { command: string[]; args?: string[] }; discover: { find: { command: string[] } } };
  };
  const inApp = (command: string[]): string => {
    const [program, ...rest] = command;
    return run(rest, ['--user', ARGOCD_USER, '--workdir', '/repo/hello/overlays/production', '--entrypoint', program!]);
  };
  assert.equal(inApp([...plugin.spec.generate.command, ...(plugin.spec.generate.args ?? [])]), await hello());
  assert.equal(inApp(plugin.spec.discover.find.command), './kustomization.yaml\n');
});

test('the image has the program of the server’s preStop hook', { skip }, async () => {
  const { objects } = await build(join(REPO, 'deploy'));
  const [program] = container(theOne<Deployment>(objects, 'Deployment').spec.template.spec, 'serve').lifecycle?.preStop?.exec?.command ?? [];
  assert.ok(program, 'deploy/ has a preStop command');
  // `sleep 0`: the hook's program, run with an argument that ends it at once
  run(['0'], ['--entrypoint', program]);
});

/** A port free on the loopback interface now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

test('the image serves /healthz and /v1/build, and exits 0 on SIGTERM', { skip }, async () => {
  const port = await freePort();
  const name = `kts-serve-test-${process.pid}`;
  execFileSync('podman', ['run', '-d', '--name', name, '--network', 'host', '--read-only', '-v', `${EXAMPLES}:/repo:ro`, IMAGE,
    'serve', '--root', '/repo', '--listen', `127.0.0.1:${port}`], { stdio: 'ignore' });
  try {
    const url = `http://127.0.0.1:${port}`;
    let healthz: Response | undefined;
    for (let tries = 0; tries < 100 && healthz?.status !== 200; tries++) {
      healthz = await fetch(`${url}/healthz`).catch(() => undefined);
      if (healthz?.status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(healthz?.status, 200, '/healthz answers 200 within 10 s');
    assert.equal((await fetch(`${url}/readyz`)).status, 200);
    const response = await fetch(`${url}/v1/build`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path: 'hello/overlays/production' }) });
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { yaml: string }).yaml, await hello());
    execFileSync('podman', ['stop', '-t', '20', name], { stdio: 'ignore' });
    assert.equal(execFileSync('podman', ['inspect', '--format', '{{.State.ExitCode}}', name]).toString().trim(), '0');
  } finally {
    execFileSync('podman', ['rm', '-f', name], { stdio: 'ignore' });
  }
});
