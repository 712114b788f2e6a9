import { KustomizeError, withErrorPrefix, wrapError } from '../errors.js';
import { defaultTransformerConfig, emptyTransformerConfig, mergeTransformerConfigs, parseTransformerConfig, type TransformerConfig } from '../fieldspec/transformer-config.js';
import { join } from '../fs/path.js';
import { transformerConfigFromCrds } from '../fieldspec/crd-config.js';
import { readKustomization, KUSTOMIZATION_FILE_NAMES, type Kustomization } from '../kinds/kustomization.js';
import { Loader } from '../load/loader.js';
import { cloneUrl, parseRepoSpec } from '../load/remote/repo-spec.js';
import { HttpStatusError, isHttpUrl } from '../load/remote/remote-source.js';
import { originFromConfig, type Origin } from '../model/origin.js';
import { resourcesFromText, resourcesFromValues } from '../model/resource-factory.js';
import { Resource as ResourceClass, type Resource } from '../model/resource.js';
import { cloneValue, isMap, valuesEqual, type YMap } from '../yaml/value.js';
import type { ResourceMap } from '../model/resource-map.js';
import { PluginLoader, type PluginRole } from '../plugins/loader.js';
import { hasPrecomputedScope } from '../openapi/schema.js';
import type { ConfiguredPlugin, Generator, PluginContext, Transformer } from '../plugins/plugin.js';
import { utf8DecodeStrict } from '../encoding/base64.js';
import { Accumulator } from './accumulator.js';
import { fieldGenerators, fieldTransformers } from './builtin-plugins.js';
import type { BuildContext } from './context.js';

const plugins = new PluginLoader();

/**
 * One kustomization (or component) directory and what it does: accumulate its resources
 * (files and other kustomizations), then generate, then apply its components, then
 * transform, then validate, in kustomize's order.
 */
export class KustTarget {
  private readonly pluginCtx: PluginContext;

  private constructor(
    readonly loader: Loader,
    readonly kustomization: Kustomization,
    /** the kustomization file's name in its directory */
    readonly fileName: string,
    private readonly ctx: BuildContext,
    /** where this directory is, for origin annotations: relative to the top of the build, or inside a remote repository */
    private readonly originBase: OriginBase,
  ) {
    this.pluginCtx = ctx.pluginContext(loader);
  }

  /** Finds and reads the kustomization file of the loader's directory; prints its deprecation warnings. */
  static load(loader: Loader, ctx: BuildContext, originBase: OriginBase = { dir: '' }): KustTarget {
    const found: [string, string][] = [];
    for (const name of KUSTOMIZATION_FILE_NAMES) {
      const path = loader.absolute(name);
      if (loader.fs.exists(path) && !loader.fs.isDirectory(path)) found.push([name, utf8DecodeStrict(loader.load(name)) ?? '']);
    }
    if (found.length === 0) {
      throw new KustomizeError(
        'KUSTOMIZATION_NOT_FOUND',
        `unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory '${loader.root}'`,
        { file: loader.root },
      );
    }
    if (found.length > 1) {
      throw new KustomizeError('KUSTOMIZATION_INVALID', `Found multiple kustomization files under: ${loader.root}\n`, { file: loader.root });
    }
    const [name, text] = found[0]!;
    const kustomization = readKustomization(text, loader.absolute(name), loader.root, (m) => ctx.warn(m));
    return new KustTarget(loader, kustomization, name, ctx, originBase);
  }

  /** Accumulates this kustomization; a component passes its parent's accumulator, anything else starts afresh. */
  async accumulate(acc: Accumulator = new Accumulator()): Promise<Accumulator> {
    const k = this.kustomization;
    await withErrorPrefix('accumulating resources', () => this.accumulateResources(acc, k.resources ?? []));
    acc.mergeConfig(this.ownTransformerConfig());
    for (const path of k.crds ?? []) acc.mergeConfig(transformerConfigFromCrds(utf8DecodeStrict(this.loader.load(path)) ?? '', path));
    await this.runGenerators(acc);
    await withErrorPrefix('accumulating components', () => this.accumulateComponents(acc, k.components ?? []));
    await this.runTransformers(acc);
    await this.runValidators(acc);
    acc.vars.declare(k.vars ?? [], acc.resources);
    return acc;
  }

