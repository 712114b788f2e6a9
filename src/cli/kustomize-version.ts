import { kustomizeProfile } from '../versions/profiles.js';
import type { FlagSpec, ParsedArgs } from './flags.js';

/** `--kustomize-version`, on `version` and on every command that builds. */
export const KUSTOMIZE_VERSION_FLAG: FlagSpec = {
  name: 'kustomize-version',
  type: 'string',
  help: 'behave as this kustomize release: 5.4.2, 5.4.3, 5.5.0, 5.6.0, 5.7.0, 5.7.1, 5.8.0 or 5.8.1 (5.7: the newest 5.7 release); default: the version in the name the program was called by (kustomize-v5.7.1), else $KUSTOMIZE_TS_VERSION, else 5.8.1',
};

/** The environment variable that chooses the kustomize version when neither the flag nor the program's name does. */
export const KUSTOMIZE_VERSION_ENV = 'KUSTOMIZE_TS_VERSION';

/**
 * A program's name and the release it asks for: a link named `kustomize-5.7.1` or
 * `kustomize-v5.7.1` (what Argo CD's `kustomize.path.v5.7.1` points at) makes one installation
 * stand in for each release, and is `kustomize` in what it says. No release when the name
 * carries none.
 */
export function releaseInProgramName(name: string): { name: string; release?: string } {
  const m = /^(.+)-(v?\d+\.\d+(?:\.\d+)?)$/.exec(name);
  return m ? { name: m[1]!, release: m[2]! } : { name };
}

/**
 * Gives `--kustomize-version` the version the program's name asks for when the command takes
 * the flag and it was not given: the name comes before `$KUSTOMIZE_TS_VERSION`, which a whole
 * machine may set, and after the flag. A version no profile has is refused here, as a flag's.
 */
export function withProgramVersion(parsed: ParsedArgs, flags: readonly FlagSpec[], program: string | undefined, version: string | undefined): ParsedArgs {
  if (version === undefined || parsed.flags.has(KUSTOMIZE_VERSION_FLAG.name) || !flags.includes(KUSTOMIZE_VERSION_FLAG)) return parsed;
  kustomizeProfile(version, `the program's name ${program}-${version}`);
  return { ...parsed, flags: new Map([...parsed.flags, [KUSTOMIZE_VERSION_FLAG.name, version]]) };
}
