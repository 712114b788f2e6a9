import { KustomizeError } from '../../errors.js';
import type { FileSystem } from '../../fs/filesystem.js';
import { join } from '../../fs/path.js';
import { sha256Digest } from '../../oci/digest.js';
import { pinned, type OciReference } from '../../oci/reference.js';
import { LOCK_FILE_NAME, lockKey, pinOf, readLockFile, type LockedInput, type LockedType } from './lock-file.js';
import type { RemoteSource } from './remote-source.js';
import type { RepoSpec } from './repo-spec.js';

/**
 * What a build does with the lock file beside its kustomization: `follow` it (an input it does
 * not list is fetched as without a lock), follow it and refuse any input it does not list
 * (`locked`, for CI), or `ignore` it.
 */
export type LockMode = 'follow' | 'locked' | 'ignore';

/** Whether an error is a lock's verdict (LOCK_MISMATCH, LOCK_MISSING, LOCK_INVALID), which ends a build. */
export function isLockError(e: KustomizeError): boolean {
  return e.code === 'LOCK_MISMATCH' || e.code === 'LOCK_MISSING' || e.code === 'LOCK_INVALID';
}

/** The lock a build follows: the pinned inputs of its lock file, and whether an input it lacks is an error. */
export class LockRules {
  constructor(
    /** the lock file, as errors name it */
    readonly file: string,
    private readonly inputs: ReadonlyMap<string, LockedInput>,
    private readonly locked: boolean,
  ) {}

  /** The lock's entry for an input, if it has one; with `--locked`, none is LOCK_MISSING. */
  pin<T extends LockedType>(type: T, url: string): Extract<LockedInput, { type: T }> | undefined {
    const found = this.inputs.get(lockKey({ type, url }));
    if (!found && this.locked) {
      throw new KustomizeError('LOCK_MISSING', `remote input '${url}' is not in the lock file ${this.file} (--locked); run 'kustomize-ts lock' to add it`, {
        file: this.file,
        remote: url,
      });
    }
    return found as Extract<LockedInput, { type: T }> | undefined;
  }

  /** Whether the lock lists `url` as an input of this type. */
  lists(type: LockedType, url: string): boolean {
    return this.inputs.has(lockKey({ type, url }));
  }

  /** LOCK_MISMATCH: the input resolved to `found`, not to what the lock pins (`why` says more). */
  mismatch(input: LockedInput, found: string, why = ''): KustomizeError {
    return new KustomizeError('LOCK_MISMATCH', `${input.type} input '${input.url}': the lock file ${this.file} pins ${pinOf(input)}, found ${found}${why}`, {
      file: this.file,
      remote: input.url,
    });
  }
}

/**
 * The rules of the lock file in `dir` (undefined when there is none, or `mode` ignores it),
 * read through the build's file system so that it is among the build's inputs.
 */
export function readLockRules(fs: FileSystem, dir: string, mode: LockMode): LockRules | undefined {
  if (mode === 'ignore') return undefined;
  const file = join(dir, LOCK_FILE_NAME);
  if (!fs.exists(file)) {
    if (mode === 'locked') throw new KustomizeError('LOCK_MISSING', `--locked: there is no lock file ${file}; run 'kustomize-ts lock' to write one`, { file });
    return undefined;
  }
  return new LockRules(file, readLockFile(new TextDecoder().decode(fs.readFile(file)), file), mode === 'locked');
}

/**
 * `source` following a lock: a locked git base is fetched at its commit, a locked OCI tree by
 * its digest, and a locked HTTP file is checked against its sha256 (and may come from a cache
 * by it). When the locked commit or digest cannot be fetched, the reference as written is: what
 * it names now is the `found` of the LOCK_MISMATCH.
 */
export function followLock(source: RemoteSource, rules: LockRules): RemoteSource {
  return {
    fetchFile: async (url, options) => {
      if (!rules.lists('http', url) && (rules.lists('git', url) || rules.lists('oci', url))) {
        // kustomize asks for every URL as a file first; a repository the lock knows is not one
        throw new KustomizeError('REMOTE_FAILED', `'${url}' is not locked as a file`, { remote: url });
      }
      const pin = rules.pin('http', url);
      const bytes = await source.fetchFile(url, { ...options, ...(pin && { sha256: pin.sha256 }) });
      if (pin) {
        const found = await sha256Digest(bytes);
        if (found !== pinOf(pin)) throw rules.mismatch(pin, found, ' (the file changed)');
      }
      return bytes;
    },
    clone: async (spec, options) => {
      const pin = rules.pin('git', spec.raw);
      if (!pin) return source.clone(spec, options);
      const atCommit: RepoSpec = { ...spec, ref: pin.commit };
      try {
        return { ...(await source.clone(atCommit, options)), commit: pin.commit };
      } catch (e) {
        throw await unfetchable(e, pin, rules, async () => (await source.clone(spec, options)).commit);
      }
    },
    pullTree: async (ref, options) => {
      const pin = rules.pin('oci', ref.raw);
      if (!pin) return source.pullTree(ref, options);
      const byDigest: OciReference = { ...ref, raw: pinned(ref, pin.digest), digest: pin.digest };
      try {
        return await source.pullTree(byDigest, options);
      } catch (e) {
        throw await unfetchable(e, pin, rules, async () => (await source.pullTree(ref, options)).digest);
      }
    },
    cleanup: () => source.cleanup(),
  };
}

/**
 * The error for a pinned commit or digest that could not be fetched: LOCK_MISMATCH when the
 * reference as written now resolves to something else, else the fetch's own error.
 */
async function unfetchable(e: unknown, pin: LockedInput, rules: LockRules, resolveNow: () => Promise<string | undefined>): Promise<unknown> {
  if (e instanceof KustomizeError && e.code === 'ABORTED') return e;
  let now: string | undefined;
  try {
    now = await resolveNow();
  } catch {
    return e;
  }
  if (now === undefined || now === pinOf(pin)) return e;
  return rules.mismatch(pin, now, ` (the pinned one could not be fetched: ${(e as Error).message})`);
}
