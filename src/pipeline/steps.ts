import { KustomizeError, messageOf, type ErrorCode } from '../errors.js';
import { originFromConfig, type Origin } from '../model/origin.js';
import { resourcesFromValues } from '../model/resource-factory.js';
import type { ResourceMap } from '../model/resource-map.js';
import { Resource } from '../model/resource.js';
import { configurationError } from '../plugins/builtin-config.js';
import { StarlarkFunction } from '../plugins/starlark-function.js';
import { BUILTINS } from '../builtins/table.js';
import type { PluginResolution, PluginRole } from '../plugins/configure.js';
import { isRelativePath } from '../fs/path.js';
import { joinsWith, type Generator, type Plugin, type PluginContext, type Transformer } from '../plugins/plugin.js';
import { cloneValue, isMap, valuesEqual, type YMap } from '../yaml/value.js';
import type { BuildContext } from './context.js';
import type { StepConfig } from '../plan/plan.js';
import type { LocatedStep } from './config-positions.js';
import type { CrdsFile } from './custom-resource-types.js';
import { FunctionConfigError } from '../catalog/config-error.js';

/** Where a step was configured, as its errors and notices say. */
export interface StepPlace extends LocatedStep {
  /** the config's apiVersion/kind/name and the file it came from, for messages and annotations */
  origin: Origin;
}

/** A step ready to run: its plugin, the context it runs in, and where it was configured. */
export interface ConfiguredStep<P extends Generator | Transformer = Generator | Transformer> extends StepPlace {
  plugin: P;
  context: PluginContext;
}

/**
 * The one way a step is configured: a step made from a kustomization's fields is its builtin
 * (configured from the fields, with kustomize's error for them); any other config goes to the
 * plugin resolvers.
 */
export async function configureStep(step: StepConfig, role: 'generator', ctx: BuildContext, resolution: PluginResolution): Promise<ConfiguredStep<Generator>>;
export async function configureStep(
  step: StepConfig,
  role: 'transformer' | 'validator',
  ctx: BuildContext,
  resolution: PluginResolution,
  crds?: () => readonly CrdsFile[],
): Promise<ConfiguredStep<Transformer>>;
/** `crds` are the `crds:` files of the accumulation the step runs on (see `CustomResourceTypes`). */
export async function configureStep(step: StepConfig, role: PluginRole, ctx: BuildContext, resolution: PluginResolution, crds?: () => readonly CrdsFile[]): Promise<ConfiguredStep> {
  if (!decidedByFiles(step.config)) ctx.filesDecide = false;
  const place = placeOf(step);
  const context = ctx.pluginContext(step.loader, place, crds);
  let plugin: Plugin;
  try {
    plugin = step.shownConfig ? configureFromFields(step, step.shownConfig, context, ctx) : await resolution.configure(step.config, step.configuredIn, role, context);
  } catch (e) {
    // a config its catalog function's schema refuses: each problem where the config writes it
    if (e instanceof FunctionConfigError) {
      const text = ctx.configText(place);
      throw text ? e.placed(text) : placed(e, place);
    }
    throw e instanceof KustomizeError ? placed(e, place) : e;
  }
  if (!readsThroughBuild(step.config, plugin)) ctx.inputsComplete = false;
  return { plugin: plugin as Generator & Transformer, context, ...place };
}

/** Whether a plugin reads files only through the build's loader (see `BuildContext.inputsComplete`). */
function readsThroughBuild(config: Resource, plugin: Plugin): boolean {
  return config.apiVersion === 'builtin' || plugin instanceof StarlarkFunction;
}

/** Where a step config was configured. */
export function placeOf(step: StepConfig): StepPlace {
  return {
    origin: stepOrigin(step),
    loader: step.loader,
    config: step.config,
    ...(step.field && { field: step.field }),
    ...(step.entry && { entry: step.entry }),
    ...(step.file && { file: step.file }),
  };
}

/** Builtins make what their config and the files say, but helm runs a program. */
function decidedByFiles(config: Resource): boolean {
  return config.apiVersion === 'builtin' && config.kind !== 'HelmChartInflationGenerator';
}

function configureFromFields(step: StepConfig, shown: YMap, context: PluginContext, ctx: BuildContext): Plugin {
  const { apiVersion: _apiVersion, kind, ...fields } = step.config.view;
  const builtin = BUILTINS.get(String(kind));
  if (!builtin) throw new KustomizeError('PLUGIN_NOT_FOUND', `unable to load builtin ${String(kind)}`);
  try {
    return builtin.configure(fields, context, ctx.builtins);
  } catch (e) {
    throw configurationError(builtin.kind, shown, e);
  }
}

function stepOrigin(step: StepConfig): Origin {
  if (!step.shownConfig) return originFromConfig(step.configuredIn, step.config.view);
  return { configuredIn: step.configuredIn, configuredBy: { apiVersion: 'builtin', kind: step.config.kind } };
}

