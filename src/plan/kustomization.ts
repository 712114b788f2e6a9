import { join } from '../fs/path.js';
import type { Kustomization } from '../kinds/kustomization.js';
import type { Loader } from '../load/loader.js';
import type { PluginRole } from '../plugins/configure.js';
import { FieldSteps } from './field-steps.js';
import type { Plan, PlanStep, StepConfig } from './plan.js';

/**
 * A Kustomization's (or Component's) plan, in kustomize's order: accumulate `resources:`, add
 * the field specs of `configurations:` and `crds:`, generate (its generator fields, then
 * `generators:`), run `components:`, transform (its transformer fields, then
 * `transformers:`), validate, declare `vars:`. `fileName` is the kustomization file's name in
 * the loader's directory; `namespaceBelow` what the kustomizations below it inherit (see {@link Plan.namespaceBelow}).
 */
export function compileKustomization(k: Kustomization, loader: Loader, fileName: string, namespaceBelow: string | undefined): Plan {
  const configuredIn = join(loader.origin.dir, fileName);
  const fields = new FieldSteps(k, loader, configuredIn, loader.absolute(fileName));
  return {
    kind: k.kind,
    loader,
    fileName,
    configuredIn,
    sortOptions: k.sortOptions,
    openapi: k.openapi,
    catalogs: (k.catalogs ?? []).map((reference) => ({ reference, loader })),
    patches: fields.patches(),
    namespaceBelow,
    phases: [
      { phase: 'resources', entries: k.resources ?? [] },
      { phase: 'fieldSpecs', configurations: k.configurations ?? [], crds: k.crds ?? [] },
      { phase: 'steps', steps: () => fields.generators().map(plugin('generator')), configs: { role: 'generator', entries: k.generators ?? [] } },
      { phase: 'components', entries: k.components ?? [] },
      { phase: 'steps', steps: (specs) => fields.transformers(specs).map(plugin('transformer')), configs: { role: 'transformer', entries: k.transformers ?? [] } },
      { phase: 'steps', steps: () => [], configs: { role: 'validator', entries: k.validators ?? [] } },
      { phase: 'vars', vars: k.vars ?? [] },
    ],
  };
}

function plugin(role: PluginRole): (step: StepConfig) => PlanStep {
  return (step) => ({ run: 'plugin', role, step });
}
