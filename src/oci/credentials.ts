import { KustomizeError } from '../errors.js';

/** A user name and password (or token) for a registry, as `docker login` stores them. */
export interface RegistryCredentials {
  username: string;
  password: string;
}

/** The credentials for a registry and repository, if there are any. */
export type CredentialLookup = (registry: string, repository: string) => RegistryCredentials | undefined;

/** The `auths` section of a container auth file (`auth.json`, `~/.docker/config.json`). */
export interface AuthFileContent {
  auths?: Record<string, { auth?: string; username?: string; password?: string } | undefined>;
}

/**
 * The credentials an auth file holds for `registry/repository`. Keys may name a registry
 * (`ghcr.io`, `https://index.docker.io/v1/`) or, as podman allows, a repository or namespace
 * inside one (`ghcr.io/org`); the longest matching key wins.
 */
export function credentialsIn(content: AuthFileContent, registry: string, repository: string, file: string): RegistryCredentials | undefined {
  const wanted = `${registry}/${repository}`;
  let best: { length: number; credentials: RegistryCredentials } | undefined;
  for (const [key, entry] of Object.entries(content.auths ?? {})) {
    if (!entry) continue;
    const name = normalizeAuthKey(key);
    if (wanted !== name && !wanted.startsWith(`${name}/`)) continue;
    if (best && best.length >= name.length) continue;
    const credentials = decodeEntry(entry, key, file);
    if (credentials) best = { length: name.length, credentials };
  }
  return best?.credentials;
}

function normalizeAuthKey(key: string): string {
  const name = key.replace(/^https?:\/\//, '').replace(/\/+$/, '').replace(/\/v[12]$/, '');
  return name === 'index.docker.io' || name === 'registry-1.docker.io' ? 'docker.io' : name;
}

function decodeEntry(entry: { auth?: string; username?: string; password?: string }, key: string, file: string): RegistryCredentials | undefined {
  if (entry.username !== undefined && entry.password !== undefined) return { username: entry.username, password: entry.password };
  if (!entry.auth) return undefined;
  let text: string;
  try {
    text = atob(entry.auth);
  } catch {
    throw new KustomizeError('REMOTE_INVALID', `${file}: auths["${key}"].auth is not base64`, { file, field: `auths.${key}.auth` });
  }
  const colon = text.indexOf(':');
  if (colon < 0) throw new KustomizeError('REMOTE_INVALID', `${file}: auths["${key}"].auth is not 'user:password'`, { file, field: `auths.${key}.auth` });
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}
