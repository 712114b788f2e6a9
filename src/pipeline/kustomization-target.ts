import { layerCatalogResolvers } from '../catalog/resolver.js';
import { KustomizeError, withErrorPrefix, wrapError } from '../errors.js';
import { transformerConfigFromCrds } from '../fieldspec/crd-config.js';
import { DEFAULT_TRANSFORMER_CONFIG } from '../fieldspec/defaults.js';
import { emptyTransformerConfig, mergeTransformerConfigs, parseTransformerConfig, type TransformerConfig } from '../fieldspec/transformer-config.js';
import { join } from '../fs/path.js';
import { compositionStep } from '../composition/composition-resolver.js';
import { COMPOSITION_FILE_NAMES } from '../kinds/composition.js';
import type { Kustomization } from '../kinds/kustomization.js';
import { Loader } from '../load/loader.js';
import { HttpStatusError, isHttpUrl, namesRemoteTree } from '../load/remote/remote-source.js';
import { cloneUrl, parseRepoSpec } from '../load/remote/repo-spec.js';
import type { Origin, OriginBase } from '../model/origin.js';
import { resourcesFromText, resourcesFromValues } from '../model/resource-factory.js';
import type { Resource } from '../model/resource.js';
import { ResourceMap } from '../model/resource-map.js';
import { isOciReference, parseOciReference, type OciReference } from '../oci/reference.js';
import { hasPrecomputedScope } from '../openapi/schema.js';
import type { PluginResolution } from '../plugins/configure.js';
import { Accumulator } from './accumulator.js';
import type { BuildContext } from './context.js';
import { FieldSteps } from './field-steps.js';
import type { BuildTarget } from './target.js';
import type { StepConfig } from './step.js';
import { configureSteps, runGenerator, runTransformers, runValidator } from './steps.js';

/** Entries named like this are resource files, almost always: they are read as files without asking first. */
const RESOURCE_FILE_NAME = /\.(ya?ml|json)$/i;

/** Reads the kustomization of a child directory (a base or a component): the target loader's job, handed in. */
export type ChildTargetLoader = (loader: Loader, originBase: OriginBase) => BuildTarget;

/**
 * One kustomization (or component) directory and what it does: accumulate its resources
 * (files and other kustomizations), then generate, then apply its components, then
 * transform, then validate, in kustomize's order. Every generator, transformer and
 * validator is a step config run by the one runner (./steps.ts).
 */
export class KustomizationTarget implements BuildTarget {
  private readonly fieldSteps: FieldSteps;
  private readonly resolution: PluginResolution;

  constructor(
    readonly loader: Loader,
    readonly kustomization: Kustomization,
    /** the kustomization file's name in its directory */
    readonly fileName: string,
    private readonly ctx: BuildContext,
    /** where this directory is, for origin annotations: relative to the top of the build, or inside a remote repository */
    private readonly originBase: OriginBase,
    private readonly loadChild: ChildTargetLoader,
  ) {
    this.fieldSteps = new FieldSteps(kustomization, loader, this.configuredIn);
    this.resolution = ctx.resolution.withLayer(layerCatalogResolvers(kustomization.catalogs, loader, ctx.catalogs));
  }

  get kind(): Kustomization['kind'] {
    return this.kustomization.kind;
  }

  get sortOptions(): Kustomization['sortOptions'] {
    return this.kustomization.sortOptions;
  }

  /** Accumulates this kustomization; a component passes its parent's accumulator, anything else starts afresh. */
  async accumulate(acc: Accumulator = new Accumulator()): Promise<Accumulator> {
    const k = this.kustomization;
    await withErrorPrefix('accumulating resources', () => this.accumulateResources(acc, k.resources ?? []));
    acc.mergeConfig(this.ownTransformerConfig());
    for (const path of k.crds ?? []) acc.mergeConfig(transformerConfigFromCrds(this.loader.loadText(path), path));
    await this.generate(acc);
    await withErrorPrefix('accumulating components', () => this.accumulateComponents(acc, k.components ?? []));
    await this.transform(acc);
    await this.validate(acc);
    acc.vars.declare(k.vars ?? [], acc.resources);
    return acc;
  }

  /** Applies this kustomization's `openapi:` field to the build's schema choice. */
  applyOpenApiField(root: boolean): void {
    const field = this.kustomization.openapi;
    const path = field?.['path'];
    const text = path === undefined ? undefined : this.loader.loadText(path);
    this.ctx.openapi.set(field, text, { root, file: this.loader.absolute(this.fileName) });
  }

