import { CatalogResolver, inProcessStarlark } from '../catalog/resolver.js';
import { KustomizeError, withErrorPrefix } from '../errors.js';
import { DEFAULT_TRANSFORMER_CONFIG } from '../fieldspec/defaults.js';
import type { TransformerConfig as FieldSpecConfig } from '../fieldspec/transformer-config.js';
import { relative } from '../fs/path.js';
import { decode, DecodeError, type StructShape } from '../yaml/decode.js';
import { readKustomization, type Kustomization } from '../kinds/kustomization.js';
import type { Loader } from '../load/loader.js';
import { Accumulator } from '../pipeline/accumulator.js';
import type { BuildContext } from '../pipeline/context.js';
import type { StepConfig } from '../pipeline/step.js';
import { configureSteps, runGenerator, runTransformer } from '../pipeline/steps.js';
import type { BuildTarget } from '../pipeline/target.js';
import { BUILTINS } from '../builtins/table.js';
import type { PluginResolution } from '../plugins/configure.js';
import { emitYaml } from '../yaml/emit.js';
import type { Value } from '../yaml/value.js';
import { consolidateWithCatalogs } from './consolidate.js';
import type { ConsolidatedTransformer } from './consolidated-transformer.js';
import { stepConfig } from './step-configs.js';

/** The kinds of the builtin that accumulates `paths:` as a Kustomization's `resources:` (the KEP's two names). */
export const RESOURCE_ACCUMULATOR_KINDS: readonly string[] = ['ResourceAccumulator', 'ResourceGenerator'];

/**
 * How a Composition makes the Kustomizations it runs (a `ResourceAccumulator`'s `resources:`,
 * an inline `kind: Kustomization`): given by the target loader, which knows both kinds.
 */
export interface KustomizationRunner {
  /** Accumulates `k` as if it were the kustomization file `fileName` in the loader's directory, onto `acc`. */
  accumulate(loader: Loader, k: Kustomization, fileName: string, acc: Accumulator): Promise<Accumulator>;
}

/** One configured step of a Composition, ready to run on the resources so far. */
type Run = (acc: Accumulator) => Promise<void>;

/**
 * A directory holding a Composition: its consolidated list of steps, run in sequence on the
 * resources so far (none for a build, a base or a generator; the current ones as a
 * transformer). Generators append (with their behavior), transformers replace, as the steps of
 * a Kustomization do; the build finishes as a Kustomization's does.
 */
export class CompositionTarget implements BuildTarget {
  readonly kind = 'Composition';
  /** A Composition has no sortOptions: the build's `--reorder` decides. */
  readonly sortOptions = undefined;

  constructor(
    readonly loader: Loader,
    /** the Composition file's name in its directory */
    readonly fileName: string,
    private readonly ctx: BuildContext,
    private readonly kustomizations: KustomizationRunner,
  ) {}

  async accumulate(acc: Accumulator = new Accumulator()): Promise<Accumulator> {
    acc.mergeConfig(DEFAULT_TRANSFORMER_CONFIG);
    const { transformers, catalogs } = consolidateWithCatalogs(this.loader, this.fileName);
    const resolution = catalogs.length === 0 ? this.ctx.resolution : this.ctx.resolution.withLayer([new CatalogResolver(catalogs, this.ctx.catalogs, inProcessStarlark)]);
    // like kustomize's phases, every step is configured before any runs
    const runs: Run[] = [];
    for (const t of transformers) runs.push(await this.configure(t, acc.config, resolution));
    for (const run of runs) await run(acc);
    return acc;
  }

  private async configure(t: ConsolidatedTransformer, fieldSpecs: FieldSpecConfig, resolution: PluginResolution): Promise<Run> {
    const step = stepConfig(t);
    const config = step.config;
    const fileName = relative(t.loader.root, t.file);
    if (config.apiVersion === 'builtin' && RESOURCE_ACCUMULATOR_KINDS.includes(config.kind)) return this.resourceAccumulator(step, fileName);
    if (config.kind === 'Kustomization' && config.apiVersion.startsWith('kustomize.config.k8s.io/')) return this.inlineKustomization(step, fileName);
    const builtin = config.apiVersion === 'builtin' ? BUILTINS.get(config.kind) : undefined;
    if (builtin?.fieldSpecs && config.obj['fieldSpecs'] === undefined) config.obj['fieldSpecs'] = fieldSpecs[builtin.fieldSpecs] as unknown as Value;
    if (builtin?.role === 'generator') {
      const [generator] = await configureSteps([step], 'generator', this.ctx, resolution);
      return async (acc) => {
        const generated = await runGenerator(generator!, this.ctx);
        withErrorPrefix(`merging from generator ${config.kind}`, () => acc.absorbGenerated(generated));
      };
    }
    const [transformer] = await configureSteps([step], 'transformer', this.ctx, resolution);
    return (acc) => runTransformer(transformer!, acc.resources, this.ctx);
  }

  /** `ResourceAccumulator`: its `paths` accumulated as a Kustomization's `resources:` in the step's directory, appended. */
  private resourceAccumulator(step: StepConfig, fileName: string): Run {
    let paths: string[];
    try {
      paths = decode<{ paths?: string[] }>(step.config.obj, ResourceAccumulatorShape).paths ?? [];
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      throw new KustomizeError('PLUGIN_FAILED', `${step.config.kind} ${step.config.name} (configured in ${step.configuredIn}): ${e.message}`, { file: step.configuredIn, cause: e });
    }
    const k: Kustomization = { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: paths };
    return async (acc) => {
      const sub = await this.kustomizations.accumulate(step.loader, k, fileName, new Accumulator());
      withErrorPrefix(`merging resources of ${step.config.kind} ${step.config.name}`, () => acc.absorbBase(sub));
    };
  }

  /** An inline Kustomization: built in the step's directory, the resources so far ahead of its own. */
  private inlineKustomization(step: StepConfig, fileName: string): Run {
    const file = step.loader.absolute(fileName);
    // read as a kustomization file is: the same checks, fix-ups and deprecation warnings
    const k = readKustomization(emitYaml(step.config.obj), file, step.loader.root, (m) => this.ctx.warn(m));
    return async (acc) => {
      await this.kustomizations.accumulate(step.loader, k, fileName, acc);
    };
  }
}

const ResourceAccumulatorShape: StructShape = {
  struct: 'ResourceAccumulator',
  fields: { apiVersion: 'string', kind: 'string', metadata: 'any', paths: { list: 'string' } },
};
