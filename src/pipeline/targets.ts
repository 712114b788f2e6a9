import { KustomizeError } from '../errors.js';
import { findCompositionFile } from '../composition/composition-file.js';
import { compileComposition } from '../composition/compile.js';
import { readKustomization } from '../kinds/kustomization.js';
import { kustomizationFilesIn } from '../load/entry.js';
import type { Loader } from '../load/loader.js';
import { compileKustomization } from '../plan/kustomization.js';
import type { Plan } from '../plan/plan.js';
import type { BuildContext } from './context.js';

/**
 * Reads the directory a loader is rooted at and compiles what it holds to a plan: a
 * Kustomization or a Component (its kind decides how a parent may use it), or a Composition; a
 * directory holding both a kustomization and a Composition file is an error. Prints a
 * kustomization file's deprecation warnings and applies its `openapi:` field to the build; the
 * build's root also sets the build's `buildMetadata`.
 */
export function loadPlan(loader: Loader, ctx: BuildContext, root = false): Plan {
  const names = kustomizationFilesIn(loader.fs, loader.root);
  const composition = findCompositionFile(loader);
  if (composition !== undefined && names.length > 0) {
    throw new KustomizeError(
      'KUSTOMIZATION_INVALID',
      `directory '${loader.root}' holds both a Kustomization (${names.join(', ')}) and a Composition (${composition}); a directory is one or the other`,
      { file: loader.root },
    );
  }
  if (composition !== undefined) return compileComposition(loader, composition, (message) => ctx.warn({ code: 'FIELD_DEPRECATED', message, file: loader.absolute(composition) }), ctx.profile);
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
  const file = loader.absolute(name);
  const kustomization = readKustomization(loader.loadText(name), file, loader.root, (message) => ctx.warn({ code: 'FIELD_DEPRECATED', message, file }), ctx.profile);
  const plan = compileKustomization(kustomization, loader, name);
  if (root) ctx.buildMetadata = kustomization.buildMetadata ?? [];
  applyOpenApiField(plan, ctx, root);
  return plan;
}

/** Applies a kustomization's `openapi:` field to the build's schema choice. */
export function applyOpenApiField(plan: Plan, ctx: BuildContext, root: boolean): void {
  ctx.openapi.applyField(plan.openapi, (path) => plan.loader.loadText(path), { root, file: plan.loader.absolute(plan.fileName) });
}
