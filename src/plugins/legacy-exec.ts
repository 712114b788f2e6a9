import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import { emitYaml } from '../yaml/emit.js';
import { applyTransformerOutput, generatedResources } from './apply-output.js';
import type { Generator, PluginContext, Transformer } from './plugin.js';
import { legacyTransformerInput, parsePluginOutput } from './resource-list.js';
import { splitShellWords } from './runtimes/args.js';
import { runPluginProcess } from './run-plugin-process.js';

/** kustomize leaves out an env var longer than this (the kernel's limit on one argument/env string). */
const MAX_ENV_LENGTH = 131071;

/**
 * A legacy exec plugin: an executable in the plugin home, run with its config file as the
 * first argument (plus `argsOneLiner`/`argsFromFile`), in the kustomization's directory, with
 * `KUSTOMIZE_PLUGIN_CONFIG_STRING` and `KUSTOMIZE_PLUGIN_CONFIG_ROOT` set. A transformer gets
 * the resources on stdin; both print resources on stdout.
 */
export class LegacyExecPlugin implements Generator, Transformer {
  private readonly describe: string;

  constructor(
    private readonly executable: string,
    private readonly config: Resource,
    configFile: string,
  ) {
    this.describe = `plugin ${config.id}${configFile ? ` (configured in ${configFile})` : ''}`;
  }

  async generate(ctx: PluginContext): Promise<Resource[]> {
    const stdout = await this.run(undefined, ctx);
    return generatedResources(parsePluginOutput(stdout, this.describe).resources, this.describe);
  }

  async transform(resources: ResourceMap, ctx: PluginContext): Promise<void> {
    const stdout = await this.run(legacyTransformerInput(resources.resources()), ctx);
    applyTransformerOutput(resources, parsePluginOutput(stdout, this.describe).resources, this.describe);
  }

  private async run(stdin: string | undefined, ctx: PluginContext): Promise<string> {
    const configYaml = emitYaml(this.config.view);
    const dir = mkdtempSync(join(tmpdir(), 'kust-plugin-config-'));
    const configPath = join(dir, 'config.yaml');
    writeFileSync(configPath, configYaml);
    const env: NodeJS.ProcessEnv = { ...process.env };
    const root = ctx.loader.root;
    for (const [k, v] of [
      ['KUSTOMIZE_PLUGIN_CONFIG_STRING', configYaml],
      ['KUSTOMIZE_PLUGIN_CONFIG_ROOT', root],
    ] as const) {
      if (v.length > MAX_ENV_LENGTH) ctx.warn(`# Warning: ${this.describe}: ${k} is longer than ${MAX_ENV_LENGTH} characters and is not set`);
      else env[k] = v;
    }
    try {
      return await runPluginProcess({
        argv: [this.executable, configPath, ...this.extraArgs(ctx)],
        cwd: root,
        env,
        ...(stdin !== undefined && { stdin }),
        timeout: ctx.options.pluginTimeout,
        signal: ctx.signal,
        describe: this.describe,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** `argsOneLiner` (split like a shell would) and `argsFromFile` (one argument per non-empty line, leading spaces dropped). */
  private extraArgs(ctx: PluginContext): string[] {
    const args: string[] = [];
    const oneLiner = this.config.view['argsOneLiner'];
    if (typeof oneLiner === 'string') args.push(...splitShellWords(oneLiner));
    const fromFile = this.config.view['argsFromFile'];
    if (typeof fromFile === 'string') {
      const text = new TextDecoder().decode(ctx.loader.load(fromFile));
      for (const line of text.split('\n')) {
        const arg = line.replace(/^ +/, '');
        if (arg !== '') args.push(arg);
      }
    }
    return args;
  }
}