  private async generate(acc: Accumulator): Promise<void> {
    const steps = [...this.fieldSteps.generators(), ...(await this.configSteps(this.kustomization.generators))];
    for (const step of await configureSteps(steps, 'generator', this.ctx, this.resolution)) {
      const generated = await runGenerator(step, this.ctx);
      this.noteTypes(generated);
      withErrorPrefix(`merging from generator ${step.origin.configuredBy?.kind ?? ''}`, () => acc.absorbGenerated(generated));
    }
  }

  private async transform(acc: Accumulator): Promise<void> {
    const steps = [...this.fieldSteps.transformers(acc.config), ...(await this.configSteps(this.kustomization.transformers))];
    await runTransformers(await configureSteps(steps, 'transformer', this.ctx, this.resolution), acc.resources, this.ctx);
  }

  private async validate(acc: Accumulator): Promise<void> {
    const steps = await this.configSteps(this.kustomization.validators, true);
    for (const step of await configureSteps(steps, 'validator', this.ctx, this.resolution)) await runValidator(step, acc.resources);
  }

  /**
   * This kustomization's `configurations:` (files, or inline text), then kustomize's default
   * field specs where the custom ones do not already cover them.
   */
  private ownTransformerConfig(): TransformerConfig {
    const entries = this.kustomization.configurations ?? [];
    if (entries.length === 0) return DEFAULT_TRANSFORMER_CONFIG;
    let config = emptyTransformerConfig();
    for (const entry of entries) {
      const inline = entry.includes('\n') || entry.includes('\r');
      const text = inline ? entry : this.loader.loadText(entry);
      config = mergeTransformerConfigs(config, parseTransformerConfig(text, inline ? this.fileName : entry));
    }
    return mergeTransformerConfigs(config, DEFAULT_TRANSFORMER_CONFIG);
  }

  /** Each entry is a resource file (local or HTTP), else a kustomization directory or a git repository. */
  private async accumulateResources(acc: Accumulator, paths: string[], recordOrigins = this.ctx.trackOrigins): Promise<void> {
    for (const path of paths) {
      if (namesRemoteTree(path)) {
        await withErrorPrefix(`accumulating resources from '${path}'`, async () => this.accumulateDirectory(acc, await this.childTarget(path), false));
        continue;
      }
      // A local directory is no file: reading it as one, as kustomize tries first, can only fail, so for an entry
      // that is one, that error (part of the message when the directory fails too) is made only then. Entries
      // named like resource files are read first, as before: asking each of them would cost a stat.
      const directory = !RESOURCE_FILE_NAME.test(path) && !isHttpUrl(path) && this.loader.isDirectory(path);
      let fileError = directory ? undefined : await this.fileAttempt(acc, path, recordOrigins);
      if (!directory && !fileError) continue;
      const asFile = async (): Promise<KustomizeError> =>
        (fileError ??=
          (await this.fileAttempt(acc, path, recordOrigins)) ?? new KustomizeError('FILE_INVALID', `'${path}' reads both as a directory and as a file`, { file: path }));
      let child: ChildTarget;
      try {
        child = await this.childTarget(path);
      } catch (e) {
        const failed = await asFile();
        if (failed.code === 'YAML_INVALID' || failed.code === 'RESOURCE_INVALID' || failed.code === 'FILE_INVALID') throw failed;
        const both = wrapError(e, `accumulation err='${failed.message}'`);
        // a file the restriction refused is not a missing directory
        if (failed.code === 'LOAD_RESTRICTED' && both.code === 'FILE_NOT_FOUND') throw new KustomizeError('LOAD_RESTRICTED', both.message, { ...(failed.file && { file: failed.file }), cause: e });
        throw both;
      }
      try {
        await this.accumulateDirectory(acc, child, false);
      } catch (e) {
        throw wrapError(e, `accumulation err='${(await asFile()).message}'`);
      }
    }
  }

  /** Accumulates `path` as a resource file; undefined when it was one, else why not (an HTTP error ends the build). */
  private async fileAttempt(acc: Accumulator, path: string, recordOrigins: boolean): Promise<KustomizeError | undefined> {
    try {
      await this.accumulateFile(acc, path, recordOrigins);
      return undefined;
    } catch (e) {
      // an HTTP error on something that is not a git URL ends the build, as in kustomize
      if (e instanceof KustomizeError && e.cause instanceof HttpStatusError && !parseRepoSpec(path)) throw e;
      return e instanceof KustomizeError ? e : wrapError(e, `accumulating resources from '${path}'`);
    }
  }

