import { nameReferenceConfig } from '../fieldspec/transformer-config.js';
import type { FileSystem } from '../fs/filesystem.js';
import type { SortOptions } from '../kinds/kustomization.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import { VERSION, type ResolvedOptions } from '../options.js';
import { BUILTINS, builtinConfig, builtinResolver } from '../builtins/table.js';
import { PluginResolution } from '../plugins/configure.js';
import type { PluginContext, PluginRegistration, Transformer } from '../plugins/plugin.js';
import { functionSpecResolver, pluginHomeResolver, registeredResolver } from '../plugins/resolvers.js';
import type { YMap } from '../yaml/value.js';
import { compositionResolver } from '../composition/composition-resolver.js';
import { BuildContext, type BuildMemory } from './context.js';
import { loadCompositionTarget, loadRootTarget } from './target-loader.js';

/** What a build made, ready to print. */
export interface BuildRun {
  /** in output order */
  resources: Resource[];
  /** the records `buildMetadata` asks to print on each resource */
  originAnnotations: boolean;
  transformerAnnotations: boolean;
  /** whether what it made depends on nothing but its files and options (a cache may remember it) */
  filesDecide: boolean;
}

/**
 * Runs the build of the kustomization at `path`: accumulates it, then finishes as kustomize's
 * top level does (hash suffixes, name references, vars, local configs dropped, order, the
 * managed-by label).
 */
export async function runBuild(
  path: string,
  options: ResolvedOptions,
  fs: FileSystem,
  plugins: readonly PluginRegistration[],
  signal: AbortSignal | undefined,
  memory?: BuildMemory,
): Promise<BuildRun> {
  // a Composition step runs a Composition directory in this build (its context is made just below)
  const compositions = compositionResolver((loader) => loadCompositionTarget(loader, ctx));
  const resolution = new PluginResolution([builtinResolver, compositions, registeredResolver(plugins), functionSpecResolver], pluginHomeResolver());
  const ctx: BuildContext = new BuildContext(options, fs, resolution, signal, memory);
  try {
    const target = await loadRootTarget(path, ctx);
    const acc = await target.accumulate();
    const resources = acc.resources;
    const finish = ctx.pluginContext(target.loader);

    await finishing('HashTransformer', {}, finish).transform(resources, finish);
    await finishing('NameReferenceTransformer', { nameReference: nameReferenceConfig(acc.config.nameReference) }, finish).transform(resources, finish);
    const unused = acc.vars.resolve(resources, acc.config.varReference);
    if (unused.length > 0) ctx.warn(`well-defined vars that were never replaced: ${unused.join(',')}`);
    resources.removeAll(resources.resources().filter((r) => r.isLocalConfig));

    await sortResources(resources, target.sortOptions, options.reorder, ctx, finish);
    if (options.addManagedByLabel || ctx.buildMetadata.includes('managedByLabel')) {
      const labels = { 'app.kubernetes.io/managed-by': `kustomize-ts-v${VERSION}` };
      await finishing('LabelTransformer', { labels, fieldSpecs: [{ path: 'metadata/labels', create: true }] }, finish).transform(resources, finish);
    }
    return {
      resources: [...resources.resources()],
      originAnnotations: ctx.buildMetadata.includes('originAnnotations'),
      transformerAnnotations: ctx.buildMetadata.includes('transformerAnnotations'),
      filesDecide: ctx.filesDecide,
    };
  } finally {
    ctx.cleanup();
  }
}

/** A builtin the top of the build runs once, after everything else (configured from its config, as any builtin). */
function finishing(kind: string, fields: YMap, ctx: PluginContext): Transformer {
  return BUILTINS.get(kind)!.configure(builtinConfig(kind, fields), ctx) as Transformer;
}

/** The kustomization's `sortOptions` win over `--reorder`; without either the CLI sorts legacy, the library keeps input order. */
async function sortResources(resources: ResourceMap, sortOptions: SortOptions | undefined, reorder: ResolvedOptions['reorder'], ctx: BuildContext, finish: PluginContext): Promise<void> {
  if (sortOptions) {
    if (reorder !== 'unspecified') {
      ctx.warn(
        "Warning: Sorting order is set both in 'kustomization.yaml' ('sortOptions') and in a CLI flag ('--reorder'). Using the kustomization file over the CLI flag.",
      );
    }
    await finishing('SortOrderTransformer', { sortOptions: sortOptions as YMap }, finish).transform(resources, finish);
  } else if (reorder === 'legacy' || reorder === 'unspecified') {
    await finishing('SortOrderTransformer', {}, finish).transform(resources, finish);
  }
}
