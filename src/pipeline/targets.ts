import { KustomizeError } from '../errors.js';
import { findCompositionFile } from '../composition/composition-file.js';
import { compileComposition } from '../composition/compile.js';
import { readKustomization, type DeprecationWarnings, type Kustomization } from '../kinds/kustomization.js';
import type { KustomizeProfile } from '../versions/profiles.js';
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
 * build's root also sets the build's `buildMetadata`. `above` is the namespace the
 * kustomizations above it pass down (see {@link Plan.namespaceBelow}).
 */
export function loadPlan(loader: Loader, ctx: BuildContext, root = false, above: string | undefined = undefined): Plan {
  const names = kustomizationFilesIn(loader.fs, loader.root);
  const composition = findCompositionFile(loader);
  if (composition !== undefined && names.length > 0) {
    throw new KustomizeError(
      'KUSTOMIZATION_INVALID',
      `directory '${loader.root}' holds both a Kustomization (${names.join(', ')}) and a Composition (${composition}); a directory is one or the other`,
      { file: loader.root },
    );
  }
  const deprecations = (file: string): DeprecationWarnings => ({ program: ctx.options.programName, warn: (message) => ctx.warn({ code: 'FIELD_DEPRECATED', message, file }) });
  if (composition !== undefined) return compileComposition(loader, composition, deprecations(loader.absolute(composition)), ctx.profile);
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
  const read = readKustomization(loader.loadText(name), file, loader.root, deprecations(file), ctx.profile);
  const kustomization = withNamespaceFromAbove(read, above, ctx.profile);
  const passedDown = ctx.profile.helmChartNamespace === 'kustomization-or-above' ? kustomization.namespace || above : undefined;
  const plan = compileKustomization(kustomization, loader, name, passedDown);
  if (root) ctx.buildMetadata = kustomization.buildMetadata ?? [];
  applyOpenApiField(plan, ctx, root);
  return plan;
}

/**
 * A kustomization as the build's kustomize release reads it below one with a namespace
 * (`above`): kustomize 5.8.0 gives it that namespace when it has none; from 5.8.0 its Helm
 * charts without a namespace are rendered in its own, else in `above`.
 */
function withNamespaceFromAbove(k: Kustomization, above: string | undefined, profile: KustomizeProfile): Kustomization {
  const own = k.namespace || (profile.namespaceIntoBases ? above : undefined);
  const k2 = own === k.namespace ? k : { ...k, namespace: own };
  const chartNamespace = own || above;
  if (profile.helmChartNamespace === 'as-written' || !chartNamespace || !k2.helmCharts) return k2;
  return { ...k2, helmCharts: k2.helmCharts.map((chart) => (chart && !chart.namespace ? { ...chart, namespace: chartNamespace } : chart)) };
}

/** Applies a kustomization's `openapi:` field to the build's schema choice. */
export function applyOpenApiField(plan: Plan, ctx: BuildContext, root: boolean): void {
  ctx.openapi.applyField(plan.openapi, (path) => plan.loader.loadText(path), { root, file: plan.loader.absolute(plan.fileName) });
}