  private async accumulateFile(acc: Accumulator, path: string, recordOrigins: boolean): Promise<void> {
    let resources: Resource[];
    try {
      const remote = isHttpUrl(path);
      const bytes = remote ? await (await this.ctx.remote()).fetchFile(path) : this.loader.load(path);
      const text = this.ctx.resourceText(remote ? path : this.loader.absolute(path), bytes);
      if (text === undefined) throw new KustomizeError('FILE_INVALID', `MalformedYAMLError: yaml: incomplete UTF-8 octet sequence in File: ${path}`, { file: path });
      resources = resourcesFromValues(this.ctx.resourceDocuments(text, path), path);
      // a file that repeats an id fails as the file, before it meets what was accumulated
      if (resources.length > 1) new ResourceMap().appendAll(resources);
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
    if (isOciReference(path)) return this.ociTarget(parseOciReference(path));
    const spec = parseRepoSpec(path);
    if (!spec) return { loader: this.loader.child(path), origin: { ...this.originBase, dir: join(this.originBase.dir, path) } };
    this.loader.checkRemoteCycle(path);
    const clone = await (await this.ctx.remote()).clone(spec);
    const repo = cloneUrl(spec);
    const loader = Loader.atRemote(clone.fs, join(clone.dir, spec.path), { url: path, dir: clone.dir, repo, ref: spec.ref }, this.loader);
    return { loader, origin: { dir: spec.path, repo, ...(spec.ref && { ref: spec.ref }) } };
  }

  /** An `oci://` artifact's tree, pulled and unpacked; like a git base, it cannot read outside itself. */
  private async ociTarget(ref: OciReference): Promise<ChildTarget> {
    this.loader.checkRemoteCycle(ref.raw);
    const tree = await (await this.ctx.remote()).pullTree(ref);
    const repo = `oci://${ref.registry}/${ref.repository}`;
    const loader = Loader.atRemote(tree.fs, tree.dir, { url: ref.raw, dir: tree.dir, repo, ...(tree.digest && { ref: tree.digest }) }, this.loader);
    return { loader, origin: { dir: '', repo, ...(tree.digest && { ref: tree.digest }) } };
  }

  private async accumulateDirectory(acc: Accumulator, target: ChildTarget, isComponent: boolean): Promise<void> {
    const root = target.loader.root;
    const accumulated = (loader: Loader, into?: Accumulator): Promise<Accumulator> => {
      const sub = this.loadedChild({ ...target, loader }, isComponent);
      return withErrorPrefix(`recursed accumulation of path '${root}'`, () => sub.accumulate(into));
    };
    if (isComponent) {
      await accumulated(target.loader, acc);
      return;
    }
    const subAcc = await this.ctx.accumulateBase(target.loader, target.origin, accumulated);
    withErrorPrefix(`recursed merging from path '${root}'`, () => acc.absorbBase(subAcc));
  }

  /** The child's target, which must be a Component when a `components:` entry names it, and must not be one otherwise. */
  private loadedChild(target: ChildTarget, isComponent: boolean): BuildTarget {
    const child = target.loader;
    const sub = withErrorPrefix(`couldn't make target for path '${child.root}'`, () => this.loadChild(child, target.origin));
    const kind = sub.kind;
    if (isComponent && kind !== 'Component') {
      throw new KustomizeError('KUSTOMIZATION_INVALID', `expected kind 'Component' for path '${child.root}' but got '${kind}'`);
    }
    if (!isComponent && kind === 'Component') {
      throw new KustomizeError('KUSTOMIZATION_INVALID', `expected kind != 'Component' for path '${child.root}'`);
    }
    return sub;
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

  /** Whether a `generators:`/`transformers:`/`validators:` entry names a local directory holding a Composition. */
  private holdsComposition(path: string): boolean {
    if (parseRepoSpec(path) || isHttpUrl(path)) return false;
    const abs = this.loader.absolute(path);
    return this.loader.fs.isDirectory(abs) && COMPOSITION_FILE_NAMES.some((name) => this.loader.fs.exists(join(abs, name)));
  }

  private get configuredIn(): string {
    return join(this.originBase.dir, this.fileName);
  }

  /** The steps `generators:`/`transformers:`/`validators:` entries configure: inline configs first, then files and kustomizations. */
  private async configSteps(entries: string[] | undefined, discardCompositionOutput = false): Promise<StepConfig[]> {
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
    for (const path of paths) {
      // a Composition directory is a step of its own; other directories hold configs
      if (this.holdsComposition(path)) configs.resources.append(compositionStep(path, discardCompositionOutput));
      else await this.accumulateResources(configs, [path], true);
    }
    return configs.resources.resources().map((config) => ({ config, configuredIn: config.origin?.path ?? this.configuredIn, loader: this.loader }));
  }
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
