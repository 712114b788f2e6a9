import { KustomizeError } from '../errors.js';

/**
 * An OCI artifact reference as written in a kustomization or catalog:
 * `oci://HOST[:PORT]/REPO[:TAG]` or `oci://HOST[:PORT]/REPO@sha256:DIGEST` (a tag and a digest
 * together pin the digest; the tag is only shown). No tag and no digest means `latest`.
 */
export interface OciReference {
  /** as written */
  raw: string;
  /** `host[:port]`, as in the auth file */
  registry: string;
  /** the repository path, e.g. `org/app-config` */
  repository: string;
  tag?: string;
  /** `sha256:<64 hex>` when the reference is pinned */
  digest?: string;
}

const HOST = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*|\[[0-9a-fA-F:]+\])(?::[0-9]{1,5})?$/;
// the distribution spec's grammar: lowercase path components joined by `.`, `_`, `__` or dashes
const COMPONENT = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*$/;
const TAG = /^[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;

export function isOciReference(text: string): boolean {
  return /^oci:\/\//i.test(text);
}

/** Parses `oci://…`; a REMOTE_INVALID error names what is wrong. */
export function parseOciReference(raw: string): OciReference {
  const bad = (why: string) => new KustomizeError('REMOTE_INVALID', `invalid OCI reference '${raw}': ${why}`, { remote: raw });
  if (!isOciReference(raw)) throw bad("it must start with 'oci://'");
  let rest = raw.slice('oci://'.length);
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) throw bad("the digest must be 'sha256:' and 64 lowercase hex digits");
  }
  const slash = rest.indexOf('/');
  if (slash <= 0) throw bad('it names no repository (oci://HOST/REPO:TAG)');
  const registry = rest.slice(0, slash);
  if (!HOST.test(registry)) throw bad(`the registry '${registry}' is not a host name with an optional port`);
  let repository = rest.slice(slash + 1);
  let tag: string | undefined;
  const colon = repository.lastIndexOf(':');
  if (colon >= 0) {
    tag = repository.slice(colon + 1);
    repository = repository.slice(0, colon);
    if (!TAG.test(tag)) throw bad(`the tag '${tag}' is not a valid tag`);
  }
  if (repository === '' || !repository.split('/').every((c) => COMPONENT.test(c))) {
    throw bad(`the repository '${repository}' must be lowercase path components (a-z, 0-9, '.', '_', '-')`);
  }
  return { raw, registry, repository, ...(tag !== undefined && { tag }), ...(digest !== undefined && { digest }) };
}

/** What the registry is asked for: the digest when pinned, else the tag (`latest` by default). */
export function manifestReference(ref: OciReference): string {
  return ref.digest ?? ref.tag ?? 'latest';
}

/** `oci://registry/repo@digest`: the reference pinned to what a tag resolved to. */
export function pinned(ref: OciReference, digest: string): string {
  return `oci://${ref.registry}/${ref.repository}@${digest}`;
}

/** Registries on the loopback interface are spoken to over plain HTTP; all others over HTTPS. */
export function registryBaseUrl(registry: string): string {
  const host = registry.replace(/:[0-9]+$/, '').toLowerCase();
  const loopback = host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
  // Docker Hub's API host differs from the name people write
  const apiHost = registry === 'docker.io' ? 'registry-1.docker.io' : registry;
  return `${loopback ? 'http' : 'https'}://${apiHost}`;
}
