import { KustomizeError } from '../errors.js';
import { join } from '../fs/path.js';
import { KUSTOMIZATION_FILE_NAMES, readKustomization } from '../kinds/kustomization.js';
import { Loader } from '../load/loader.js';
import { cloneUrl, parseRepoSpec } from '../load/remote/repo-spec.js';
import type { BuildContext } from './context.js';
import { KustomizationTarget, type OriginBase } from './kustomization-target.js';

/**
 * Reads the directory a loader is rooted at and returns what it holds, ready to accumulate:
 * a Kustomization or a Component (its kind decides how a parent may use it). Prints the
 * file's deprecation warnings and applies its `openapi:` field to the build.
 */
export function loadTarget(loader: Loader, ctx: BuildContext, originBase: OriginBase, root = false): KustomizationTarget {
  const found: [string, string][] = [];
  for (const name of KUSTOMIZATION_FILE_NAMES) {
    const path = loader.absolute(name);
    if (loader.fs.exists(path) && !loader.fs.isDirectory(path)) found.push([name, loader.loadText(name)]);
  }
  if (found.length === 0) {
    throw new KustomizeError(
      'KUSTOMIZATION_NOT_FOUND',
      `unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory '${loader.root}'`,
      { file: loader.root },
    );
  }
  if (found.length > 1) {
    throw new KustomizeError('KUSTOMIZATION_INVALID', `Found multiple kustomization files under: ${loader.root}\n`, { file: loader.root });
  }
  const [name, text] = found[0]!;
  const kustomization = readKustomization(text, loader.absolute(name), loader.root, (m) => ctx.warn(m));
  const target = new KustomizationTarget(loader, kustomization, name, ctx, originBase, (child, base) => loadTarget(child, ctx, base));
  if (root) ctx.buildMetadata = kustomization.buildMetadata ?? [];
  target.applyOpenApiField(root);
  return target;
}

/** The target of a build: `path` is a local directory, or a git URL (as kustomize allows), cloned. */
export async function loadRootTarget(path: string, ctx: BuildContext): Promise<KustomizationTarget> {
  const spec = parseRepoSpec(path);
  if (!spec) return loadTarget(Loader.atRoot(ctx.fs, path, ctx.options.loadRestrictor, ctx.options.cwd ?? '/'), ctx, { dir: '' }, true);
  const clone = await (await ctx.remote()).clone(spec);
  const loader = Loader.atRemote(clone.fs, join(clone.dir, spec.path), { url: path, dir: clone.dir, repo: cloneUrl(spec), ref: spec.ref }, undefined);
  return loadTarget(loader, ctx, { dir: '' }, true);
}
