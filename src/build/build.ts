import { HashTransformer } from '../builtins/HashTransformer.js';
import { LabelTransformer } from '../builtins/LabelTransformer.js';
import { NameReferenceTransformer } from '../builtins/NameReferenceTransformer.js';
import { SortOrderTransformer } from '../builtins/SortOrderTransformer.js';
import { Loader } from '../load/loader.js';
import { cloneUrl, parseRepoSpec } from '../load/remote/repo-spec.js';
import { join } from '../fs/path.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import { VERSION, type BuildOptions, type ReorderOption } from '../options.js';
import type { SortOptions } from '../kinds/kustomization.js';
import { BuildContext } from './context.js';
import { defaultFileSystem } from '../fs/default-fs.js';
import { KustTarget } from './kust-target.js';
import { renderResources } from '../output/render.js';

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
 * custom file system).
 */
export async function build(path: string, options: BuildOptions = {}): Promise<BuildResult> {
  const warnings: string[] = [];
  const userWarn = options.warn;
  const fs = options.fs ?? (await defaultFileSystem());
  const ctx = new BuildContext(
    {
      ...options,
      warn: (m) => {
        warnings.push(m);
        userWarn?.(m);
      },
    },
    fs,
  );
  try {
    const cwd = options.cwd ?? (options.fs ? '/' : process.cwd());
    const loader = await rootLoader(path, cwd, ctx);
    const target = KustTarget.load(loader, ctx);
    const k = target.kustomization;
    ctx.buildMetadata = k.buildMetadata ?? [];
    target.applyOpenApiField(true);
    const acc = await target.accumulate();
    const resources = acc.resources;

    await new HashTransformer().transform(resources);
    await new NameReferenceTransformer(acc.config.nameReference).transform(resources);
    const unused = acc.vars.resolve(resources, acc.config.varReference);
    if (unused.length > 0) ctx.warn(`well-defined vars that were never replaced: ${unused.join(',')}`);
    resources.removeAll(resources.resources().filter((r) => r.isLocalConfig));

    sortResources(resources, k.sortOptions, options.reorder ?? 'none', ctx);
    if (options.addManagedByLabel || ctx.buildMetadata.includes('managedByLabel')) {
      new LabelTransformer({
        labels: { 'app.kubernetes.io/managed-by': `kustomize-ts-v${VERSION}` },
        fieldSpecs: [{ path: 'metadata/labels', create: true }],
      }).transform(resources);
    }
    const rendered = renderResources(resources.resources(), {
      originAnnotations: ctx.buildMetadata.includes('originAnnotations'),
      transformerAnnotations: ctx.buildMetadata.includes('transformerAnnotations'),
    });
    return { resources: rendered.resources, yaml: rendered.yaml, warnings };
  } finally {
    ctx.cleanup();
  }
}

/** The loader of the directory to build: a local one, or a checkout when `path` is a git URL (as kustomize allows). */
async function rootLoader(path: string, cwd: string, ctx: BuildContext): Promise<Loader> {
  const spec = parseRepoSpec(path);
  if (!spec) return Loader.atRoot(ctx.fs, path, ctx.options.loadRestrictor ?? 'rootOnly', cwd);
  const clone = await (await ctx.remote()).clone(spec);
  return Loader.atRemote(clone.fs, join(clone.dir, spec.path), { url: path, dir: clone.dir, repo: cloneUrl(spec), ref: spec.ref }, undefined);
}

/** The kustomization's `sortOptions` win over `--reorder`; without either the CLI sorts legacy, the library keeps input order. */
function sortResources(resources: ResourceMap, sortOptions: SortOptions | undefined, reorder: ReorderOption, ctx: BuildContext): void {
  if (sortOptions) {
    if (reorder !== 'unspecified') {
      ctx.warn(
        "Warning: Sorting order is set both in 'kustomization.yaml' ('sortOptions') and in a CLI flag ('--reorder'). Using the kustomization file over the CLI flag.",
      );
    }
    new SortOrderTransformer(sortOptions).transform(resources);
  } else if (reorder === 'legacy' || reorder === 'unspecified') {
    new SortOrderTransformer({ order: 'legacy' }).transform(resources);
  }
}
