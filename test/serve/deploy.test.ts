/**
 * deploy/, the kustomization that runs the render server (`kustomize-ts serve`) on Kubernetes:
 * kustomize-ts builds it to kubectl's bytes, and what it renders holds together as
 * docs/server-deploy.md says: the probes ask the server's port, the drain fits in the grace
 * period, the heap fits in the memory limit, and the Service and the PodDisruptionBudget select
 * the Deployment’s pods. (test/serve/image.test.ts builds and runs the image, from deploy/image.)
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from '../../src/build/build.js';
import { requireTool } from '../require-tool.js';
import { container, selects, theOne, volumeAt, type Container, type Deployment, type Probe } from './workloads.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const DEPLOY = join(REPO, 'deploy');
const kubectl = requireTool('kubectl');

// the order kubectl prints in (the CLI's default; the library's keeps the input's)
const { yaml, objects } = await build(DEPLOY, { reorder: 'unspecified' });
const deployment = theOne<Deployment>(objects, 'Deployment');
const pod = deployment.spec.template.spec;
const serve = container(pod, 'serve');

interface Service {
  spec: { type?: string; selector: Record<string, string>; ports: { name?: string; port: number; targetPort?: string | number }[] };
}
interface PodDisruptionBudget {
  spec: { selector: { matchLabels: Record<string, string> }; maxUnavailable?: number; minAvailable?: number };
}

/** The value after a flag in the server's arguments. */
function flag(c: Container, name: string): string {
  const args = c.args ?? [];
  const at = args.indexOf(name);
  assert.ok(at >= 0 && at + 1 < args.length, `${c.name} has no ${name} VALUE in ${JSON.stringify(args)}`);
  return args[at + 1]!;
}

/** A memory quantity in MiB; the quantities deploy/ writes are Mi or Gi. */
function mebibytes(quantity: string): number {
  const m = /^(\d+)(Mi|Gi)$/.exec(quantity);
  assert.ok(m, `a memory quantity in Mi or Gi, not ${quantity}`);
  return Number(m[1]) * (m[2] === 'Gi' ? 1024 : 1);
}

/** The container port a probe or a Service's targetPort names, by number or by name. */
function containerPort(c: Container, port: string | number | undefined): number {
  const found = c.ports?.find((p) => (typeof port === 'number' ? p.containerPort === port : p.name === port));
  assert.ok(found, `${c.name} has no port ${String(port)}`);
  return found.containerPort;
}

/** The port of `--listen HOST:PORT`. */
const listenPort = (): number => Number(flag(serve, '--listen').split(':').pop());

test('kustomize-ts builds deploy/ to the bytes kubectl kustomize does', { skip: kubectl.skip }, () => {
  assert.equal(yaml, execFileSync(kubectl.path, ['kustomize', DEPLOY]).toString());
});

test('the container runs the server on the repository, listening on every interface', () => {
  assert.deepEqual(serve.args?.slice(0, 2), ['serve', '--root']);
  const root = flag(serve, '--root');
  assert.match(flag(serve, '--listen'), /^0\.0\.0\.0:\d+$/);
  // the root is the link git-sync swaps to each new checkout, on the volume it fills, read-only to the server
  const [volumeRoot, link] = [root.slice(0, root.lastIndexOf('/')), root.slice(root.lastIndexOf('/') + 1)];
  const { mount, volume } = volumeAt(pod, serve, volumeRoot);
  assert.equal(mount.readOnly, true);
  for (const name of ['git-sync-init', 'git-sync']) {
    const gitSync = container(pod, name);
    const env = (key: string) => gitSync.env?.find((e) => e.name === key)?.value;
    assert.deepEqual([env('GITSYNC_ROOT'), env('GITSYNC_LINK')], [volumeRoot, link], `${name} keeps the link the server serves`);
    assert.equal(volumeAt(pod, gitSync, volumeRoot).volume.name, volume.name, `${name} writes the volume the server reads`);
  }
  assert.ok(pod.initContainers?.some((c) => c.name === 'git-sync-init'), 'the first clone is done before the server starts');
  // the repository's ConfigMap, with its hash, is in the output
  const configMaps = new Set(objects.filter((o) => o.kind === 'ConfigMap').map((o) => o.metadata.name));
  for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
    for (const from of c.envFrom ?? []) assert.ok(configMaps.has(from.configMapRef!.name), `${c.name} reads ${from.configMapRef!.name}`);
  }
});

