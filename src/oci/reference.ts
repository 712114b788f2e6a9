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
  if (!isOciReference(raw)) throw invalid(raw, "it must start with 'oci://'");
  return readReference(raw, raw.slice('oci://'.length), 'OCI reference', 'oci://HOST/REPO:TAG');
}

/**
 * A container image as a function's config or a catalog writes it, `[HOST[:PORT]/]REPO[:TAG][@sha256:…]`,
 * read as the container engines read it: a first component with a `.` or `:`, or `localhost`,
 * names the registry, else the image is on Docker Hub (`alpine` is `docker.io/library/alpine`);
 * no tag and no digest means `latest`. `raw` is the image as written.
 */
export function parseImageReference(image: string): OciReference {
  const first = image.split('/', 1)[0]!;
  const hasRegistry = image.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  const full = hasRegistry ? image : `docker.io/${image.includes('/') ? image : `library/${image}`}`;
  return readReference(image, full, 'image', 'HOST/REPO:TAG');
}

/** An image pinned to a digest: its name as written, without its tag, then `@digest` (`alpine@sha256:…`). */
export function imageAtDigest(image: string, digest: string): string {
  const name = image.split('@', 1)[0]!;
  const colon = name.lastIndexOf(':');
  return `${colon > name.lastIndexOf('/') ? name.slice(0, colon) : name}@${digest}`;
}

function invalid(raw: string, why: string, what = 'OCI reference'): KustomizeError {
  return new KustomizeError('REMOTE_INVALID', `invalid ${what} '${raw}': ${why}`, { remote: raw });
}

/** `rest` (`HOST[:PORT]/REPO[:TAG][@DIGEST]`) of the reference `raw`, which errors name. */
function readReference(raw: string, rest: string, what: string, form: string): OciReference {
  const bad = (why: string) => invalid(raw, why, what);
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) throw bad("the digest must be 'sha256:' and 64 lowercase hex digits");
  }
  const slash = rest.indexOf('/');
  if (slash <= 0) throw bad(`it names no repository (${form})`);
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
