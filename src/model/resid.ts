import { isClusterScoped } from './scope.js';

/** Group, version and kind of a resource; `group` is "" for the core group. */
export interface Gvk {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

function apiVersionOf(gvk: Gvk): string {
  return gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
}

/** kustomize's rendering of a GVK in messages: `Deployment.v1.apps`, `[noGrp]` for empties. */
export function gvkString(gvk: Gvk): string {
  return `${gvk.kind || '[noKind]'}.${gvk.version || '[noVer]'}.${gvk.group || '[noGrp]'}`;
}

function gvkIsClusterScoped(gvk: Gvk): boolean {
  return isClusterScoped(apiVersionOf(gvk), gvk.kind);
}

/**
 * The identity of a resource: GVK, name and namespace. Two ids are the same resource when
 * GVK and name match and their *effective* namespaces match ("" means "default" for
 * namespaced kinds; cluster-scoped kinds have none).
 */
export class ResId implements Gvk {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  /** derived once: ids are immutable, and lookups read these for every resource */
  #clusterScoped: boolean | undefined;
  #key: string | undefined;

  constructor(gvk: Gvk, name: string, namespace: string) {
    this.group = gvk.group;
    this.version = gvk.version;
    this.kind = gvk.kind;
    this.name = name;
    this.namespace = namespace;
  }

  get apiVersion(): string {
    return apiVersionOf(this);
  }

  get isClusterScoped(): boolean {
    return (this.#clusterScoped ??= gvkIsClusterScoped(this));
  }

  get effectiveNamespace(): string {
    if (this.isClusterScoped) return CLUSTER_NAMESPACE;
    return this.namespace === '' ? 'default' : this.namespace;
  }

  /** A key equal for ids that denote the same resource. */
  get key(): string {
    return (this.#key ??= `${this.group}\0${this.version}\0${this.kind}\0${this.name}\0${this.effectiveNamespace}`);
  }

  equals(o: ResId): boolean {
    return this.key === o.key;
  }

  sameGvk(o: Gvk): boolean {
    return this.group === o.group && this.version === o.version && this.kind === o.kind;
  }

  withName(name: string): ResId {
    return new ResId(this, name, this.namespace);
  }

  /** kustomize's rendering in messages: `Deployment.v1.apps/name.namespace`. */
  toString(): string {
    return `${gvkString(this)}/${this.name || '[noName]'}.${this.namespace || '[noNs]'}`;
  }
}

/** The effective namespace of cluster-scoped resources: matches no real namespace. */
const CLUSTER_NAMESPACE = '_non_namespaceable_';
