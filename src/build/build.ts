import type { Warning } from '../errors.js';
import { defaultFileSystem } from '../fs/default-fs.js';
import type { FileSystem } from '../fs/filesystem.js';
import { RecordingFileSystem } from '../fs/recording-fs.js';
import type { Resource } from '../model/resource.js';
import { resolveOptions, type ResolvedOptions } from '../options.js';
import type { PrintedBefore } from '../output/printed-before.js';
import { renderResources, type Rendered } from '../output/render.js';
import type { PluginRegistration } from '../plugins/plugin.js';
import type { BuildMemory } from '../pipeline/context.js';
import { runBuild } from '../pipeline/run.js';
import type { BuildCache, RememberedBuild } from './build-cache.js';

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
  /** deprecations and other warnings: their messages are what kustomize prints to stderr */
  warnings: Warning[];
}

/**
 * Builds the kustomization at `path`: what `kustomize build path` prints. Resolves relative
 * paths against `options.cwd` (default: the process's working directory on disk, `/` for a
 * custom file system). Each build has its own context: builds running at the same time in
 * one process share nothing but a `cache` the caller gives them.
 */
export async function build(path: string, options: BuildOptions = {}): Promise<BuildResult> {
  const { cache, plugins = [], ...rest } = options;
  const warnings: Warning[] = [];
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
    const { rendered } = await renderedBuild(path, resolved, fs, plugins);
    return { resources: rendered.resources, yaml: rendered.yaml, warnings };
  }
  const key = cache.keyOf(path, resolved, options.fs);
  const recalled = cache.recall(key, fs);
  if (recalled.answer) {
    for (const m of recalled.answer.warnings) options.warn?.(m);
    return resultOf(recalled.answer);
  }
  const recording = new RecordingFileSystem(fs);
  const memory = cache.memory(recalled.bases, recording);
  const { rendered, filesDecide } = await renderedBuild(path, resolved, recording, plugins, memory, recalled.printedBefore);
  // its resources share parts with the cache (frozen): the caller gets copies, as of a remembered build
  if (!filesDecide) return resultOf({ ...rendered, warnings });
  const kept: RememberedBuild = { ...rendered, inputs: recording.record(), warnings: [...warnings] };
  cache.remember(key, kept);
  return resultOf(kept);
}

/** A build's output kept by a cache, for the caller to keep: its resources are copied when first asked for (most callers want only the YAML). */
function resultOf(kept: Readonly<Rendered> & { warnings: readonly Warning[] }): BuildResult {
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

/** The build, printed; `filesDecide` says whether its output depends on nothing but its files and options. */
async function renderedBuild(
  path: string,
  resolved: ResolvedOptions,
  fs: FileSystem,
  plugins: readonly PluginRegistration[],
  memory?: BuildMemory,
  printedBefore?: PrintedBefore,
): Promise<{ rendered: Rendered; filesDecide: boolean }> {
  const run = await runBuild(path, resolved, fs, plugins, memory);
  const rendered = renderResources(
    run.resources,
    { originAnnotations: run.originAnnotations, transformerAnnotations: run.transformerAnnotations },
    printedBefore && ((r) => printedBefore.textOf(r)),
  );
  return { rendered, filesDecide: run.filesDecide };
}
