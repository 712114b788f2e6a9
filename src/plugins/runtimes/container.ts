import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { KustomizeError } from '../../errors.js';
import type { FunctionSpec } from '../function-spec.js';
import type { ResolvedOptions } from '../../options.js';
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
 * the function asks and the build allows it, user nobody, read-only bind mounts under the
 * kustomization directory, the function's env plus the build's `--env`.
 */
export function containerArgs(
  spec: NonNullable<FunctionSpec['container']>,
  options: Readonly<ResolvedOptions>,
  kustomizationDir: string,
): string[] {
  const args = ['run', '--rm', '-i', '-a', 'STDIN', '-a', 'STDOUT', '-a', 'STDERR'];
  if (spec.network && !options.network) throw new KustomizeError('PLUGIN_DISABLED', 'network required but not enabled with --network');
  args.push('--network', spec.network ? 'host' : 'none');
  const user = options.asCurrentUser && process.getuid && process.getgid ? `${process.getuid()}:${process.getgid()}` : 'nobody';
  args.push('--user', user, '--security-opt=no-new-privileges');
  for (const m of [...(spec.mounts ?? []), ...(options.mounts ?? [])]) {
    const src = m.src ?? '';
    if (options.loadRestrictor !== 'none' && (src.startsWith('/') || !isWithin(kustomizationDir, resolve(kustomizationDir, src)))) {
      throw new KustomizeError('LOAD_RESTRICTED', `mount path '${src}' must be relative to/under the current kustomization directory`);
    }
    const source = src.startsWith('/') ? normalize(src) : resolve(kustomizationDir, src);
    args.push('--mount', `type=${m.type ?? 'bind'},source=${source},target=${m.dst ?? ''}${m.rw ? '' : ',readonly'}`);
  }
  for (const e of functionEnv(spec.envs ?? [], options.env ?? [])) args.push('-e', e);
  args.push(spec.image!);
  return args;
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
