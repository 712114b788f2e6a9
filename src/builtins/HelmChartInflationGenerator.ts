import { KustomizeError } from '../errors.js';
import { resolveChartConfig, type HelmChartConfig, type ResolvedHelmChart } from '../helm/chart-config.js';
import { decode, DecodeError, type StructShape } from '../kinds/decode.js';
import type { HelmChart, HelmGlobals } from '../kinds/kustomization.js';
import { HelmChartShape, HelmGlobalsShape } from '../kinds/shapes.js';
import type { Resource } from '../model/resource.js';
import type { Generator, PluginContext } from '../plugins/plugin.js';
import type { Value, YMap } from '../yaml/value.js';
import { configurationError, marshalledConfig } from './config.js';

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

  private resolved: ResolvedHelmChart | undefined;

  private constructor(
    readonly config: HelmChartConfig,
    /** configured by a kustomization's fields: errors show the config as kustomize marshals it */
    private readonly fromFields: boolean,
  ) {}

  /**
   * From a `generators:` config. Like kustomize's plugin (a plain yaml.Unmarshal) it ignores
   * fields it does not know, `metadata` included: the chart is named by `name` only.
   */
  static fromConfig(config: YMap, ctx: PluginContext): HelmChartInflationGenerator {
    let decoded: HelmChartConfig;
    try {
      decoded = decode<HelmChartConfig>(config, ConfigShape, { lenient: true }) ?? {};
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      throw new KustomizeError('KUSTOMIZATION_INVALID', `trouble configuring builtin ${HelmChartInflationGenerator.kind} with config: ${e.message}`, { cause: e });
    }
    const g = new HelmChartInflationGenerator(withInlineNulls(decoded), false);
    g.configure(ctx);
    return g;
  }

  /** One generator per `helmCharts` entry, each with the kustomization's `helmGlobals`. */
  static fromKustomization(globals: HelmGlobals | undefined, charts: readonly HelmChart[]): HelmChartInflationGenerator[] {
    return charts.map((chart) => new HelmChartInflationGenerator(withInlineNulls({ ...(globals ?? {}), ...(chart ?? {}) }), true));
  }

  /**
   * kustomize configures every builtin generator of a kustomization before it runs any, so a
   * bad `helmCharts` entry (or a missing `--enable-helm`) is reported before other generators
   * run: this generator, put first, configures the given ones and generates nothing.
   */
  static configureFirst(generators: readonly HelmChartInflationGenerator[]): Generator {
    return {
      generate(ctx: PluginContext): Resource[] {
        for (const g of generators) g.configure(ctx);
        return [];
      },
    };
  }

  /** Checks and defaults (once); kustomize's message, with the config when it came from the kustomization's fields. */
  configure(ctx: PluginContext): ResolvedHelmChart {
    if (this.resolved) return this.resolved;
    try {
      this.resolved = resolveChartConfig(this.config, ctx);
    } catch (e) {
      if (!this.fromFields) throw e;
      throw configurationError(HelmChartInflationGenerator.kind, marshalledConfig(this.config as Record<string, Value | undefined>), e);
    }
    return this.resolved;
  }

  async generate(ctx: PluginContext): Promise<Resource[]> {
    const chart = this.configure(ctx);
    // running helm needs Node: loaded only when a chart is inflated
    const { inflateChart } = await import('../helm/inflate.js');
    return inflateChart(chart, ctx);
  }
}

/** `valuesInline` entries that are null stay null (Go keeps them in the map; they delete values in helm). */
function withInlineNulls(c: HelmChartConfig): HelmChartConfig {
  const inline = c.valuesInline;
  if (!inline) return c;
  const values: Record<string, Value> = {};
  for (const k of Object.keys(inline)) Object.defineProperty(values, k, { value: inline[k] ?? null, enumerable: true, writable: true, configurable: true });
  return { ...c, valuesInline: values };
}
