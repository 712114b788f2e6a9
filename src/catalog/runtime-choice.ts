import { KustomizeError } from '../errors.js';
import { hostIsNode } from '../host.js';
import type { ContainerRuntime, ExecPlatform, FunctionRuntime } from './catalog.js';

/** The runtime a function runs on here: the one chosen from what its catalog offers. */
export type ChosenRuntime = { container: ContainerRuntime } | { exec: ExecPlatform } | { starlark: string };

/**
 * The runtime to use when a version offers several: an exec program built for this machine,
 * else the container, else the Starlark script. Outside Node (in a browser), where no process
 * runs, the Starlark script comes first. An exec runtime with no program for this machine (and
 * nothing else offered) is an error listing what is offered.
 */
export function chooseRuntime(runtime: FunctionRuntime, describe: string): ChosenRuntime {
  if (runtime.starlark && !hostIsNode()) return { starlark: runtime.starlark };
  const host = hostPlatform();
  const exec = runtime.exec?.platforms.find((p) => p.os === host.os && p.arch === host.arch);
  if (exec) return { exec };
  if (runtime.container) return { container: runtime.container };
  if (runtime.starlark) return { starlark: runtime.starlark };
  const offered = runtime.exec!.platforms.map((p) => `${p.os}/${p.arch}`).join(', ');
  throw new KustomizeError('PLUGIN_NOT_FOUND', `${describe}: no exec program for this platform (${host.os}/${host.arch}); the catalog offers ${offered}`);
}

/** This machine as the KEP names platforms (`linux`/`darwin`/`windows`, `amd64`/`arm64`); empty outside Node. */
function hostPlatform(): { os: string; arch: string } {
  if (typeof process === 'undefined') return { os: '', arch: '' };
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  return { os, arch };
}
