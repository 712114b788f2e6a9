import { KustomizeError } from '../errors.js';
import { dirname, join } from '../fs/path.js';
import type { ResourceMap } from '../model/resource-map.js';
import { Resource } from '../model/resource.js';
import { objectWithBuildState } from '../model/build-state-annotations.js';
import { resourcesFromValues } from '../model/resource-factory.js';
import { cloneValue, type Value, type YMap } from '../yaml/value.js';
import { applyTransformerOutput, generatedResources } from './apply-output.js';
import type { Generator, PluginContext, Transformer } from './plugin.js';
import { formatResult, readResults } from './resource-list.js';

/** Where a Starlark function's script comes from: a file under the kustomization (load restrictor applies), or inline (kpt's StarlarkRun). */
type StarlarkScript = { path: string } | { source: string; name: string };

/**
 * A Starlark KRM function, run in-process by our interpreter (src/starlark): no process, no
 * container. The script sees `ctx.resource_list` (`items`, `functionConfig`), `ctx.environment`
 * (the build's `--env` entries) and `ctx.open_api`; what it leaves in `items` is the output. It
 * is bounded by a step budget and by `--plugin-timeout` as a deadline.
 */
export class StarlarkFunction implements Generator, Transformer {
  private readonly describe: string;

  constructor(
    private readonly config: Resource,
    private readonly script: StarlarkScript,
    configFile: string,
  ) {
    this.describe = `starlark function ${config.id}${configFile ? ` (configured in ${configFile})` : ''}`;
  }

  async generate(ctx: PluginContext): Promise<Resource[]> {
    return generatedResources(await this.run([cloneValue(this.config.view)], ctx), this.describe);
  }

  async transform(resources: ResourceMap, ctx: PluginContext): Promise<void> {
    applyTransformerOutput(resources, await this.run(resources.resources().map((r) => cloneValue(objectWithBuildState(r))), ctx), this.describe);
  }

  private async run(items: YMap[], ctx: PluginContext): Promise<Resource[]> {
    const path = 'path' in this.script ? this.script.path : undefined;
    const source = path === undefined ? (this.script as { source: string }).source : ctx.loader.loadText(path);
    // the interpreter is loaded by the first Starlark run: the pipeline imports this class (steps.ts) for every build
    const { runStarlarkFunction } = await import('../starlark/krm.js');
    const out = runStarlarkFunction({
      source,
      filename: path ?? (this.script as { name: string }).name,
      resourceList: { items, functionConfig: cloneValue(this.config.view) },
      environment: environment(ctx.options.env),
      limits: { deadline: Date.now() + ctx.options.pluginTimeout * 1000 },
      // modules load relative to the script, under the kustomization's load restriction
      load: (module) => ctx.loader.loadText(path === undefined ? module : join(dirname(path), module)),
      print: (message) => ctx.warn(`# ${this.describe}: ${message}`),
    });
    for (const r of readResults(out.results as Value | undefined)) ctx.warn(formatResult(this.describe, r));
    try {
      return resourcesFromValues(out.items, this.describe);
    } catch (e) {
      throw new KustomizeError('PLUGIN_FAILED', `${this.describe} left an invalid resource in items: ${(e as Error).message}`, { cause: e });
    }
  }
}

/** `ctx.environment`: the build's `--env` entries (`KEY=VALUE`); the process environment is not exposed to scripts. */
function environment(entries: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of entries) {
    const eq = e.indexOf('=');
    if (eq > 0) out[e.slice(0, eq)] = e.slice(eq + 1);
  }
  return out;
}
