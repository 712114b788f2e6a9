import { KustomizeError } from '../errors.js';
import { resolve } from '../fs/path.js';
import type { ResourceMap } from '../model/resource-map.js';
import { Resource } from '../model/resource.js';
import { cloneValue, isMap } from '../yaml/value.js';
import { applyTransformerOutput, generatedResources } from './apply-output.js';
import type { FunctionSpec } from '../kinds/function-spec.js';
import { aroundEachRun, type Generator, type Plugin, type PluginContext, type Transformer } from './plugin.js';
import type { ImageToRun } from '../load/remote/locked-image.js';
import { formatResult, parsePluginOutput, resourceListInput } from './resource-list.js';
import { containerArgs, containerRuntime } from './runtimes/container.js';
import { runPluginProcess } from './run-plugin-process.js';


/**
 * A KRM function (https://github.com/kubernetes-sigs/kustomize/blob/master/cmd/config/docs/api-conventions/functions-spec.md):
 * gets a ResourceList on stdin and prints one, run as a local executable (`exec`, needs
 * `--enable-exec`) or in a container (`container`, through docker or podman). As a generator
 * its input holds just its config; as a transformer or validator, the resources.
 */
export class KrmFunction implements Generator, Transformer {
  private readonly describe: string;

  constructor(
    private readonly config: Resource,
    private readonly spec: FunctionSpec,
    configFile: string,
    /** `trusted`: from a trusted catalog, which stands in for `--enable-exec` */
    private readonly options: { trusted?: boolean } = {},
  ) {
    this.describe = `function ${config.id}${configFile ? ` (configured in ${configFile})` : ''}`;
  }

  async generate(ctx: PluginContext): Promise<Resource[]> {
    const { resources } = await this.run([new Resource(this.functionConfig())], ctx);
    return generatedResources(resources, this.describe);
  }

  async transform(resources: ResourceMap, ctx: PluginContext): Promise<void> {
    const out = await this.run(resources.resources(), ctx);
    applyTransformerOutput(resources, out.resources, this.describe);
  }

  /** The config as the function sees it: marked local, so kustomize never prints it if a function echoes it back. */
  private functionConfig() {
    const obj = cloneValue(this.config.view);
    let meta = obj['metadata'];
    if (!isMap(meta)) meta = obj['metadata'] = {};
    let ann = meta['annotations'];
    if (!isMap(ann)) ann = meta['annotations'] = {};
    ann['config.kubernetes.io/local-config'] = 'true';
    return obj;
  }

  private async run(items: readonly Resource[], ctx: PluginContext) {
    const stdin = resourceListInput(items, this.functionConfig());
    const dir = ctx.loader.root;
    const timeout = ctx.options.pluginTimeout;
    let argv: string[];
    let env: NodeJS.ProcessEnv = process.env;
    if (this.spec.exec?.path) {
      if (!ctx.options.enableExec && !this.options.trusted) {
        throw new KustomizeError('PLUGIN_DISABLED', `${this.describe}: exec functions are disabled; enable them with --enable-exec`);
      }
      argv = [resolve(dir, this.spec.exec.path), ...(this.spec.exec.args ?? [])];
      env = { ...process.env, ...execEnv([...(this.spec.exec.envs ?? []), ...(ctx.options.env ?? [])]) };
    } else {
      argv = [containerRuntime(ctx.options), ...containerArgs(this.spec.container!, ctx.options, dir)];
    }
    const stdout = await runPluginProcess({ argv, cwd: dir, env, stdin, timeout, signal: ctx.signal, describe: this.describe });
    const out = parsePluginOutput(stdout, this.describe);
    for (const r of out.results) ctx.warn(formatResult(this.describe, r));
    return out;
  }
}

/**
 * A container function, its image run as the build's lock has it (`toRun`, see locked-image.ts):
 * by digest when the lock pins it, a failed run then explained by the lock.
 */
export function containerFunction(
  config: Resource,
  container: NonNullable<FunctionSpec['container']>,
  configFile: string,
  toRun: (image: string) => ImageToRun,
  options: { trusted?: boolean } = {},
): Plugin {
  const image = toRun(container.image!);
  const fn = new KrmFunction(config, { container: { ...container, image: image.image } }, configFile, options);
  return image.run ? aroundEachRun(fn, image.run) : fn;
}

/** kyaml's exec env: `KEY=VALUE` entries only, a value with a second `=` dropped. */
function execEnv(entries: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of entries) {
    const parts = e.split('=');
    if (parts.length === 2) out[parts[0]!] = parts[1]!;
  }
  return out;
}
