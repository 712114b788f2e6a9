import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { KustomizeError } from '../errors.js';
import { credentialsIn, type AuthFileContent, type CredentialLookup } from './credentials.js';

/**
 * The auth files podman, skopeo and docker write, in the order podman reads them:
 * `$REGISTRY_AUTH_FILE`, `$XDG_RUNTIME_DIR/containers/auth.json`, then docker's
 * `$DOCKER_CONFIG/config.json` or `~/.docker/config.json`.
 */
export function authFilePaths(env: NodeJS.ProcessEnv = process.env): string[] {
  const paths: string[] = [];
  if (env['REGISTRY_AUTH_FILE']) paths.push(env['REGISTRY_AUTH_FILE']);
  if (env['XDG_RUNTIME_DIR']) paths.push(join(env['XDG_RUNTIME_DIR'], 'containers', 'auth.json'));
  paths.push(join(env['DOCKER_CONFIG'] ?? join(env['HOME'] ?? homedir(), '.docker'), 'config.json'));
  return paths;
}

/**
 * Credentials from the user's container auth files: the first file that has an entry for the
 * registry answers. Credential helpers (`credsStore`, `credHelpers`) are not run.
 */
export function credentialsFromAuthFiles(env: NodeJS.ProcessEnv = process.env): CredentialLookup {
  const files = authFilePaths(env)
    .filter((path) => existsSync(path))
    .map((path) => ({ path, content: readAuthFile(path) }));
  return (registry, repository) => {
    for (const { path, content } of files) {
      const found = credentialsIn(content, registry, repository, path);
      if (found) return found;
    }
    return undefined;
  };
}

function readAuthFile(path: string): AuthFileContent {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as AuthFileContent;
  } catch (e) {
    throw new KustomizeError('REMOTE_INVALID', `reading the registry auth file ${path}: ${(e as Error).message}`, { file: path, cause: e });
  }
}
