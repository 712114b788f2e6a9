import { KustomizeError } from '../errors.js';
import { importInNode } from '../host.js';
import type { CredentialLookup, RegistryCredentials } from './credentials.js';
import { sha256Digest, verifyDigest } from './digest.js';
import { IMAGE_MANIFEST_ACCEPT, MANIFEST_ACCEPT, MediaType } from './media-types.js';
import { manifestReference, parseOciReference, type OciReference } from './reference.js';
import { RegistrySession, type RequestLimits } from './registry-session.js';

/** A blob as a manifest lists it. */
export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
}

/** An OCI image manifest (or Docker's v2 manifest, which has the same shape). */
export interface OciManifest {
  schemaVersion: 2;
  mediaType?: string;
  artifactType?: string;
  config: Descriptor;
  layers: Descriptor[];
  annotations?: Record<string, string>;
}

/** A pulled layer: its descriptor's media type and digest, and its bytes (verified against the digest). */
export interface PulledLayer {
  mediaType: string;
  digest: string;
  bytes: Uint8Array;
  annotations?: Record<string, string>;
}

export interface PulledArtifact {
  /** the manifest's digest: what the tag resolved to, or the pinned digest */
  digest: string;
  manifest: OciManifest;
  layers: PulledLayer[];
}

/** Who the client is, and how much a pull may cost. */
export interface OciClientOptions {
  /**
   * Credentials: a lookup, fixed credentials, or `'auth-file'` (the default) for the user's
   * container auth files (Node only; see auth-file.ts). `null`: always anonymous.
   */
  auth?: CredentialLookup | RegistryCredentials | 'auth-file' | null;
  /** seconds per request; default 60 */
  timeoutSeconds?: number;
  /** stops the requests when it aborts: they reject with a KustomizeError `ABORTED` */
  signal?: AbortSignal;
  /** the largest manifest read; default 4 MiB */
  maxManifestBytes?: number;
  /** the largest blob read; default 256 MiB */
  maxBlobBytes?: number;
}

export interface PullOptions extends OciClientOptions {
  /** pull only the layers of this media type (or of any of these); an error if the artifact has none */
  mediaType?: string | readonly string[];
}

export interface PushOptions extends OciClientOptions {
  /** the config blob; default the empty JSON `{}` as `application/vnd.oci.empty.v1+json` */
  config?: { mediaType: string; bytes: Uint8Array };
  layers: { mediaType: string; bytes: Uint8Array; annotations?: Record<string, string> }[];
  artifactType?: string;
  annotations?: Record<string, string>;
}

const MiB = 1024 * 1024;

/**
 * Pulls an artifact over the OCI distribution API: the manifest (by tag or digest), then its
 * layers, each verified against its digest and size. `ref` is `oci://HOST/REPO:TAG` or
 * `oci://HOST/REPO@sha256:…`; registries on localhost/127.0.0.1 are spoken to over plain HTTP.
 */
export async function pullArtifact(ref: string | OciReference, options: PullOptions = {}): Promise<PulledArtifact> {
  const parsed = typeof ref === 'string' ? parseOciReference(ref) : ref;
  const session = new RegistrySession(parsed, await credentialLookup(options.auth), limits(options), 'pull');
  const { digest, manifest } = await fetchManifest(session, options.maxManifestBytes ?? 4 * MiB);
  const types = options.mediaType === undefined ? undefined : ([] as string[]).concat(options.mediaType);
  const wanted = types === undefined ? manifest.layers : manifest.layers.filter((l) => types.includes(l.mediaType));
  if (wanted.length === 0) {
    const found = manifest.layers.map((l) => l.mediaType).join(', ') || 'none';
    throw new KustomizeError('REMOTE_FAILED', `${parsed.raw}: the artifact has no layer of media type ${types!.join(' or ')} (its layers: ${found})`, { remote: parsed.raw });
  }
  const layers: PulledLayer[] = [];
  for (const layer of wanted) {
    const bytes = await fetchBlob(session, layer, options.maxBlobBytes ?? 256 * MiB);
    layers.push({ mediaType: layer.mediaType, digest: layer.digest, bytes, ...(layer.annotations && { annotations: layer.annotations }) });
  }
  return { digest, manifest, layers };
}

/** The one layer of an artifact that is of `mediaType` (or of one of them), with the manifest's digest. */
export interface PulledSingleLayer {
  /** the manifest's digest */
  digest: string;
  bytes: Uint8Array;
}

