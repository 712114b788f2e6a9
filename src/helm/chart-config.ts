import { KustomizeError } from '../errors.js';
import { join } from '../fs/path.js';
import type { HelmChart, HelmGlobals } from '../kinds/kustomization.js';
import { isHttpUrl } from '../load/remote/remote-source.js';
import type { PluginContext } from '../plugins/plugin.js';
import type { ApiVersionsFlag } from './api-versions.js';

/** What one HelmChartInflationGenerator is configured with: the kustomization's `helmGlobals` plus one `helmCharts` entry. */
export interface HelmChartConfig extends HelmGlobals, HelmChart {}

export type ValuesMerge = 'override' | 'merge' | 'replace';

/** A chart config after kustomize's defaults and checks (`HelmChartInflationGeneratorPlugin.Config`). */
export interface ResolvedHelmChart extends HelmChartConfig {
  name: string;
  chartHome: string;
  valuesFile: string;
  valuesMerge: ValuesMerge;
  /** absolute (the kustomization's directory joined with each entry, as kustomize does), or an http(s) URL as written */
  additionalValuesFiles: string[];
  /** the helm executable */
  command: string;
  /** the kustomization's directory */
  root: string;
  /** the API versions helm gets, read when the chart is rendered (see api-versions.ts) */
  renderApiVersions: () => string[];
}

/** kustomize's `types.HelmDefaultHome`. */
export const HELM_DEFAULT_HOME = 'charts';

const LEGAL_MERGE_OPTIONS: readonly ValuesMerge[] = ['merge', 'override', 'replace'];

/**
 * kustomize's configuration of the generator, in its order: `--enable-helm` and the helm
 * command are required; the CLI's `--helm-kube-version`, `--helm-api-versions` and
 * `--helm-debug` apply where the chart sets nothing (kustomize sets them first and then reads
 * the config over them; for the API versions with a quirk, see api-versions.ts); the chart
 * needs a name; `chartHome` defaults to `charts`,
 * `valuesFile` to the chart's own `values.yaml`; every additional values file must load under
 * the load restriction; `valuesMerge` defaults to `override`.
 * @throws KustomizeError with kustomize's message (the caller adds its context)
 */
export function resolveChartConfig(raw: HelmChartConfig, ctx: PluginContext, apiVersions: ApiVersionsFlag): ResolvedHelmChart {
  const { options, loader } = ctx;
  if (!options.enableHelm) throw new KustomizeError('PLUGIN_DISABLED', 'must specify --enable-helm');
  const command = options.helmCommand ?? 'helm';
  if (command === '') throw new KustomizeError('USAGE', 'must specify --helm-command');
  const c: HelmChartConfig = { ...raw };
  if (!c.kubeVersion && options.helmKubeVersion) c.kubeVersion = options.helmKubeVersion;
  const renderApiVersions = apiVersions.configure(c.apiVersions);
  if (options.helmDebug) c.debug = true;
  if (!c.name) throw new KustomizeError('KUSTOMIZATION_INVALID', 'chart name cannot be empty');
  const name = c.name;
  const chartHome = c.chartHome || HELM_DEFAULT_HOME;
  const root = loader.root;
  const valuesFile = c.valuesFile || join(absChartHome({ ...c, chartHome }, root), name, 'values.yaml');
  const additionalValuesFiles: string[] = [];
  for (const file of c.additionalValuesFiles ?? []) {
    // kustomize loads each one here only to enforce the load restriction
    if (!isHttpUrl(file)) {
      try {
        loader.load(file);
      } catch (e) {
        if (!(e instanceof KustomizeError)) throw e;
        throw new KustomizeError(e.code, `could not load additionalValuesFile: ${e.message}`, { cause: e, ...(e.file && { file: e.file }) });
      }
    }
    additionalValuesFiles.push(isHttpUrl(file) ? file : join(root, file));
  }
  const merge = c.valuesMerge || 'override';
  if (!(LEGAL_MERGE_OPTIONS as readonly string[]).includes(merge)) {
    throw new KustomizeError('KUSTOMIZATION_INVALID', `valuesMerge must be one of [${LEGAL_MERGE_OPTIONS.join(' ')}]`);
  }
  return { ...c, name, chartHome, valuesFile, valuesMerge: merge as ValuesMerge, additionalValuesFiles, command, root, renderApiVersions };
}

/**
 * The directory charts live in: `chartHome` (relative to the kustomization's directory unless
 * absolute); a chart pulled from a repository at a given version gets its own
 * `<name>-<version>` directory inside it, so that several versions can be used side by side.
 */
export function absChartHome(c: Pick<HelmChartConfig, 'name' | 'version' | 'repo'> & { chartHome: string }, root: string): string {
  const home = c.chartHome.startsWith('/') ? c.chartHome : join(root, c.chartHome);
  if (c.version && c.repo) return join(home, `${c.name ?? ''}-${c.version}`);
  return home;
}
