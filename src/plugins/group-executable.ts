import { KustomizeError } from '../errors.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import { emitYaml } from '../yaml/emit.js';
import type { Generator, GroupedPlugin, PluginContext, Transformer } from './plugin.js';
import { parsePluginOutput } from './resource-list.js';
import { runPluginProcessExiting } from './run-plugin-process.js';

/** What a group executable exits with for a subcommand it does not support (the KEP's guideline). */
const NOT_SUPPORTED = 127;

/**
 * The plugin protocol of the generators and transformers KEP: one executable per API group,
 * `$XDG_CONFIG_HOME/kustomize/plugins/<group>`, called with the subcommand `generate` or
 * `transform` in the directory of the kustomization that lists the configs, with kustomize-ts's
 * environment.
 *
 * - `generate`: stdin holds the group's configs of a kustomization's `generators:`, as YAML
 *   documents in the order they are listed; stdout, the resources made.
 * - `transform`: stdin holds the group's configs, then every resource; stdout, the resources
 *   again, none added or removed, none with another kind, name or namespace.
 *
 * One object stands for all the configs of its group in one phase: the pipeline gives it the
 * others' (see `GroupedPlugin`). Exit 127 says a subcommand is not supported: an error for a
 * group listed under that field, and nothing to do for the transform every generator group also
 * gets once all generators ran (`afterGenerators`).
 */
export class GroupExecutable implements Generator, Transformer, GroupedPlugin {
  private readonly grouped: Resource[];

  constructor(
    readonly group: string,
    /** the executable, absolute */
    private readonly executable: string,
    config: Resource,
    /** `implicit`: the transform after the generators, which a 127 makes a pass-through */
    private readonly call: 'listed' | 'implicit' = 'listed',
    configs?: Resource[],
  ) {
    this.grouped = configs ?? [config];
  }

  get groupKey(): string {
    return `group executable ${this.executable}`;
  }

  get configs(): readonly Resource[] {
    return this.grouped;
  }

  absorb(other: GroupedPlugin): void {
    this.grouped.push(...other.configs);
  }

  afterGenerators(): Transformer {
    return new GroupExecutable(this.group, this.executable, this.grouped[0]!, 'implicit', this.grouped);
  }

  async generate(ctx: PluginContext): Promise<Resource[]> {
    const { stdout, code } = await this.run('generate', this.configDocuments(), ctx);
    if (code === NOT_SUPPORTED) throw this.notSupported('generate', 'generators');
    return parsePluginOutput(stdout, this.describe('generate')).resources;
  }

  async transform(resources: ResourceMap, ctx: PluginContext): Promise<void> {
    const input = resources.resources();
    const stdin = [this.configDocuments(), ...input.map((r) => emitYaml(r.view))].filter((d) => d !== '').join('---\n');
    const { stdout, code } = await this.run('transform', stdin, ctx);
    if (code === NOT_SUPPORTED) {
      if (this.call === 'implicit') return;
      throw this.notSupported('transform', 'transformers');
    }
    const output = parsePluginOutput(stdout, this.describe('transform')).resources;
    const byIdentity = new Map<string, Resource>();
    for (const out of output) {
      const key = identity(out);
      if (byIdentity.has(key) || !input.some((r) => identity(r) === key)) throw this.restricted(`added ${shown(out)}`);
      byIdentity.set(key, out);
    }
    for (const r of input) {
      const out = byIdentity.get(identity(r));
      if (!out) throw this.restricted(`removed ${shown(r)}`);
      r.obj = out.view;
    }
  }

  private configDocuments(): string {
    return this.grouped.map((c) => emitYaml(c.view)).join('---\n');
  }

  private run(subcommand: 'generate' | 'transform', stdin: string, ctx: PluginContext): Promise<{ stdout: string; code: number }> {
    return runPluginProcessExiting(
      { argv: [this.executable, subcommand], cwd: ctx.loader.root, env: process.env, stdin, timeout: ctx.options.pluginTimeout, signal: ctx.signal, describe: this.describe(subcommand) },
      [0, NOT_SUPPORTED],
    );
  }

  private describe(subcommand: string): string {
    return `group executable ${this.executable} (${subcommand}, for ${this.grouped.map((c) => c.id.toString()).join(', ')})`;
  }

  private notSupported(subcommand: string, field: string): KustomizeError {
    return new KustomizeError(
      'PLUGIN_FAILED',
      `the plugin of group ${this.group} (${this.executable}) does not support '${subcommand}' (exit status 127), which its configs under ${field} need: ${this.grouped.map((c) => c.id.toString()).join(', ')}`,
    );
  }

  private restricted(what: string): KustomizeError {
    return new KustomizeError(
      'PLUGIN_FAILED',
      `the plugin of group ${this.group} (${this.executable}) ${what}: a transform may not add or remove resources, nor change their kind, name or namespace`,
    );
  }
}

/** What a transform may not change of a resource: its kind, name and namespace. */
function identity(r: Resource): string {
  return JSON.stringify([r.kind, r.name, r.namespace]);
}

function shown(r: Resource): string {
  return `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;
}
