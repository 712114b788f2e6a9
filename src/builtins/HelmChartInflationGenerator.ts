import type { BuiltinState } from './state.js';
import { KustomizeError } from '../errors.js';
import { resolveChartConfig, type HelmChartConfig, type ResolvedHelmChart } from '../helm/chart-config.js';
import { requireNode } from '../host.js';
import type { BuildRemoteInputs } from '../load/remote/locked-source.js';
import { decode, DecodeError, type StructShape } from '../yaml/decode.js';
import type { HelmChart, HelmGlobals } from '../kinds/kustomization.js';
import { HelmChartShape, HelmGlobalsShape } from '../kinds/shapes.js';
import type { Resource } from '../model/resource.js';
import type { Generator, PluginContext } from '../plugins/plugin.js';
import type { Value, YMap } from '../yaml/value.js';

/** The plugin's config: HelmGlobals and HelmChart fields side by side (kustomize's plugin struct embeds both). */
const ConfigShape: StructShape = { struct: 'HelmChartInflationGeneratorPlugin', fields: {}, inline: [HelmGlobalsShape, HelmChartShape] };

/**
 * `helmCharts` (with `helmGlobals`), or a `generators:` config of kind HelmChartInflationGenerator:
 * the resources `helm template` renders from a chart, found in the chart home or pulled from its
 * repository. Needs `--enable-helm` (`enableHelm`) and a helm 3 executable (`--helm-command`).
 *
 * Configuring (checks and defaults, kustomize's wording) needs only the build's options and the
 * loader; running helm is Node code, loaded when a chart is inflated.
 */
export class HelmChartInflationGenerator implements Generator {
  static readonly kind = 'HelmChartInflationGenerator';

  private constructor(
    private readonly chart: ResolvedHelmChart,
    /** the build's lock and remote source: a pulled chart's archive is checked against the lock and noted, values files over HTTP(S) fetched */
    private readonly remoteInputs: BuildRemoteInputs,
  ) {}

  /**
   * Like kustomize's plugin (a plain yaml.Unmarshal) it ignores fields it does not know,
   * `metadata` included: the chart is named by `name` only. A kustomization's `helmCharts`
   * entry comes here with its `helmGlobals` merged in.
   */
  static fromConfig(config: YMap, ctx: PluginContext, build: BuiltinState): HelmChartInflationGenerator {
    let decoded: HelmChartConfig;
    try {
      decoded = decode<HelmChartConfig>(config, ConfigShape, { lenient: true }) ?? {};
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      throw new KustomizeError('KUSTOMIZATION_INVALID', `trouble configuring builtin ${HelmChartInflationGenerator.kind} with config: ${e.message}`, { cause: e });
    }
    return new HelmChartInflationGenerator(resolveChartConfig(withInlineNulls(decoded), ctx, build.helmApiVersions), build.remoteInputs);
  }

  async generate(ctx: PluginContext): Promise<Resource[]> {
    // running helm needs Node: loaded only when a chart is inflated
    const inflateChart = await requireNode(async () => (await import('../helm/inflate.js')).inflateChart, {
      feature: `helm chart '${this.chart.name}' (helmCharts)`,
      needs: 'runs the helm executable',
    });
    const rendered = await inflateChart(this.chart, ctx, this.remoteInputs);
    // kustomize 5.8 on leaves the namespace of what Helm rendered to Helm
    if (!ctx.profile.namespaceOnHelmOutput) for (const r of rendered) r.helmGenerated = true;
    return rendered;
  }
}

/** A kustomization's `helmCharts` entry as the plugin's config: the entry with its `helmGlobals` merged in. */
export function helmChartFieldConfig(globals: HelmGlobals | undefined, chart: HelmChart | undefined): YMap {
  return withInlineNulls({ ...(globals ?? {}), ...(chart ?? {}) }) as YMap;
}

/** `valuesInline` entries that are null stay null (Go keeps them in the map; they delete values in helm). */
function withInlineNulls(c: HelmChartConfig): HelmChartConfig {
  const inline = c.valuesInline;
  if (!inline) return c;
  const values: Record<string, Value> = {};
  for (const k of Object.keys(inline)) Object.defineProperty(values, k, { value: inline[k] ?? null, enumerable: true, writable: true, configurable: true });
  return { ...c, valuesInline: values };
}
