/**
 * The OCI distribution client kustomize-ts uses for `oci://` bases and catalogs: reference
 * parsing, pulls (manifest, then layers verified by digest), pushes, credentials from the
 * container auth files, and tree archives (Flux's tar.gz layer). Browser-safe except
 * `auth-file.ts`, which is loaded only in Node.
 *
 * ```ts
 * const { digest, layers } = await pullArtifact('oci://127.0.0.1:5000/org/app:v1', { mediaType: MediaType.fluxContent });
 * const files = await readTreeArchive(layers[0].bytes, 'oci://127.0.0.1:5000/org/app:v1');
 * ```
 */
export { pullArtifact, pullSingleLayer, pushArtifact, resolveDigest, type Descriptor, type OciClientOptions, type OciManifest, type PulledArtifact, type PulledLayer, type PulledSingleLayer, type PullOptions, type PushOptions } from './client.js';
export type { CredentialLookup, RegistryCredentials } from './credentials.js';
export { sha256Digest, verifyDigest } from './digest.js';
export { MediaType } from './media-types.js';
export { isOciReference, parseOciReference, pinned, type OciReference } from './reference.js';
export { readTreeArchive, writeTreeArchive, type ArchiveLimits, type TreeFile } from './tar.js';