/** Runs a generator: what it made, as resources (in-process plugins may return plain objects), with its origin when the build tracks origins. */
export async function runGenerator(step: ConfiguredStep<Generator>, ctx: BuildContext): Promise<Resource[]> {
  const made = await inStage('GENERATOR_FAILED', step, () => step.plugin.generate(step.context));
  const generated = made.flatMap((g) => (g instanceof Resource ? [g] : resourcesFromValues([g], step.origin.configuredIn ?? '', ctx.profile.listWithoutItems)));
  if (ctx.trackOrigins) for (const r of generated) r.origin ??= step.origin;
  return generated;
}

/** Runs transformers in order, adjacent steps that join ({@link JoiningTransformer}) as one. */
export async function runTransformers(steps: readonly ConfiguredStep<Transformer>[], resources: ResourceMap, ctx: BuildContext): Promise<void> {
  for (let i = 0; i < steps.length; i++) {
    const first = steps[i]!;
    let plugin = first.plugin;
    const origins = [first.origin];
    for (let joined; i + 1 < steps.length && (joined = joinsWith(plugin, steps[i + 1]!.plugin)); i++) {
      plugin = joined;
      origins.push(steps[i + 1]!.origin);
    }
    await runTransformer({ ...first, plugin }, resources, ctx, origins);
  }
}

/**
 * Runs a transformer on the resources, then brings the map up to date with what it did (an
 * emptied object is dropped, as in kustomize). A step joined from several records each one's
 * origin.
 */
async function runTransformer(step: ConfiguredStep<Transformer>, resources: ResourceMap, ctx: BuildContext, origins = [step.origin]): Promise<void> {
  await inStage('TRANSFORMER_FAILED', step, () => step.plugin.transform(resources, step.context));
  resources.settle();
  if (ctx.trackOrigins) for (const origin of origins) recordTransformation(resources, origin);
}

/** Runs a validator: it may change nothing but the `validated-by` label. */
export async function runValidator(step: ConfiguredStep<Transformer>, resources: ResourceMap): Promise<void> {
  const before = resources.resources().map((r) => cloneValue(r.view));
  await inStage('VALIDATION_FAILED', step, () => step.plugin.transform(resources, step.context));
  resources.settle();
  const after = resources.resources();
  if (after.length !== before.length || after.some((r, i) => !valuesEqual(withoutValidatedBy(r.view), before[i]))) {
    throw new KustomizeError('VALIDATION_FAILED', `validator shouldn't modify the resource map (${describeOrigin(step.origin)})`);
  }
}

/**
 * Runs a step; what it throws that is not a KustomizeError (a plugin's own error) becomes one
 * whose code names the stage. An error that does not say where it comes from is given the file
 * that configured the step (and, for a kustomization field, the field).
 */
export async function inStage<T>(code: ErrorCode, step: StepPlace, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof KustomizeError)) throw new KustomizeError(code, `${describeOrigin(step.origin)}: ${messageOf(e)}`, { cause: e, ...(step.file && { file: step.file }) });
    throw placed(e, step);
  }
}

/**
 * An error of a step, its file absolute: a file it names relative to the step's directory is
 * resolved there; an error that names none is given the file that configured the step (and the
 * field), its message unchanged.
 */
function placed(e: KustomizeError, step: StepPlace): KustomizeError {
  if (e.file) return isRelativePath(e.file) ? e.placedIn({ file: step.loader.absolute(e.file) }) : e;
  if (!step.file) return e;
  const field = e.field ?? step.field;
  return new KustomizeError(e.code, e.message, { ...e.context, cause: e, file: step.file, ...(field && { field }) });
}

/** A resource after a validator, without the `validated-by` label it may add (a copy only when there is one). */
function withoutValidatedBy(obj: YMap): YMap {
  const meta = obj['metadata'];
  const labels = isMap(meta) ? meta['labels'] : undefined;
  if (!isMap(labels) || !('validated-by' in labels)) return obj;
  const copy = cloneValue(obj);
  const copiedMeta = copy['metadata'] as YMap;
  const copiedLabels = copiedMeta['labels'] as YMap;
  delete copiedLabels['validated-by'];
  if (Object.keys(copiedLabels).length === 0) delete copiedMeta['labels'];
  return copy;
}

function describeOrigin(o: Origin): string {
  const by = o.configuredBy;
  return `${by?.kind ?? ''} ${by?.name ?? ''} configured in ${o.configuredIn ?? ''}`.trim();
}

/**
 * kustomize's transformer annotations: a resource without an origin is taken to be made by
 * the transformer; one with an origin records the transformer among its transformations.
 */
export function recordTransformation(resources: ResourceMap, origin: Origin): void {
  for (const r of resources) {
    if (!r.origin) r.origin = origin;
    else (r.transformations ??= []).push(origin);
  }
}
