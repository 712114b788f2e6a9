import { nameReferenceConfig } from '../fieldspec/transformer-config.js';
import { defaultFileSystem } from '../fs/default-fs.js';
import type { FileSystem } from '../fs/filesystem.js';
import { RecordingFileSystem } from '../fs/recording-fs.js';
import type { SortOptions } from '../kinds/kustomization.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import { resolveOptions, VERSION, type ResolvedOptions } from '../options.js';
import type { PrintedBefore } from '../output/printed-before.js';
import { renderResources, type Rendered } from '../output/render.js';
import { compositionResolver } from '../composition/composition-resolver.js';
import { BUILTINS, builtinConfig, builtinResolver } from '../builtins/table.js';
import { PluginResolution } from '../plugins/configure.js';
import type { PluginContext, PluginRegistration, Transformer } from '../plugins/plugin.js';
import { functionSpecResolver, pluginHomeResolver, registeredResolver } from '../plugins/resolvers.js';
import type { YMap } from '../yaml/value.js';
import type { BuildCache, RememberedBuild } from './build-cache.js';
import { BuildContext, type CachedBuild } from './context.js';
import { loadCompositionTarget, loadRootTarget } from './target-loader.js';

/** Options of a build: any of the {@link ResolvedOptions} (the rest take their defaults), and in-process plugins. */
export type BuildOptions = Partial<ResolvedOptions> & {
  /** in-process plugins, found by apiVersion and kind after the builtins and before the plugin home */
  plugins?: readonly PluginRegistration[];
  /** what the caller keeps between builds: an unchanged build is answered from it, parsed files are reused */
  cache?: BuildCache;
};

export interface BuildResult {
  /** the resources in output order, with the annotations `buildMetadata` asked for */
  resources: Resource[];
  /** the YAML `kustomize build` prints */
  yaml: string;
  /** deprecation and other warnings, as kustomize prints them to stderr */
  warnings: string[];
}

/**
 * Builds the kustomization at `path`: what `kustomize build path` prints. Resolves relative
 * paths against `options.cwd` (default: the process's working directory on disk, `/` for a
 * custom file system). Each build has its own context: builds running at the same time in
 * one process share nothing but a `cache` the caller gives them.
 */
export async function build(path: string, options: BuildOptions = {}): Promise<BuildResult> {
  const { cache, plugins, ...rest } = options;
  const warnings: string[] = [];
  const fs = options.fs ?? (await defaultFileSystem());
  const resolved = resolveOptions({
    ...rest,
    cwd: options.cwd ?? (options.fs ? '/' : process.cwd()),
    warn: (m) => {
      warnings.push(m);
      options.warn?.(m);
    },
  });
  if (!cache) {
    const { rendered } = await buildWith(path, resolved, fs, plugins);
    return { resources: rendered.resources, yaml: rendered.yaml, warnings };
  }
  const key = cache.keyOf(path, resolved, options.fs);
  const recalled = cache.recall(key, fs);
  if (recalled.answer) {
    for (const m of recalled.answer.warnings) options.warn?.(m);
    return resultOf(recalled.answer);
  }
  const recording = new RecordingFileSystem(fs);
  const { rendered, filesDecide } = await buildWith(path, resolved, recording, plugins, { cache, bases: recalled.bases, recording }, recalled.printedBefore);
  // its resources share parts with the cache (frozen): the caller gets copies, as of a remembered build
  if (!filesDecide) return resultOf({ ...rendered, warnings });
  const kept: RememberedBuild = { ...rendered, inputs: recording.record(), warnings: [...warnings] };
  cache.remember(key, kept);
  return resultOf(kept);
}

/** A build's output kept by a cache, for the caller to keep: its resources are copied when first asked for (most callers want only the YAML). */
function resultOf(kept: Readonly<Rendered> & { warnings: readonly string[] }): BuildResult {
  let copies: Resource[] | undefined;
  return {
    yaml: kept.yaml,
    warnings: [...kept.warnings],
    get resources() {
      return (copies ??= kept.resources.map((r) => r.clone()));
    },
    set resources(value) {
      copies = value;
    },
  };
}

/** The build itself; `filesDecide` says whether its output depends on nothing but its files and options. */
async function buildWith(
  path: string,
  resolved: ResolvedOptions,
  fs: FileSystem,
  plugins: readonly PluginRegistration[] | undefined,
  cached?: CachedBuild,
  printedBefore?: PrintedBefore,
): Promise<{ rendered: Rendered; filesDecide: boolean }> {
  // a Composition step runs a Composition directory in this build (its context is made just below)
  const compositions = compositionResolver((loader) => loadCompositionTarget(loader, ctx));
  const resolution = new PluginResolution([builtinResolver, compositions, registeredResolver(plugins ?? []), functionSpecResolver], pluginHomeResolver());
  const ctx: BuildContext = new BuildContext(resolved, fs, resolution, cached);
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

    await sortResources(resources, target.sortOptions, resolved.reorder, ctx, finish);
    if (resolved.addManagedByLabel || ctx.buildMetadata.includes('managedByLabel')) {
      const labels = { 'app.kubernetes.io/managed-by': `kustomize-ts-v${VERSION}` };
      await finishing('LabelTransformer', { labels, fieldSpecs: [{ path: 'metadata/labels', create: true }] }, finish).transform(resources, finish);
    }
    const rendered = renderResources(
      resources.resources(),
      { originAnnotations: ctx.buildMetadata.includes('originAnnotations'), transformerAnnotations: ctx.buildMetadata.includes('transformerAnnotations') },
      printedBefore && ((r) => printedBefore.textOf(r)),
    );
    return { rendered, filesDecide: ctx.filesDecide };
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
