/**
 * The parts of Kubernetes workloads the tests of deploy/ read, typed, so that a test names what
 * it looks at; and the label selection that ties a Service or a PodDisruptionBudget to pods.
 */
import type { KubernetesObject } from '../../src/build/build.js';

export interface VolumeMount {
  name: string;
  mountPath: string;
  subPath?: string;
  readOnly?: boolean;
}

export interface Probe {
  httpGet?: { path: string; port: string | number };
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  env?: { name: string; value?: string }[];
  envFrom?: { configMapRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    runAsNonRoot?: boolean;
    runAsUser?: number;
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
  };
  volumeMounts?: VolumeMount[];
}

export interface Volume {
  name: string;
  emptyDir?: object;
  configMap?: { name: string };
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
}

export interface Deployment {
  metadata: { name: string; labels?: Record<string, string> };
  spec: {
    replicas?: number;
    strategy?: { type?: string; rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string } };
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec };
  };
}

/** The one object of a kind (and name, when given) in a build's output. */
export function theOne<T>(objects: readonly KubernetesObject[], kind: string, name?: string): T {
  const found = objects.filter((o) => o.kind === kind && (name === undefined || o.metadata?.name === name));
  if (found.length !== 1) throw new Error(`expected one ${kind}${name ? ` ${name}` : ''}, found ${found.length}`);
  return found[0] as unknown as T;
}

/** Whether a matchLabels selector selects objects with these labels; an empty selector selects nothing here, as a mistake would. */
export function selects(selector: Record<string, string> | undefined, labels: Record<string, string>): boolean {
  const pairs = Object.entries(selector ?? {});
  return pairs.length > 0 && pairs.every(([k, v]) => labels[k] === v);
}

/** A container by name. */
export function container(spec: PodSpec, name: string): Container {
  const found = [...spec.containers, ...(spec.initContainers ?? [])].find((c) => c.name === name);
  if (!found) throw new Error(`no container ${name}`);
  return found;
}

/** The volume a container mounts at a path. */
export function volumeAt(spec: PodSpec, c: Container, mountPath: string): { mount: VolumeMount; volume: Volume } {
  const mount = c.volumeMounts?.find((m) => m.mountPath === mountPath);
  if (!mount) throw new Error(`${c.name} mounts nothing at ${mountPath}`);
  const volume = spec.volumes?.find((v) => v.name === mount.name);
  if (!volume) throw new Error(`${c.name} mounts ${mount.name}, which is no volume of the pod`);
  return { mount, volume };
}