  /**
   * This kustomization's `configurations:` (files, or inline text), then kustomize's default
   * field specs where the custom ones do not already cover them.
   */
  private ownTransformerConfig(): TransformerConfig {
    const entries = this.kustomization.configurations ?? [];
    if (entries.length === 0) return defaultTransformerConfig();
    let config = emptyTransformerConfig();
    for (const entry of entries) {
      const inline = entry.includes('\n') || entry.includes('\r');
      const text = inline ? entry : utf8DecodeStrict(this.loader.load(entry)) ?? '';
      config = mergeTransformerConfigs(config, parseTransformerConfig(text, inline ? this.fileName : entry));
    }
    return mergeTransformerConfigs(config, defaultTransformerConfig());
  }

  /** Each entry is a resource file (local or HTTP), else a kustomization directory or a git repository. */
  private async accumulateResources(acc: Accumulator, paths: string[], recordOrigins = this.ctx.trackOrigins): Promise<void> {
    for (const path of paths) {
      let fileError: KustomizeError;
      try {
        await this.accumulateFile(acc, path, recordOrigins);
        continue;
      } catch (e) {
        // an HTTP error on something that is not a git URL ends the build, as in kustomize
        if (e instanceof KustomizeError && e.cause instanceof HttpStatusError && !parseRepoSpec(path)) throw e;
        fileError = e instanceof KustomizeError ? e : wrapError(e, `accumulating resources from '${path}'`);
      }
      let child: ChildTarget;
      try {
        child = await this.childTarget(path);
      } catch (e) {
        if (fileError.code === 'YAML_INVALID' || fileError.code === 'RESOURCE_INVALID') throw fileError;
        const both = wrapError(e, `accumulation err='${fileError.message}'`);
        // a file the restriction refused is not a missing directory
        if (fileError.code === 'LOAD_RESTRICTED' && both.code === 'FILE_NOT_FOUND') throw new KustomizeError('LOAD_RESTRICTED', both.message, { ...(fileError.file && { file: fileError.file }), cause: e });
        throw both;
      }
      try {
        await this.accumulateDirectory(acc, child, false);
      } catch (e) {
        throw wrapError(e, `accumulation err='${fileError.message}'`);
      }
    }
  }

  private async accumulateFile(acc: Accumulator, path: string, recordOrigins: boolean): Promise<void> {
    let resources: Resource[];
    try {
      const bytes = isHttpUrl(path) ? await (await this.ctx.remote()).fetchFile(path) : this.loader.load(path);
      resources = resourcesFromText(utf8DecodeStrict(bytes) ?? new TextDecoder().decode(bytes), path);
    } catch (e) {
      if (e instanceof HttpStatusError) throw new KustomizeError('REMOTE_FAILED', `accumulating resources from '${path}': ${e.message}`, { cause: e });
      throw wrapError(e, `accumulating resources from '${path}'`);
    }
    this.noteTypes(resources);
    if (recordOrigins) {
      const origin = this.fileOrigin(path);
      for (const r of resources) r.origin = origin;
    }
    withErrorPrefix(`merging resources from '${path}'`, () => acc.resources.appendAll(resources));
  }

  private fileOrigin(path: string): Origin {
    const base = this.originBase;
    const spec = isHttpUrl(path) ? parseRepoSpec(path) : undefined;
    if (spec) return withRepo({ path: spec.path }, cloneUrl(spec), spec.ref);
    return withRepo({ path: join(base.dir, path) }, base.repo, base.ref);
  }

  /** The kustomization a `resources:`/`components:` entry names: a git repository (cloned), or a local directory. */
  private async childTarget(path: string): Promise<ChildTarget> {
    const spec = parseRepoSpec(path);
    if (!spec) return { loader: this.loader.child(path), origin: { ...this.originBase, dir: join(this.originBase.dir, path) } };
    this.loader.checkRemoteCycle(path);
    const clone = await (await this.ctx.remote()).clone(spec);
    const repo = cloneUrl(spec);
    const loader = Loader.atRemote(clone.fs, join(clone.dir, spec.path), { url: path, dir: clone.dir, repo, ref: spec.ref }, this.loader);
    return { loader, origin: { dir: spec.path, repo, ...(spec.ref && { ref: spec.ref }) } };
  }

