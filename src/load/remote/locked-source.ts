import { KustomizeError } from '../../errors.js';
import type { FileSystem } from '../../fs/filesystem.js';
import { join } from '../../fs/path.js';
import { sha256Digest } from '../../oci/digest.js';
import { pinned, type OciReference } from '../../oci/reference.js';
import { LOCK_FILE_NAME, lockKey, pinOf, readLockFile, type LockedInput, type LockedName, type LockedType } from './lock-file.js';
import type { RemoteInput, RemoteSource } from './remote-source.js';
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
  pin<T extends LockedType>(name: LockedName & { type: T }): Extract<LockedInput, { type: T }> | undefined {
    const found = this.inputs.get(lockKey(name));
    if (!found && this.locked) {
      const what = name.type === 'helm' ? `chart '${name.chart}' ${name.version || '(no version)'} of '${name.url}'` : name.type === 'image' ? `container image '${name.url}'` : `remote input '${name.url}'`;
      throw new KustomizeError('LOCK_MISSING', `${what} is not in the lock file ${this.file} (--locked); run 'kustomize-ts lock' to add it`, {
        file: this.file,
        remote: name.url,
      });
    }
    return found as Extract<LockedInput, { type: T }> | undefined;
  }

  /** Whether the lock lists `url` as an input of this type. */
  lists(type: Exclude<LockedType, 'helm'>, url: string): boolean {
    return this.inputs.has(lockKey({ type, url }));
  }

  /** LOCK_MISMATCH: the input resolved to `found`, not to what the lock pins (`why` says more). */
  mismatch(input: LockedInput, found: string, why = ''): KustomizeError {
    const what = input.type === 'helm' ? `chart '${input.chart}' ${input.version || '(no version)'} of '${input.url}'` : `${input.type} input '${input.url}'`;
    return new KustomizeError('LOCK_MISMATCH', `${what}: the lock file ${this.file} pins ${pinOf(input)}, found ${found}${why}`, {
      file: this.file,
      remote: input.url,
    });
  }
}

/**
 * What a step that fetches inputs of its own (a catalog, a helm chart and its values files)
 * needs of its build: the lock the build follows, where to note what it fetched (see
 * `BuildResult.remote`), and the build's remote source (which follows the lock and notes what
 * it fetches itself).
 */
export interface BuildRemoteInputs {
  lock(): LockRules | undefined;
  note(input: RemoteInput): void;
  remote(): Promise<RemoteSource>;
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
 * `source` following a lock: a locked git base is fetched at its commit, a locked OCI tree or
 * catalog by its digest, and a locked HTTP file is checked against its sha256 (and may come
 * from a cache by it). When the locked commit or digest cannot be fetched, the reference as
 * written is: what it names now is the `found` of the LOCK_MISMATCH.
 */
export function followLock(source: RemoteSource, rules: LockRules): RemoteSource {
  return {
    fetchFile: async (url, options) => {
      // bytes pinned by what asks for them (a catalog's exec program) are that pin's business
      if (options?.sha256 !== undefined) return source.fetchFile(url, options);
      if (!rules.lists('http', url) && (rules.lists('git', url) || rules.lists('oci', url))) {
        // kustomize asks for every URL as a file first; a repository the lock knows is not one
        throw new KustomizeError('REMOTE_FAILED', `'${url}' is not locked as a file`, { remote: url });
      }
      const pin = rules.pin({ type: 'http', url });
      const bytes = await source.fetchFile(url, { ...options, ...(pin && { sha256: pin.sha256 }) });
      if (pin) {
        const found = await sha256Digest(bytes);
        if (found !== pinOf(pin)) throw rules.mismatch(pin, found, ' (the file changed)');
      }
      return bytes;
    },
    clone: async (spec, options) => {
      const pin = rules.pin({ type: 'git', url: spec.raw });
      if (!pin) return source.clone(spec, options);
      const atCommit: RepoSpec = { ...spec, ref: pin.commit };
      const tree = await fetchPinned(rules, pin, () => source.clone(atCommit, options), async () => (await source.clone(spec, options)).commit);
      return { ...tree, commit: pin.commit };
    },
    pullTree: (ref, options) => pullPinned(rules, ref, (r) => source.pullTree(r, options)),
    pullLayer: (ref, mediaType, options) => pullPinned(rules, ref, (r) => source.pullLayer(r, mediaType, options)),
    cleanup: () => source.cleanup(),
  };
}

/** What `pull` gets of an `oci://` reference: by the digest the lock pins, if it pins one. */
function pullPinned<T extends { digest?: string }>(rules: LockRules, ref: OciReference, pull: (ref: OciReference) => Promise<T>): Promise<T> {
  const pin = rules.pin({ type: 'oci', url: ref.raw });
  if (!pin) return pull(ref);
  return fetchPinned(rules, pin, () => pull(byDigest(ref, pin.digest)), async () => (await pull(ref)).digest);
}

/** The reference pinned to a digest (the tag, if any, is only shown). */
export function byDigest(ref: OciReference, digest: string): OciReference {
  return { ...ref, raw: pinned(ref, digest), digest };
}

/**
 * What `fetch` gets at the commit or digest `pin` gives. When that fails and the reference as
 * written now resolves (`resolveNow`) to something else, the error is LOCK_MISMATCH naming
 * both; otherwise it is the fetch's own.
 */
export async function fetchPinned<T>(rules: LockRules, pin: LockedInput, fetch: () => Promise<T>, resolveNow: () => Promise<string | undefined>): Promise<T> {
  try {
    return await fetch();
  } catch (e) {
    if (e instanceof KustomizeError && e.code === 'ABORTED') throw e;
    let now: string | undefined;
    try {
      now = await resolveNow();
    } catch {
      throw e;
    }
    if (now === undefined || now === pinOf(pin)) throw e;
    throw rules.mismatch(pin, now, ` (the pinned one could not be fetched: ${(e as Error).message})`);
  }
}
