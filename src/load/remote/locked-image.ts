import { KustomizeError, messageOf } from '../../errors.js';
import { findManifestDigest, type OciClientOptions } from '../../oci/client.js';
import { imageAtDigest, parseImageReference } from '../../oci/reference.js';
import { byDigest, fetchPinned, type BuildRemoteInputs } from './locked-source.js';
import type { RemoteInput } from './remote-source.js';

/** The image a container function runs under its build's lock. */
export interface ImageToRun {
  /** what the container engine is given: `name@sha256:…` when the lock pins the image, else the image as written */
  image: string;
  /**
   * When the lock pins the image: runs the function (`work`); should it fail while the pinned
   * digest is gone from the registry and the tag names another, the error is LOCK_MISMATCH.
   */
  run?: <T>(work: () => T | Promise<T>) => Promise<T>;
}

/** How the registry of a pinned image is asked whether its digest is gone: never offline. */
interface ImageRegistryAccess {
  offline: boolean;
  signal: AbortSignal;
}

/**
 * A container function's image under its build's lock. An image given by digest is pinned as
 * written and no input. One given by tag is an `image` input: a lock that pins it has it run by
 * that digest (the engine keeps or pulls it; the tag pushed again changes nothing), and with
 * `--locked` one the lock does not list is LOCK_MISSING. The build asks no registry for a tag's
 * digest (the engine resolves what it runs): `lock()` does, with {@link imageDigests}.
 */
export function imageToRun(image: string, inputs: BuildRemoteInputs, registry: ImageRegistryAccess): ImageToRun {
  if (isPinned(image)) return { image };
  const rules = inputs.lock();
  const pin = rules?.pin({ type: 'image', url: image });
  inputs.note({ type: 'image', url: image, ...(pin && { digest: pin.digest }) });
  if (!rules || !pin) return { image };
  const ref = parseImageReference(image);
  // what the tag names now, when the registry no longer has the pinned digest (undefined while it does)
  const tagIfGone = async () => {
    if (registry.offline) return undefined;
    const oci: OciClientOptions = { signal: registry.signal };
    if ((await findManifestDigest(byDigest(ref, pin.digest), oci)) !== undefined) return undefined;
    return findManifestDigest(ref, oci);
  };
  return { image: imageAtDigest(image, pin.digest), run: (work) => fetchPinned(rules, pin, async () => work(), tagIfGone) };
}

function isPinned(image: string): boolean {
  return /@sha256:[0-9a-f]{64}$/.test(image);
}

/**
 * The build's remote inputs with each image it ran by tag, and the lock did not pin, given the
 * digest its registry gives for the tag now (an image index for several platforms is one
 * digest): what `lock()` writes. An image its registry does not have (one built only on this
 * machine) cannot be locked.
 */
export async function imageDigests(remote: readonly RemoteInput[], options: OciClientOptions & { offline: boolean }): Promise<RemoteInput[]> {
  const { offline, ...oci } = options;
  return Promise.all(
    remote.map(async (input) => {
      if (input.type !== 'image' || input.digest) return input;
      const cannot = (why: string) =>
        new KustomizeError('REMOTE_FAILED', `container image '${input.url}' cannot be locked: ${why}; push it to a registry, or give it by digest (name@sha256:…)`, { remote: input.url });
      if (offline) throw cannot('offline, its registry is not asked for its digest');
      let digest: string | undefined;
      try {
        digest = await findManifestDigest(parseImageReference(input.url), oci);
      } catch (e) {
        if (e instanceof KustomizeError && e.code === 'ABORTED') throw e;
        throw cannot(messageOf(e));
      }
      if (digest === undefined) throw cannot('its registry does not have it');
      return { ...input, digest };
    }),
  );
}