  private async accumulateDirectory(acc: Accumulator, target: ChildTarget, isComponent: boolean): Promise<void> {
    const child = target.loader;
    const sub = withErrorPrefix(`couldn't make target for path '${child.root}'`, () => KustTarget.load(child, this.ctx, target.origin));
    sub.applyOpenApiField(false);
    const kind = sub.kustomization.kind;
    if (isComponent && kind !== 'Component') {
      throw new KustomizeError('KUSTOMIZATION_INVALID', `expected kind 'Component' for path '${child.root}' but got '${kind}'`);
    }
    if (!isComponent && kind === 'Component') {
      throw new KustomizeError('KUSTOMIZATION_INVALID', `expected kind != 'Component' for path '${child.root}'`);
    }
    const subAcc = await withErrorPrefix(`recursed accumulation of path '${child.root}'`, () => sub.accumulate(isComponent ? acc : undefined));
    if (!isComponent) withErrorPrefix(`recursed merging from path '${child.root}'`, () => acc.absorbBase(subAcc));
  }

  private async accumulateComponents(acc: Accumulator, paths: string[]): Promise<void> {
    for (const path of paths) {
      let child: ChildTarget;
      try {
        child = await this.childTarget(path);
      } catch (e) {
        throw new KustomizeError((e as KustomizeError).code ?? 'FILE_NOT_FOUND', `loader.New ${JSON.stringify((e as Error).message)}`, { cause: e });
      }
      try {
        await this.accumulateDirectory(acc, child, true);
      } catch (e) {
        throw new KustomizeError((e as KustomizeError).code ?? 'KUSTOMIZATION_INVALID', `accumulateDirectory: ${JSON.stringify((e as Error).message)}`, {
          cause: e,
        });
      }
    }
  }

  /**
   * kustomize consults the OpenAPI schema for the scope of any type it has no precomputed
   * answer for, the moment it reads such a resource; that fixes the built-in schema in place
   * (a custom one set later is layered over it), so the build notes it too.
   */
  private noteTypes(resources: Resource[]): void {
    if (resources.some((r) => !hasPrecomputedScope(r.apiVersion, r.kind))) this.ctx.openapi.touch();
  }

  /** Applies this kustomization's `openapi:` field to the build's schema choice. */
  applyOpenApiField(root: boolean): void {
    const field = this.kustomization.openapi;
    const path = field?.['path'];
    const text = path === undefined ? undefined : utf8DecodeStrict(this.loader.load(path)) ?? '';
    this.ctx.openapi.set(field, text, { root, file: this.loader.absolute(this.fileName) });
  }

  private get configuredIn(): string {
    return join(this.originBase.dir, this.fileName);
  }

  private async runGenerators(acc: Accumulator): Promise<void> {
    const generators = [...fieldGenerators(this.kustomization, this.configuredIn), ...(await this.configuredPlugins(this.kustomization.generators, 'generator'))];
    for (const g of generators) {
      const generated = asResources(await g.plugin.generate(this.pluginCtx), g.origin);
      this.noteTypes(generated);
      if (this.ctx.trackOrigins) for (const r of generated) r.origin ??= g.origin;
      withErrorPrefix(`merging from generator ${g.origin.configuredBy?.kind ?? ''}`, () => acc.absorbGenerated(generated));
    }
  }

  private async runTransformers(acc: Accumulator): Promise<void> {
    const transformers = [
      ...fieldTransformers(this.kustomization, acc.config, this.pluginCtx, this.configuredIn),
      ...(await this.configuredPlugins(this.kustomization.transformers, 'transformer')),
    ];
    for (const t of transformers) await this.runTransformer(acc.resources, t);
  }

  /** Validators run like transformers but may change nothing except the `validated-by` label. */
  private async runValidators(acc: Accumulator): Promise<void> {
    for (const v of await this.configuredPlugins(this.kustomization.validators, 'transformer')) {
      const before = acc.resources.resources().map((r) => cloneValue(r.obj));
      await v.plugin.transform(acc.resources, this.pluginCtx);
      acc.resources.changed();
      const after = acc.resources.resources();
      if (after.length !== before.length || after.some((r, i) => !valuesEqual(withoutValidatedBy(r.obj), before[i]))) {
        throw new KustomizeError('VALIDATION_FAILED', `validator shouldn't modify the resource map (${describeOrigin(v.origin)})`);
      }
    }
  }

