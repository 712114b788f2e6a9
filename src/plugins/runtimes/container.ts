import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { KustomizeError } from '../../errors.js';
import type { FunctionSpec } from '../../kinds/function-spec.js';
import type { ResolvedOptions, StorageMount } from '../../options.js';
import { isWithin, normalize, resolve } from '../../fs/path.js';

/**
 * The container engine that runs container functions: the one the user chose (option or
 * `KUSTOMIZE_TS_CONTAINER_RUNTIME`), else podman or docker, whichever is on the PATH first in
 * that order (podman needs no daemon).
 */
export function containerRuntime(options: Readonly<ResolvedOptions>): string {
  const chosen = options.containerRuntime ?? process.env['KUSTOMIZE_TS_CONTAINER_RUNTIME'];
  if (chosen) return chosen;
  for (const candidate of ['podman', 'docker']) if (onPath(candidate)) return candidate;
  throw new KustomizeError('PLUGIN_FAILED', 'container functions need docker or podman on the PATH (or set KUSTOMIZE_TS_CONTAINER_RUNTIME)');
}

function onPath(cmd: string): boolean {
  return (process.env['PATH'] ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, cmd)));
}

/**
 * The arguments kustomize passes to `docker run` for a container function: no network unless
 * the function asks and the build allows it (then `--network-name`, or `host` as in kustomize),
 * user nobody (the caller's uid:gid with `--as-current-user`), read-only bind mounts under the
 * kustomization directory, the function's env plus the build's `--env`.
 */
export function containerArgs(
  spec: NonNullable<FunctionSpec['container']>,
  options: Readonly<ResolvedOptions>,
  kustomizationDir: string,
): string[] {
  const args = ['run', '--rm', '-i', '-a', 'STDIN', '-a', 'STDOUT', '-a', 'STDERR'];
  if (spec.network && !options.network) throw new KustomizeError('PLUGIN_DISABLED', 'network required but not enabled with --network');
  args.push('--network', spec.network ? (options.networkName ?? 'host') : 'none');
  const user = options.asCurrentUser && process.getuid && process.getgid ? `${process.getuid()}:${process.getgid()}` : 'nobody';
  args.push('--user', user, '--security-opt=no-new-privileges');
  for (const m of [...(spec.mounts ?? []), ...options.mounts]) args.push('--mount', mountArg(m, options, kustomizationDir));
  for (const e of functionEnv(spec.envs ?? [], options.env)) args.push('-e', e);
  args.push(spec.image!);
  return args;
}

/**
 * One `--mount` for the engine. Its parts are joined with commas, so a comma in a part would
 * smuggle in another option (`src: "./data,source=/etc"`): refused. Under the load restrictor
 * the source must be, after resolving symbolic links, inside the kustomization directory.
 */
function mountArg(m: StorageMount, options: Readonly<ResolvedOptions>, kustomizationDir: string): string {
  const src = m.src ?? '';
  for (const part of [m.type ?? '', src, m.dst ?? '']) {
    if (part.includes(',') || /[\x00-\x1f]/.test(part)) throw new KustomizeError('LOAD_RESTRICTED', `mount '${part}': a mount's type, src and dst may not hold commas or control characters`);
  }
  const source = src.startsWith('/') ? normalize(src) : resolve(kustomizationDir, src);
  if (options.loadRestrictor !== 'none') {
    const root = realpathOrSelf(kustomizationDir);
    if (src.startsWith('/') || !isWithin(root, realpathOrSelf(source))) {
      throw new KustomizeError('LOAD_RESTRICTED', `mount path '${src}' must be relative to/under the current kustomization directory`);
    }
  }
  return `type=${m.type ?? 'bind'},source=${source},target=${m.dst ?? ''}${m.rw ? '' : ',readonly'}`;
}

/** The path with its symbolic links resolved (as the engine will follow them), or itself when it does not exist yet. */
function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Declared `KEY=VALUE` pairs (the build's win), sorted, with kustomize's two defaults, then bare exported names. */
function functionEnv(declared: string[], fromBuild: string[]): string[] {
  const pairs = new Map<string, string>([
    ['LOG_TO_STDERR', 'true'],
    ['STRUCTURED_RESULTS', 'true'],
  ]);
  const bare = new Set<string>();
  for (const e of [...declared, ...fromBuild]) {
    const eq = e.indexOf('=');
    if (eq < 0) bare.add(e);
    else pairs.set(e.slice(0, eq), e.slice(eq + 1));
  }
  const sorted = [...pairs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${v}`);
  return [...sorted, ...[...bare].filter((b) => !pairs.has(b))];
}
