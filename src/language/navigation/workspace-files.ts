import { basename, dirname, isWithin } from '../../fs/path.js';
import { COMPOSITION_FILE_NAMES } from '../../load/entry.js';
import { isKustomizationFile } from '../error-place.js';
import type { Root, Workspace } from '../workspace.js';

/**
 * What navigation may read for a file of the workspace: what is inside a workspace folder (or a
 * loose document's root), and, under the load restrictor `LoadRestrictionsRootOnly`, a file
 * only inside the directory of the file that names it (a directory, a base or a component, may
 * be anywhere in the workspace, as a build's may).
 */
export function readable(ws: Workspace, naming: string): (path: string, directory: boolean) => boolean {
  const rootOnly = ws.settings.loadRestrictor === 'LoadRestrictionsRootOnly';
  return (path, directory) => ws.inWorkspace(path) && (directory || !rootOnly || isWithin(dirname(naming), path));
}

/** The kustomization files the root's last build read, its own first. */
export function kustomizationsRead(root: Root): string[] {
  const read = [...(root.outcome?.asked ?? [])].filter((p) => p !== root.kustomization && isKustomizationFile(p));
  return [root.kustomization, ...read.sort()];
}

export function isCompositionFile(path: string): boolean {
  return (COMPOSITION_FILE_NAMES as readonly string[]).includes(basename(path));
}
