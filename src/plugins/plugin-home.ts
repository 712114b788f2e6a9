import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ResId } from '../model/resid.js';

/**
 * Where legacy plugins live: the first existing of `$KUSTOMIZE_PLUGIN_HOME`,
 * `$XDG_CONFIG_HOME/kustomize/plugin`, `~/.config/kustomize/plugin`, `~/kustomize/plugin`.
 */
export function pluginHome(explicit?: string): string | undefined {
  if (explicit) return explicit;
  const home = homedir();
  const candidates = [
    process.env['KUSTOMIZE_PLUGIN_HOME'],
    process.env['XDG_CONFIG_HOME'] && join(process.env['XDG_CONFIG_HOME'], 'kustomize', 'plugin'),
    join(home, '.config', 'kustomize', 'plugin'),
    join(home, 'kustomize', 'plugin'),
  ];
  return candidates.find((c): c is string => !!c && existsSync(c));
}

/**
 * Where the generators and transformers KEP puts its plugins, one executable per API group:
 * `$XDG_CONFIG_HOME/kustomize/plugins` (`~/.config/kustomize/plugins` without it).
 */
export function groupExecutableDir(): string {
  return resolve(process.env['XDG_CONFIG_HOME'] || join(homedir(), '.config'), 'kustomize', 'plugins');
}

/** `<home>/<group>/<version>/<lowercase kind>/<Kind>`, the path a plugin of this config's type is looked up at. */
export function pluginPath(home: string, id: ResId): string {
  return join(home, id.group, id.version, id.kind.toLowerCase(), id.kind);
}