/**
 * Pulls the one layer of `mediaType` (or of one of them) of an artifact: a kustomize tree's
 * tar.gz, a catalog. An artifact with no such layer, or several, is an error saying so.
 */
export async function pullSingleLayer(ref: string | OciReference, mediaType: string | readonly string[], options: OciClientOptions = {}): Promise<PulledSingleLayer> {
  const artifact = await pullArtifact(ref, { ...options, mediaType });
  if (artifact.layers.length > 1) {
    const raw = typeof ref === 'string' ? ref : ref.raw;
    const types = ([] as string[]).concat(mediaType).join(' or ');
    throw new KustomizeError('REMOTE_FAILED', `${raw}: the artifact has ${artifact.layers.length} layers of media type ${types}, not one`, { remote: raw });
  }
  return { digest: artifact.digest, bytes: artifact.layers[0]!.bytes };
}

/** The digest a reference names now (a tag is asked for; a pinned reference needs no request). */
export async function resolveDigest(ref: string | OciReference, options: OciClientOptions = {}): Promise<string> {
  const parsed = typeof ref === 'string' ? parseOciReference(ref) : ref;
  if (parsed.digest) return parsed.digest;
  const session = new RegistrySession(parsed, await credentialLookup(options.auth), limits(options), 'pull');
  return (await fetchManifest(session, options.maxManifestBytes ?? 4 * MiB)).digest;
}

/**
 * The digest of what a reference names in its registry now, a container image's index (one
 * image for several platforms) included; asked for even when the reference is pinned, to learn
 * whether the registry still has it. Undefined when the registry answers 404.
 */
export async function findManifestDigest(ref: string | OciReference, options: OciClientOptions = {}): Promise<string | undefined> {
  const parsed = typeof ref === 'string' ? parseOciReference(ref) : ref;
  const session = new RegistrySession(parsed, await credentialLookup(options.auth), limits(options), 'pull');
  return (await requestManifest(session, IMAGE_MANIFEST_ACCEPT, options.maxManifestBytes ?? 4 * MiB, true))?.digest;
}

/**
 * Pushes an artifact (blobs, then the manifest under the reference's tag or digest); returns the
 * manifest's digest. Used to publish trees and catalogs, and by the tests to fill a registry.
 */
export async function pushArtifact(ref: string | OciReference, options: PushOptions): Promise<string> {
  const parsed = typeof ref === 'string' ? parseOciReference(ref) : ref;
  const session = new RegistrySession(parsed, await credentialLookup(options.auth), limits(options), 'pull,push');
  const config = options.config ?? { mediaType: MediaType.ociEmpty, bytes: new TextEncoder().encode('{}') };
  const manifest: OciManifest = {
    schemaVersion: 2,
    mediaType: MediaType.ociManifest,
    ...(options.artifactType && { artifactType: options.artifactType }),
    config: await uploadBlob(session, config),
    layers: [],
    ...(options.annotations && { annotations: options.annotations }),
  };
  for (const layer of options.layers) {
    manifest.layers.push({ ...(await uploadBlob(session, layer)), ...(layer.annotations && { annotations: layer.annotations }) });
  }
  const bytes = new TextEncoder().encode(JSON.stringify(manifest));
  const path = `manifests/${manifestReference(parsed)}`;
  const res = await session.request('PUT', path, { headers: { 'Content-Type': MediaType.ociManifest }, body: bytes });
  if (res.status !== 201) throw await session.failure(res, 'PUT', path);
  await res.body?.cancel();
  return sha256Digest(bytes);
}

async function fetchManifest(session: RegistrySession, max: number): Promise<{ digest: string; manifest: OciManifest }> {
  const ref = session.ref;
  const { digest, bytes, contentType } = (await requestManifest(session, MANIFEST_ACCEPT, max, false))!;
  let manifest: OciManifest;
  try {
    manifest = JSON.parse(new TextDecoder().decode(bytes)) as OciManifest;
  } catch (e) {
    throw new KustomizeError('REMOTE_FAILED', `${ref.raw}: the manifest is not JSON: ${(e as Error).message}`, { remote: ref.raw, cause: e });
  }
  const type = manifest.mediaType ?? contentType;
  if (type === MediaType.ociIndex || type === MediaType.dockerManifestList) {
    throw new KustomizeError('REMOTE_FAILED', `${ref.raw}: is an image index (${type}), not a single artifact`, { remote: ref.raw });
  }
  if (manifest.schemaVersion !== 2 || !Array.isArray(manifest.layers) || !manifest.layers.every(isDescriptor)) {
    throw new KustomizeError('REMOTE_FAILED', `${ref.raw}: not an OCI image manifest (schemaVersion 2 with layers)`, { remote: ref.raw });
  }
  return { digest, manifest };
}