test('the probes ask /healthz and /readyz on the port the server listens on', () => {
  const probes: [string, Probe | undefined][] = [
    ['/healthz', serve.livenessProbe],
    ['/readyz', serve.readinessProbe],
  ];
  for (const [path, probe] of probes) {
    assert.equal(probe?.httpGet?.path, path);
    assert.equal(containerPort(serve, probe.httpGet.port), listenPort());
  }
});

test('replicas, rolling updates and the PodDisruptionBudget keep a replica serving', () => {
  const replicas = deployment.spec.replicas ?? 1;
  assert.ok(replicas >= 2, `replicas ${replicas}`);
  // a new pod is ready before an old one drains
  assert.equal(deployment.spec.strategy?.type, 'RollingUpdate');
  assert.equal(deployment.spec.strategy.rollingUpdate?.maxUnavailable, 0);
  assert.ok(Number(deployment.spec.strategy.rollingUpdate.maxSurge) >= 1);
  const pdb = theOne<PodDisruptionBudget>(objects, 'PodDisruptionBudget');
  const down = pdb.spec.maxUnavailable ?? replicas - (pdb.spec.minAvailable ?? replicas);
  assert.ok(down >= 1 && down < replicas, `the budget lets ${down} of ${replicas} go at once`);
  assert.ok(selects(pdb.spec.selector.matchLabels, deployment.spec.template.metadata.labels), 'the budget selects the pods');
  assert.deepEqual(pdb.spec.selector.matchLabels, deployment.spec.selector.matchLabels, 'and exactly the Deployment’s');
});

test('a pod drains within its grace period: preStop sleep, then the longest build', () => {
  const preStop = serve.lifecycle?.preStop?.exec?.command ?? [];
  assert.equal(preStop[0], '/bin/sleep', 'the preStop hook sleeps (in the image: test/serve/image.test.ts)');
  const sleep = Number(preStop[1]);
  const timeout = Number(flag(serve, '--timeout'));
  assert.ok(sleep > 0 && timeout > 0);
  assert.ok((pod.terminationGracePeriodSeconds ?? 30) > sleep + timeout, `${pod.terminationGracePeriodSeconds} s > ${sleep} s + ${timeout} s`);
});

test('every container has requests and limits, and the server’s heap and cache fit in its memory', () => {
  for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
    for (const resource of ['cpu', 'memory']) {
      assert.ok(c.resources?.requests?.[resource], `${c.name} requests ${resource}`);
      assert.ok(c.resources?.limits?.[resource], `${c.name} limits ${resource}`);
    }
  }
  const limit = mebibytes(serve.resources!.limits!['memory']!);
  const heap = Number(/--max-old-space-size=(\d+)/.exec(serve.env?.find((e) => e.name === 'NODE_OPTIONS')?.value ?? '')?.[1]);
  const cache = Number(flag(serve, '--cache-mb'));
  assert.ok(cache > 0 && cache < heap && heap < limit, `cache ${cache} MB < heap ${heap} MB < limit ${limit} MiB`);
});

test('the pod runs as a user other than root, on read-only root file systems', () => {
  assert.equal(pod.securityContext?.runAsNonRoot, true);
  assert.ok((pod.securityContext?.runAsUser ?? 0) > 0);
  for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
    assert.equal(c.securityContext?.readOnlyRootFilesystem, true, c.name);
    assert.equal(c.securityContext?.allowPrivilegeEscalation, false, c.name);
    // what the server and git-sync write goes to a volume
    volumeAt(pod, c, '/tmp');
  }
});

test('the Service selects the pods and targets the server’s named port', () => {
  const service = theOne<Service>(objects, 'Service');
  assert.equal(service.spec.type, 'ClusterIP');
  assert.ok(selects(service.spec.selector, deployment.spec.template.metadata.labels));
  const [port] = service.spec.ports;
  assert.equal(port?.port, 8080);
  assert.ok(port.name, 'the port has a name');
  assert.equal(typeof port.targetPort, 'string', 'the target is the container port’s name, not a number to keep in step');
  assert.equal(containerPort(serve, port.targetPort), listenPort());
});

test('the labels come from the kustomization, onto every object and selector', () => {
  for (const o of objects) assert.equal(o.metadata.labels?.['app.kubernetes.io/part-of'], 'kustomize-ts', `${o.kind} ${o.metadata.name}`);
  assert.ok(selects(deployment.spec.selector.matchLabels, deployment.spec.template.metadata.labels));
  assert.equal(deployment.spec.selector.matchLabels['app.kubernetes.io/name'], 'kustomize-ts-serve');
});
