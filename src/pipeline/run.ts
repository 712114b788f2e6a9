import type { Notice } from '../errors.js';
import { nameReferenceConfig } from '../fieldspec/transformer-config.js';
import type { CrdsFile } from './custom-resource-types.js';
import type { FileSystem } from '../fs/filesystem.js';
import type { Plan } from '../plan/plan.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import { VERSION, type ResolvedOptions } from '../options.js';
import { BUILTINS, builtinConfig } from '../builtins/table.js';
import type { PluginContext, PluginRegistration, Transformer } from '../plugins/plugin.js';
import type { YMap } from '../yaml/value.js';
import { resolve } from '../fs/path.js';
import { openBuildRoot } from '../load/entry.js';
import type { RemoteInput } from '../load/remote/remote-source.js';
import { BuildContext, type BuildMemory } from './context.js';
import type { ProvenanceLocators } from './provenance-locators.js';
import type { Locate, ProvenanceRecorder } from './provenance.js';
import { runPlan } from './run-plan.js';
import { loadPlan } from './targets.js';

/** What a build made, ready to print. */
interface BuildRun {
  /** in output order */
  resources: Resource[];
  /** the directory built (symlinks resolved): what the files it names are relative to */
  buildDir: string;
  /** the remote references it read, with what each resolved to, in the order first read */
  remote: RemoteInput[];
  /** the records `buildMetadata` asks to print on each resource */
  originAnnotations: boolean;
  transformerAnnotations: boolean;
  /** whether what it made depends on nothing but its files and options (a cache may remember it) */
  filesDecide: boolean;
  /** whether the files it read are all it depends on besides its options and remote references */
  inputsComplete: boolean;
  /** the `crds:` files it read */
  crds: readonly CrdsFile[];
  /** who wrote each value, when the build was asked to record it, and who writes what printing the output adds */
  provenance?: { recorder: ProvenanceRecorder; printing: Locate };
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
  provenance = false,
  notice?: (notice: Notice) => void,
): Promise<BuildRun> {
  const ctx = new BuildContext(options, fs, plugins, signal, memory, provenance, notice);
  const cwd = options.cwd ?? '/';
  ctx.buildDir = resolve(cwd, path);
  try {
    const root = ctx.opened(await openBuildRoot(path, fs, options.loadRestrictor, cwd, () => ctx.remote()));
    ctx.buildDir = root.root;
    if (!root.remote) ctx.lockDir = root.root;
    const plan = loadPlan(root, ctx, true);
    ctx.topFile = plan.fileName;
    const acc = await runPlan(plan, ctx);
    const resources = acc.resources;
    const finish = ctx.pluginContext(root);

    await finishing('HashTransformer', {}, resources, ctx, finish);
    await finishing('NameReferenceTransformer', { nameReference: nameReferenceConfig(acc.config.nameReference) }, resources, ctx, finish);
    const unused = await recordedFinish(ctx, resources, (l) => l.forVars(acc.vars, resources, ctx.topFile, finish.loader), () => acc.vars.resolve(resources, acc.config.varReference));
    if (unused.length > 0) ctx.warn({ code: 'VARS_UNUSED', message: `well-defined vars that were never replaced: ${unused.join(',')}` });
    resources.removeAll(resources.resources().filter((r) => r.isLocalConfig));

    await sortResources(resources, plan, options.reorder, ctx, finish);
    if (options.addManagedByLabel || ctx.buildMetadata.includes('managedByLabel')) {
      const labels = { 'app.kubernetes.io/managed-by': `kustomize-ts-v${VERSION}` };
      await finishing('LabelTransformer', { labels, fieldSpecs: [{ path: 'metadata/labels', create: true }] }, resources, ctx, finish);
    }
    return {
      resources: [...resources.resources()],
      buildDir: ctx.buildDir,
      remote: [...ctx.remoteInputs.values()],
      originAnnotations: ctx.buildMetadata.includes('originAnnotations'),
      transformerAnnotations: ctx.buildMetadata.includes('transformerAnnotations'),
      filesDecide: ctx.filesDecide,
      inputsComplete: ctx.inputsComplete,
      crds: acc.crds,
      ...(ctx.provenance && { provenance: { recorder: ctx.provenance.recorder, printing: ctx.provenance.locators.forPrinting(ctx.topFile, finish.loader) } }),
    };
  } catch (e) {
    throw ctx.placed(e);
  } finally {
    ctx.cleanup();
  }
}

/** Runs a builtin the top of the build runs once, after everything else (configured from its config, as any builtin). */
async function finishing(kind: string, fields: YMap, resources: ResourceMap, build: BuildContext, ctx: PluginContext): Promise<void> {
  await recordedFinish(build, resources, (l) => l.forFinishing(kind, resources, build.topFile, ctx.loader), async () => {
    await (BUILTINS.get(kind)!.configure(builtinConfig(kind, fields), ctx, build.builtins) as Transformer).transform(resources, ctx);
    resources.settle();
  });
}

/**
 * Runs one of the build's last steps; when the build records provenance (`explain`), what it
 * changed is noted as its writing, located by what `locator` picks of the locators.
 */
async function recordedFinish<T>(build: BuildContext, resources: ResourceMap, locator: (locators: ProvenanceLocators) => Locate, run: () => T | Promise<T>): Promise<T> {
  const provenance = build.provenance;
  if (!provenance) return run();
  provenance.recorder.beforeStep(resources);
  const out = await run();
  provenance.recorder.afterStep(resources, () => locator(provenance.locators));
  return out;
}

/** The kustomization's `sortOptions` win over `--reorder`; without either the CLI sorts legacy, the library keeps input order. */
async function sortResources(resources: ResourceMap, plan: Plan, reorder: ResolvedOptions['reorder'], ctx: BuildContext, finish: PluginContext): Promise<void> {
  const sortOptions = plan.sortOptions;
  if (sortOptions) {
    if (reorder !== 'unspecified') {
      ctx.warn({
        code: 'SORT_OPTIONS_OVERRIDE',
        message: "Warning: Sorting order is set both in 'kustomization.yaml' ('sortOptions') and in a CLI flag ('--reorder'). Using the kustomization file over the CLI flag.",
        file: plan.loader.absolute(plan.fileName),
      });
    }
    await finishing('SortOrderTransformer', { sortOptions: sortOptions as YMap }, resources, ctx, finish);
  } else if (reorder === 'legacy' || reorder === 'unspecified') {
    await finishing('SortOrderTransformer', {}, resources, ctx, finish);
  }
}