  private async runTransformer(resources: ResourceMap, t: ConfiguredPlugin<Transformer>): Promise<void> {
    await t.plugin.transform(resources, this.pluginCtx);
    resources.changed();
    resources.removeAll(resources.resources().filter((r) => isEmptyObject(r.obj)));
    if (this.ctx.trackOrigins) recordTransformation(resources, t.origin);
  }

  /** The plugins configured by `generators:`/`transformers:`/`validators:` entries (inline configs first, then files and kustomizations). */
  private async configuredPlugins(entries: string[] | undefined, role: 'generator'): Promise<ConfiguredPlugin<Generator>[]>;
  private async configuredPlugins(entries: string[] | undefined, role: 'transformer'): Promise<ConfiguredPlugin<Transformer>[]>;
  private async configuredPlugins(entries: string[] | undefined, role: PluginRole): Promise<ConfiguredPlugin<Generator | Transformer>[]> {
    if (!entries || entries.length === 0) return [];
    const configs = new Accumulator();
    const paths: string[] = [];
    for (const entry of entries) {
      let inline: Resource[];
      try {
        inline = resourcesFromText(entry, this.fileName);
      } catch {
        paths.push(entry);
        continue;
      }
      this.noteTypes(inline);
      for (const r of inline) r.origin = { path: this.configuredIn };
      configs.resources.appendAll(inline);
    }
    await this.accumulateResources(configs, paths, true);
    const out: ConfiguredPlugin<Generator | Transformer>[] = [];
    for (const config of configs.resources) {
      const configuredIn = config.origin?.path ?? this.configuredIn;
      const plugin = await plugins.load(config, configuredIn, this.pluginCtx, role);
      out.push({ plugin, origin: originFromConfig(configuredIn, config.obj) });
    }
    return out;
  }
}

function isEmptyObject(o: YMap): boolean {
  for (const _ in o) return false;
  return true;
}

/** Where a kustomization directory is, for origin annotations. */
export interface OriginBase {
  /** relative to the top of the build, or to the root of `repo` */
  dir: string;
  repo?: string;
  ref?: string;
}

interface ChildTarget {
  loader: Loader;
  origin: OriginBase;
}

function withRepo(o: Origin, repo: string | undefined, ref: string | undefined): Origin {
  if (repo) o.repo = repo;
  if (ref) o.ref = ref;
  return o;
}

/** A resource after a validator, without the `validated-by` label it may add (a copy only when there is one). */
function withoutValidatedBy(obj: YMap): YMap {
  const meta = obj['metadata'];
  const labels = isMap(meta) ? meta['labels'] : undefined;
  if (!isMap(labels) || !('validated-by' in labels)) return obj;
  const copy = cloneValue(obj);
  const copiedMeta = copy['metadata'] as YMap;
  const copiedLabels = copiedMeta['labels'] as YMap;
  delete copiedLabels['validated-by'];
  if (Object.keys(copiedLabels).length === 0) delete copiedMeta['labels'];
  return copy;
}

function describeOrigin(o: Origin): string {
  const by = o.configuredBy;
  return `${by?.kind ?? ''} ${by?.name ?? ''} configured in ${o.configuredIn ?? ''}`.trim();
}

/** What a generator returned, as resources, in order: in-process plugins may return plain objects. */
function asResources(generated: (Resource | YMap)[], origin: Origin): Resource[] {
  return generated.flatMap((g) => (g instanceof ResourceClass ? [g] : resourcesFromValues([g], origin.configuredIn ?? '')));
}

/**
 * kustomize's transformer annotations: a resource without an origin is taken to be made by
 * the transformer; one with an origin records the transformer among its transformations.
 */
function recordTransformation(resources: ResourceMap, origin: Origin): void {
  for (const r of resources) {
    if (!r.origin) r.origin = origin;
    else (r.transformations ??= []).push(origin);
  }
}