/**
 * The manifest the session's reference names (of the types `accept` lists), checked against its
 * digest when pinned and against the digest the registry announces; undefined for a 404 when
 * `orMissing`.
 */
async function requestManifest(session: RegistrySession, accept: string, max: number, orMissing: boolean): Promise<{ digest: string; bytes: Uint8Array; contentType: string } | undefined> {
  const ref = session.ref;
  const path = `manifests/${manifestReference(ref)}`;
  const res = await session.request('GET', path, { headers: { Accept: accept } });
  if (res.status === 404 && orMissing) {
    await res.body?.cancel();
    return undefined;
  }
  if (res.status !== 200) throw await session.failure(res, 'GET', path);
  const bytes = await session.readBody(res, max, `${ref.raw} (manifest)`);
  if (ref.digest) await verifyDigest(bytes, ref.digest, `${ref.raw} (manifest)`);
  const digest = ref.digest ?? (await sha256Digest(bytes));
  const announced = res.headers.get('docker-content-digest');
  if (announced && announced.startsWith('sha256:') && announced !== digest) {
    throw new KustomizeError('REMOTE_FAILED', `${ref.raw}: the registry says the manifest is ${announced}, its content is ${digest}`, { remote: ref.raw });
  }
  return { digest, bytes, contentType: res.headers.get('content-type') ?? '' };
}

async function fetchBlob(session: RegistrySession, layer: Descriptor, max: number): Promise<Uint8Array> {
  const what = `${session.ref.raw} (blob ${layer.digest})`;
  if (layer.size > max) throw new KustomizeError('REMOTE_FAILED', `${what}: ${layer.size} bytes, over the limit of ${max}`, { remote: session.ref.raw });
  const path = `blobs/${layer.digest}`;
  const res = await session.request('GET', path);
  if (res.status !== 200) throw await session.failure(res, 'GET', path);
  const bytes = await session.readBody(res, layer.size, what);
  if (bytes.byteLength !== layer.size) {
    throw new KustomizeError('REMOTE_FAILED', `${what}: ${bytes.byteLength} bytes, the manifest says ${layer.size}`, { remote: session.ref.raw });
  }
  await verifyDigest(bytes, layer.digest, what);
  return bytes;
}

async function uploadBlob(session: RegistrySession, blob: { mediaType: string; bytes: Uint8Array }): Promise<Descriptor> {
  const digest = await sha256Digest(blob.bytes);
  const descriptor = { mediaType: blob.mediaType, digest, size: blob.bytes.byteLength };
  const head = await session.request('HEAD', `blobs/${digest}`);
  if (head.status === 200) return descriptor;
  const start = await session.request('POST', 'blobs/uploads/');
  if (start.status !== 202) throw await session.failure(start, 'POST', 'blobs/uploads/');
  await start.body?.cancel();
  const location = new URL(start.headers.get('location') ?? '', session.baseUrl);
  location.searchParams.set('digest', digest);
  const put = await session.request('PUT', location.toString(), { headers: { 'Content-Type': 'application/octet-stream' }, body: blob.bytes });
  if (put.status !== 201) throw await session.failure(put, 'PUT', location.toString());
  await put.body?.cancel();
  return descriptor;
}

function isDescriptor(d: unknown): d is Descriptor {
  const x = d as Descriptor;
  return typeof x === 'object' && x !== null && typeof x.mediaType === 'string' && typeof x.digest === 'string' && typeof x.size === 'number';
}

function limits(options: OciClientOptions): RequestLimits {
  return { timeoutSeconds: options.timeoutSeconds ?? 60, signal: options.signal };
}

async function credentialLookup(auth: OciClientOptions['auth']): Promise<CredentialLookup | undefined> {
  if (auth === null) return undefined;
  if (typeof auth === 'function') return auth;
  if (auth && auth !== 'auth-file') return () => auth;
  // the auth files are on disk: only in Node, and loaded only when asked for
  return (await importInNode(async () => (await import('./auth-file.js')).credentialsFromAuthFiles))?.();
}
