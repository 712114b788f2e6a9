import type { KustomizeProfile } from '../versions/profiles.js';
import { KustomizeError } from '../errors.js';
import type { TransformerConfig } from '../fieldspec/transformer-config.js';
import { relative } from '../fs/path.js';
import { KUSTOMIZATION_API_VERSION, readKustomization, type DeprecationWarnings } from '../kinds/kustomization.js';
import type { Loader } from '../load/loader.js';
import { Resource } from '../model/resource.js';
import { BUILTINS } from '../builtins/table.js';
import { compileKustomization } from '../plan/kustomization.js';
import type { Plan, PlanStep, StepConfig } from '../plan/plan.js';
import { decode, DecodeError, type StructShape } from '../yaml/decode.js';
import { emitYaml } from '../yaml/emit.js';
import type { Value } from '../yaml/value.js';
import { consolidateWithCatalogs } from './consolidate.js';
import type { ConsolidatedTransformer } from './consolidated-transformer.js';
import { stepConfig } from './step-configs.js';

/** The kinds of the builtin that accumulates `paths:` as a Kustomization's `resources:` (the KEP's two names). */
const RESOURCE_ACCUMULATOR_KINDS: readonly string[] = ['ResourceAccumulator', 'ResourceGenerator'];

/**
 * The plan of the Composition in `fileName` of the loader's directory: its consolidated list of
 * transformers, one phase of steps run in sequence on the resources so far (none for a build,
 * a base or a generator; the current ones as a transformer). Generators append (with their
 * behavior), transformers edit, as the steps of a Kustomization do. A builtin that takes field
 * specs gets the build's when its config has none; a `ResourceAccumulator` accumulates its
 * `paths` as a Kustomization's `resources:`, and an inline Kustomization runs on the resources
 * so far, both in the step's directory. `deprecations` hears the inline Kustomizations' deprecations.
 */
export function compileComposition(loader: Loader, fileName: string, deprecations: DeprecationWarnings, profile: KustomizeProfile): Plan {
  const { transformers, catalogs } = consolidateWithCatalogs(loader, fileName);
  const steps = transformers.map((t) => compileStep(t, deprecations, profile));
  return {
    kind: 'Composition',
    loader,
    fileName,
    configuredIn: loader.originPath(fileName),
    // a Composition has no sortOptions: the build's `--reorder` decides
    sortOptions: undefined,
    openapi: undefined,
    catalogs,
    patches: [],
    phases: [
      { phase: 'fieldSpecs', configurations: [], crds: [] },
      { phase: 'steps', steps: (fieldSpecs) => steps.map((step) => step(fieldSpecs)) },
    ],
    namespaceBelow: undefined,
  };
}

function compileStep(t: ConsolidatedTransformer, deprecations: DeprecationWarnings, profile: KustomizeProfile): (fieldSpecs: TransformerConfig) => PlanStep {
  const step = stepConfig(t);
  const config = step.config;
  const fileName = relative(t.loader.root, t.file);
  if (config.apiVersion === 'builtin' && RESOURCE_ACCUMULATOR_KINDS.includes(config.kind)) {
    const k = { apiVersion: KUSTOMIZATION_API_VERSION, kind: 'Kustomization' as const, resources: accumulatedPaths(step) };
    const nested: PlanStep = { run: 'nested', join: 'base', step, plan: compileKustomization(k, step.loader, fileName, undefined) };
    return () => nested;
  }
  if (config.kind === 'Kustomization' && config.apiVersion.startsWith('kustomize.config.k8s.io/')) {
    // read as a kustomization file is: the same checks, fix-ups and deprecation warnings
    const k = readKustomization(emitYaml(config.view), step.loader.absolute(fileName), step.loader.root, deprecations, profile);
    const nested: PlanStep = { run: 'nested', join: 'onto', step, plan: compileKustomization(k, step.loader, fileName, undefined) };
    return () => nested;
  }
  const builtin = config.apiVersion === 'builtin' ? BUILTINS.get(config.kind) : undefined;
  const role = builtin?.role === 'generator' ? 'generator' : 'transformer';
  const specs = builtin?.fieldSpecs;
  if (specs === undefined || config.view['fieldSpecs'] !== undefined) return () => ({ run: 'plugin', role, step });
  return (fieldSpecs) => ({ run: 'plugin', role, step: { ...step, config: new Resource({ ...config.view, fieldSpecs: fieldSpecs[specs] as unknown as Value }) } });
}

/** A `ResourceAccumulator`'s `paths`. */
function accumulatedPaths(step: StepConfig): string[] {
  try {
    return decode<{ paths?: string[] }>(step.config.view, ResourceAccumulatorShape).paths ?? [];
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    throw new KustomizeError('PLUGIN_FAILED', `${step.config.kind} ${step.config.name} (configured in ${step.configuredIn}): ${e.message}`, { file: step.configuredIn, cause: e });
  }
}

const ResourceAccumulatorShape: StructShape = {
  struct: 'ResourceAccumulator',
  fields: { apiVersion: 'string', kind: 'string', metadata: 'any', paths: { list: 'string' } },
};
