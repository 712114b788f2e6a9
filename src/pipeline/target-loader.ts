import { KustomizeError } from '../errors.js';
import { join } from '../fs/path.js';
import { KUSTOMIZATION_FILE_NAMES, readKustomization } from '../kinds/kustomization.js';
import { Loader } from '../load/loader.js';
import { cloneUrl, parseRepoSpec } from '../load/remote/repo-spec.js';
import { findCompositionFile } from '../composition/composition-file.js';
import { CompositionTarget, type KustomizationRunner } from '../composition/composition-target.js';
import { originBaseOf } from '../composition/origin-base.js';
import { isOciReference, parseOciReference } from '../oci/reference.js';
import type { BuildContext } from './context.js';
import type { BuildTarget } from './target.js';
import type { OriginBase } from '../model/origin.js';
import { KustomizationTarget } from './kustomization-target.js';

/**
 * Reads the directory a loader is rooted at and returns what it holds, ready to accumulate:
 * a Kustomization or a Component (its kind decides how a parent may use it), or a
 * Composition; a directory holding both a kustomization and a Composition file is an error.
 * Prints a kustomization file's deprecation warnings and applies its `openapi:` field to the build.
 */
export function loadTarget(loader: Loader, ctx: BuildContext, originBase: OriginBase, root = false): BuildTarget {
  const names = KUSTOMIZATION_FILE_NAMES.filter((name) => {
    const path = loader.absolute(name);
    return loader.fs.exists(path) && !loader.fs.isDirectory(path);
  });
  const composition = findCompositionFile(loader);
  if (composition !== undefined && names.length > 0) {
    throw new KustomizeError(
      'KUSTOMIZATION_INVALID',
      `directory '${loader.root}' holds both a Kustomization (${names.join(', ')}) and a Composition (${composition}); a directory is one or the other`,
      { file: loader.root },
    );
  }
  if (composition !== undefined) return new CompositionTarget(loader, composition, ctx, kustomizationRunner(ctx));
  if (names.length === 0) {
    throw new KustomizeError(
      'KUSTOMIZATION_NOT_FOUND',
      `unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory '${loader.root}'`,
      { file: loader.root },
    );
  }
  if (names.length > 1) {
    throw new KustomizeError('KUSTOMIZATION_INVALID', `Found multiple kustomization files under: ${loader.root}\n`, { file: loader.root });
  }
  const name = names[0]!;
  const kustomization = readKustomization(loader.loadText(name), loader.absolute(name), loader.root, (m) => ctx.warn(m));
  const target = new KustomizationTarget(loader, kustomization, name, ctx, originBase, (child, base) => loadTarget(child, ctx, base));
  if (root) ctx.buildMetadata = kustomization.buildMetadata ?? [];
  target.applyOpenApiField(root);
  return target;
}

/** The target of a Composition directory a `kind: Composition` step names (from a Kustomization's generators:/transformers:/validators:). */
export function loadCompositionTarget(loader: Loader, ctx: BuildContext): BuildTarget {
  return loadTarget(loader, ctx, originBaseOf(loader));
}

/** How a Composition runs the Kustomizations it holds (a ResourceAccumulator's paths, an inline Kustomization), in their step's directory. */
function kustomizationRunner(ctx: BuildContext): KustomizationRunner {
  return {
    accumulate(loader, kustomization, fileName, acc) {
      const target = new KustomizationTarget(loader, kustomization, fileName, ctx, originBaseOf(loader), (child, base) => loadTarget(child, ctx, base));
      target.applyOpenApiField(false);
      return target.accumulate(acc);
    },
  };
}

/** The target of a build: `path` is a local directory, a git URL (as kustomize allows), cloned, or an `oci://` artifact's tree. */
export async function loadRootTarget(path: string, ctx: BuildContext): Promise<BuildTarget> {
  if (isOciReference(path)) {
    const tree = await (await ctx.remote()).pullTree(parseOciReference(path));
    return loadTarget(Loader.atRemote(tree.fs, tree.dir, { url: path, dir: tree.dir }, undefined), ctx, { dir: '' }, true);
  }
  const spec = parseRepoSpec(path);
  if (!spec) return loadTarget(Loader.atRoot(ctx.fs, path, ctx.options.loadRestrictor, ctx.options.cwd ?? '/'), ctx, { dir: '' }, true);
  const clone = await (await ctx.remote()).clone(spec);
  const loader = Loader.atRemote(clone.fs, join(clone.dir, spec.path), { url: path, dir: clone.dir, repo: cloneUrl(spec), ref: spec.ref }, undefined);
  return loadTarget(loader, ctx, { dir: '' }, true);
}
