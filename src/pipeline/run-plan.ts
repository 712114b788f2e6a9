import { CatalogResolver, inProcessStarlark } from '../catalog/resolver.js';
import { KustomizeError, withErrorPrefix, wrapError } from '../errors.js';
import { transformerConfigFromCrds } from '../fieldspec/crd-config.js';
import { defaultTransformerConfig } from '../fieldspec/defaults.js';
import { emptyTransformerConfig, mergeTransformerConfigs, parseTransformerConfig, type TransformerConfig } from '../fieldspec/transformer-config.js';
import { isRelativePath, join } from '../fs/path.js';
import { COMPOSITION_API_VERSION, COMPOSITION_API_VERSIONS, COMPOSITION_KIND } from '../kinds/composition.js';
import { classifyEntry, openTree, treeOf, type Entry, type PathEntry, type TreeEntry } from '../load/entry.js';
import type { Loader } from '../load/loader.js';
import { isLockError } from '../load/remote/locked-source.js';
import { HttpStatusError } from '../load/remote/remote-source.js';
import { cloneUrl, parseRepoSpec } from '../load/remote/repo-spec.js';
import type { Origin } from '../model/origin.js';
import { resourcesFromText, resourcesFromValues } from '../model/resource-factory.js';
import { ResourceMap } from '../model/resource-map.js';
import { Resource } from '../model/resource.js';
import type { PluginResolution, PluginRole } from '../plugins/configure.js';
import { groupedPlugin, type Generator, type GroupedPlugin, type Transformer } from '../plugins/plugin.js';
import { ResourceSelector, type Selector } from '../model/selector.js';
import { isMap } from '../yaml/value.js';
import type { ConfigEntries, Phase, Plan, PlanStep, StepConfig } from '../plan/plan.js';
import { Accumulator } from './accumulator.js';
import type { BuildContext } from './context.js';
import { configureStep, inStage, placeOf, recordTransformation, runGenerator, runTransformers, runValidator, type ConfiguredStep, type StepPlace } from './steps.js';
import { applyOpenApiField, loadPlan } from './targets.js';

/**
 * Runs a plan — a Kustomization's, a Component's or a Composition's — onto `acc`: a component's
 * parent's accumulation, a Composition's input, else a fresh one. The one runner of every kind.
 */
export function runPlan(plan: Plan, ctx: BuildContext, acc: Accumulator = new Accumulator()): Promise<Accumulator> {
  return new PlanRun(plan, ctx).run(acc);
}

/** A step ready to run: a configured plugin, or a nested plan with the origin its config gives it. */
type ReadyStep =
  | { run: 'plugin'; role: 'generator'; step: ConfiguredStep<Generator> }
  | { run: 'plugin'; role: 'transformer' | 'validator'; step: ConfiguredStep<Transformer> }
  | { run: 'nested'; join: NestedJoin; role: PluginRole; step: StepConfig; place: StepPlace; plan: Plan };

/**
 * How a nested plan's resources join the accumulation: as a base's (`base`), run on it (`onto`),
 * generated (`generated`), replacing what it ran on (`replacing`), or not at all (`discarded`:
 * it ran on copies).
 */
type NestedJoin = 'base' | 'onto' | 'generated' | 'replacing' | 'discarded';

class PlanRun {
  private readonly resolution: PluginResolution;
  /** the `patches:` entries (by field) applied to group executables' configs, which do not run on resources */
  private readonly virtualPatches = new Set<string>();

  constructor(
    private readonly plan: Plan,
    private readonly ctx: BuildContext,
  ) {
    const catalogs = plan.catalogs;
    this.resolution = catalogs.length === 0 ? ctx.resolution : ctx.resolution.withLayer([new CatalogResolver(catalogs, ctx.catalogs, inProcessStarlark)]);
  }

  private get loader(): Loader {
    return this.plan.loader;
  }

  async run(acc: Accumulator): Promise<Accumulator> {
    for (const phase of this.plan.phases) {
      try {
        await this.runPhase(phase, acc);
      } catch (e) {
        // a file an error names relative to this directory (an entry, a patch's path), made absolute
        throw e instanceof KustomizeError && e.file !== undefined && isRelativePath(e.file) ? e.placedIn({ file: this.loader.absolute(e.file) }) : e;
      }
    }
    return acc;
  }

  private async runPhase(phase: Phase, acc: Accumulator): Promise<void> {
    switch (phase.phase) {
      case 'resources':
        await withErrorPrefix('accumulating resources', async () => {
          for (const text of phase.entries) await this.accumulateEntry(acc, classifyEntry(text, this.loader), this.ctx.trackOrigins);
        });
        return;
      case 'fieldSpecs':
        acc.mergeConfig(this.configurations(phase.configurations));
        for (const path of phase.crds) {
          const text = this.loader.loadText(path);
          acc.mergeConfig(transformerConfigFromCrds(text, path, { crdMerge: this.ctx.options.crdMerge }));
          acc.addCrds([{ text, file: this.loader.absolute(path) }]);
        }
        return;
      case 'steps':
        await this.runSteps([...phase.steps(acc.config), ...(await this.configSteps(phase.configs))], acc);
        return;
      case 'components':
        await withErrorPrefix('accumulating components', () => this.accumulateComponents(acc, phase.entries));
        return;
      case 'vars':
        acc.vars.declare([...phase.vars], acc.resources);
        return;
    }
  }

  /**
   * The plan's `configurations:` (files, or inline configs), then kustomize's default field
   * specs where the custom ones do not already cover them.
   */
  private configurations(entries: readonly string[]): TransformerConfig {
    const defaults = defaultTransformerConfig(this.ctx.profile);
    if (entries.length === 0) return defaults;
    let config = emptyTransformerConfig();
    for (const text of entries) {
      const entry = classifyEntry(text, this.loader, true);
      const parsed = entry.type === 'inline' ? parseTransformerConfig(entry.text, this.plan.fileName) : parseTransformerConfig(this.loader.loadText(text), text);
      config = mergeTransformerConfigs(config, parsed);
    }
    return mergeTransformerConfigs(config, defaults);
  }

  /**
   * Accumulates an entry as kustomize does: a file, else (when that fails) a kustomization
   * directory or a git repository; a directory, git or OCI tree that can only be one is loaded
   * as one straight away, but a directory that fails names what reading it as a file said.
   */
  private async accumulateEntry(acc: Accumulator, entry: PathEntry, recordOrigins: boolean): Promise<void> {
    if (entry.type === 'git' || entry.type === 'oci') {
      await withErrorPrefix(`accumulating resources from '${entry.url}'`, async () => this.accumulateTree(acc, await this.openTree(entry), false));
      return;
    }
    let fileError = entry.type === 'directory' ? undefined : await this.fileAttempt(acc, entry, recordOrigins);
    if (entry.type !== 'directory' && !fileError) return;
    const path = entry.type === 'http' ? entry.url : entry.path;
    // kustomize's message for a tree that fails says what reading the entry as a file said: asked only then
    const asFile = async (): Promise<KustomizeError> =>
      (fileError ??=
        (await this.fileAttempt(acc, { type: 'file', path, repo: undefined }, recordOrigins)) ??
        new KustomizeError('FILE_INVALID', `'${path}' reads both as a directory and as a file`, { file: path }));
    let child: Loader;
    try {
      child = await this.openTree(treeOf(entry));
    } catch (e) {
      const failed = await asFile();
      if (failed.code === 'YAML_INVALID' || failed.code === 'RESOURCE_INVALID' || failed.code === 'FILE_INVALID') throw failed;
      const both = wrapError(e, `accumulation err='${failed.message}'`);
      // a file the restriction refused is not a missing directory
      if (failed.code === 'LOAD_RESTRICTED' && both.code === 'FILE_NOT_FOUND') throw new KustomizeError('LOAD_RESTRICTED', both.message, { ...(failed.file && { file: failed.file }), cause: e });
      throw both;
    }
    try {
      await this.accumulateTree(acc, child, false);
    } catch (e) {
      throw wrapError(e, `accumulation err='${(await asFile()).message}'`);
    }
  }

  /** Accumulates a `file` or `http` entry as a resource file; undefined when it was one, else why not (an HTTP error ends the build unless the URL may name a repository). */
  private async fileAttempt(acc: Accumulator, entry: Extract<Entry, { type: 'file' | 'http' }>, recordOrigins: boolean): Promise<KustomizeError | undefined> {
    try {
      await this.accumulateFile(acc, entry, recordOrigins);
      return undefined;
    } catch (e) {
      // a lock's verdict ends the build: the entry is not tried as anything else
      if (e instanceof KustomizeError && (isLockError(e) || (e.cause instanceof HttpStatusError && !entry.repo))) throw e;
      return e instanceof KustomizeError ? e : wrapError(e, `accumulating resources from '${entry.type === 'http' ? entry.url : entry.path}'`);
    }
  }

  private async accumulateFile(acc: Accumulator, entry: Extract<Entry, { type: 'file' | 'http' }>, recordOrigins: boolean): Promise<void> {
    const path = entry.type === 'http' ? entry.url : entry.path;
    let resources: Resource[];
    let text: string | undefined;
    try {
      const bytes = entry.type === 'http' ? await (await this.ctx.remote()).fetchFile(path) : this.loader.load(path);
      text = this.ctx.resourceText(entry.type === 'http' ? path : this.loader.absolute(path), bytes);
      if (text === undefined) throw new KustomizeError('FILE_INVALID', `MalformedYAMLError: yaml: incomplete UTF-8 octet sequence in File: ${path}`, { file: path });
      resources = resourcesFromValues(this.ctx.resourceDocuments(text, path), path, this.ctx.profile.listWithoutItems);
      // a file that repeats an id fails as the file, before it meets what was accumulated
      if (resources.length > 1) new ResourceMap().appendAll(resources);
    } catch (e) {
      if (e instanceof HttpStatusError) throw new KustomizeError('REMOTE_FAILED', `accumulating resources from '${path}': ${e.message}`, { cause: e });
      throw wrapError(e, `accumulating resources from '${path}'`);
    }
    this.noteTypes(resources);
    const provenance = this.ctx.provenance;
    if (provenance) provenance.locators.readFile(this.loader, path, text!, resources);
    const source = entry.type === 'http' ? path : this.loader.absolute(path);
    for (const r of resources) r.sourceFile = source;
    if (recordOrigins) {
      const origin = this.fileOrigin(entry);
      for (const r of resources) r.origin = origin;
    }
    withErrorPrefix(`merging resources from '${path}'`, () => acc.resources.appendAll(resources));
  }

  private fileOrigin(entry: Extract<Entry, { type: 'file' | 'http' }>): Origin {
    const spec = entry.type === 'http' ? parseRepoSpec(entry.url) : undefined;
    if (spec) return withRepo({ path: spec.path }, cloneUrl(spec), spec.ref);
    const base = this.loader.origin;
    return withRepo({ path: join(base.dir, entry.type === 'http' ? entry.url : entry.path) }, base.repo, base.ref);
  }

  private openTree(entry: TreeEntry): Promise<Loader> {
    return openTree(entry, this.loader, () => this.ctx.remote()).then((l) => this.ctx.opened(l));
  }

  /** Accumulates the kustomization at `child` (a base, with its own accumulation; a component, on ours). */
  private async accumulateTree(acc: Accumulator, child: Loader, isComponent: boolean): Promise<void> {
    const root = child.root;
    const accumulated = (loader: Loader, into?: Accumulator): Promise<Accumulator> => {
      const plan = this.loadChild(loader, isComponent);
      return withErrorPrefix(`recursed accumulation of path '${root}'`, () => runPlan(plan, this.ctx, into));
    };
    if (isComponent) {
      await accumulated(child, acc);
      return;
    }
    const base = await this.ctx.accumulateBase(child, this.plan.namespaceBelow, accumulated);
    withErrorPrefix(`recursed merging from path '${root}'`, () => acc.absorbBase(base));
  }

  /** The child's plan, which must be a Component's when a `components:` entry names it, and must not be one otherwise. */
  private loadChild(child: Loader, isComponent: boolean): Plan {
    const plan = withErrorPrefix(`couldn't make target for path '${child.root}'`, () => loadPlan(child, this.ctx, false, this.plan.namespaceBelow));
    const kind = plan.kind;
    if (isComponent && kind !== 'Component') {
      throw new KustomizeError('KUSTOMIZATION_INVALID', `expected kind 'Component' for path '${child.root}' but got '${kind}'`);
    }
    if (!isComponent && kind === 'Component') {
      throw new KustomizeError('KUSTOMIZATION_INVALID', `expected kind != 'Component' for path '${child.root}'`);
    }
    return plan;
  }

  private async accumulateComponents(acc: Accumulator, entries: readonly string[]): Promise<void> {
    for (const text of entries) {
      const entry = classifyEntry(text, this.loader);
      let child: Loader;
      try {
        child = await this.openTree(treeOf(entry));
      } catch (e) {
        throw new KustomizeError((e as KustomizeError).code ?? 'FILE_NOT_FOUND', `loader.New ${JSON.stringify((e as Error).message)}`, { cause: e });
      }
      try {
        await this.accumulateTree(acc, child, true);
      } catch (e) {
        throw new KustomizeError((e as KustomizeError).code ?? 'KUSTOMIZATION_INVALID', `accumulateDirectory: ${JSON.stringify((e as Error).message)}`, { cause: e });
      }
    }
  }

  private noteTypes(resources: readonly Resource[]): void {
    this.ctx.openapi.noteTypes(resources);
  }

  /**
   * The steps `generators:`/`transformers:`/`validators:` entries configure: inline configs
   * first, then files and directories (kustomize's order). A directory holding a Composition
   * is a step of its own; other directories hold configs.
   */
  private async configSteps(configs: ConfigEntries | undefined): Promise<PlanStep[]> {
    if (!configs || configs.entries.length === 0) return [];
    const found = new Accumulator();
    const later: [PathEntry, number][] = [];
    // the entry each config came from, as the kustomization writes it (`transformers[1]`)
    const entries = new Map<Resource, string>();
    const field = `${configs.role}s`;
    const noteEntry = (i: number) => {
      for (const r of found.resources.resources()) if (!entries.has(r)) entries.set(r, `${field}[${i}]`);
    };
    for (const [i, text] of configs.entries.entries()) {
      const entry = classifyEntry(text, this.loader, true);
      if (entry.type !== 'inline') {
        later.push([entry, i]);
        continue;
      }
      const inline = resourcesFromText(entry.text, this.plan.fileName, this.ctx.profile.listWithoutItems);
      this.noteTypes(inline);
      for (const r of inline) r.origin = { path: this.plan.configuredIn };
      found.resources.appendAll(inline);
      noteEntry(i);
    }
    for (const [entry, i] of later) {
      if (entry.type === 'directory' && entry.composition) found.resources.append(compositionStep(entry.path, configs.role === 'validator'));
      else await this.accumulateEntry(found, entry, true);
      noteEntry(i);
    }
    return found.resources
      .resources()
      .map((config) => {
        // an inline config was configured in the kustomization; a config from a file, in that file
        const file = config.sourceFile ?? this.loader.absolute(this.plan.fileName);
        const step: StepConfig = { config, configuredIn: config.origin?.path ?? this.plan.configuredIn, file, loader: this.loader, entry: entries.get(config)! };
        return { run: 'plugin', role: configs.role, step };
      });
  }

  /**
   * Runs a phase's steps: every one configured first, as kustomize does, the steps of one group
   * executable made one (with `patches:` applied to their configs), then each in order, adjacent
   * transformers joined; a phase of generators ends with the transforms its group executables
   * owe once every generator ran (the KEP's phase 6).
   */
  private async runSteps(steps: readonly PlanStep[], acc: Accumulator): Promise<void> {
    const configured: ReadyStep[] = [];
    for (const s of steps) configured.push(await this.configure(s, acc));
    const ready = await this.groupSteps(configured);
    const generatorGroups: ConfiguredStep<Generator>[] = [];
    for (let i = 0; i < ready.length; i++) {
      const s = ready[i]!;
      if (s.run === 'nested') {
        await this.runNested(s, acc);
      } else if (s.role === 'generator') {
        const step = s.step;
        await this.recorded(acc, step, async () => this.absorbGenerated(acc, await runGenerator(step, this.ctx), step.origin));
        if (groupedPlugin(step.plugin)) generatorGroups.push(step);
      } else if (s.role === 'validator') {
        const step = s.step;
        await this.recorded(acc, step, () => runValidator(step, acc.resources));
      } else {
        const joined = [s.step];
        // a step recorded for explain runs alone: what it writes is its own
        if (!this.ctx.provenance) for (let next; (next = ready[i + 1]) && next.run === 'plugin' && next.role === 'transformer'; i++) joined.push(next.step);
        await this.recorded(acc, s.step, () => runTransformers(joined, acc.resources, this.ctx));
      }
    }
    for (const step of generatorGroups) {
      const implicit = { ...step, plugin: groupedPlugin(step.plugin)!.afterGenerators() };
      await this.recorded(acc, step, () => runTransformers([implicit], acc.resources, this.ctx));
    }
  }

  /** Runs a step; when the build records provenance (`explain`), what it changed in the resources is noted as its writing. */
  private async recorded(acc: Accumulator, step: StepPlace, run: () => Promise<void> | void): Promise<void> {
    const provenance = this.ctx.provenance;
    if (!provenance) return run();
    provenance.recorder.beforeStep(acc.resources);
    await run();
    provenance.recorder.afterStep(acc.resources, () => provenance.locators.forStep(step, acc.resources));
  }

  /**
   * The steps with those of one group executable (the same role, the same key) made one, in
   * the first one's place. `patches:` entries whose target selects their configs (the KEP's
   * virtual resources) are applied to those configs now, and do not run on the resources.
   */
  private async groupSteps(steps: readonly ReadyStep[]): Promise<ReadyStep[]> {
    const firsts = new Map<string, GroupedPlugin>();
    const out: ReadyStep[] = [];
    for (const s of steps) {
      const grouped = s.run === 'plugin' ? groupedPlugin(s.step.plugin) : undefined;
      const key = grouped && `${s.role} ${grouped.groupKey}`;
      const first = key && firsts.get(key);
      if (first) first.absorb(grouped!);
      else {
        if (key) firsts.set(key, grouped!);
        out.push(s);
      }
    }
    for (const grouped of firsts.values()) await this.patchVirtual(grouped.configs);
    return out.filter((s) => !(s.run === 'plugin' && s.step.field && this.virtualPatches.has(s.step.field)));
  }

  /** Applies the `patches:` entries whose target selects some of `configs` to them, noting each as spent on virtual resources. */
  private async patchVirtual(configs: readonly Resource[]): Promise<void> {
    const map = new ResourceMap();
    map.appendAll([...configs]);
    for (const patch of this.plan.patches) {
      const target = patch.config.view['target'];
      if (!isMap(target) || new ResourceSelector(target as Selector).select(map).length === 0) continue;
      const step = await configureStep(patch, 'transformer', this.ctx, this.resolution);
      await inStage('TRANSFORMER_FAILED', step, () => step.plugin.transform(map, step.context));
      map.settle();
      this.virtualPatches.add(patch.field!);
    }
  }

  /** A step configured: a plugin from its config (to run on `acc`), or a nested plan (a Composition step's is read from its directory). */
  private async configure(s: PlanStep, acc: Accumulator): Promise<ReadyStep> {
    if (s.run === 'nested') return { ...s, role: 'transformer', place: placeOf(s.step) };
    const config = s.step.config;
    if (config.kind === COMPOSITION_KIND && COMPOSITION_API_VERSIONS.includes(config.apiVersion)) return this.configureComposition(s.step, s.role);
    if (s.role === 'generator') return { run: 'plugin', role: s.role, step: await configureStep(s.step, s.role, this.ctx, this.resolution) };
    return { run: 'plugin', role: s.role, step: await configureStep(s.step, s.role, this.ctx, this.resolution, () => acc.crds) };
  }

  /**
   * A `kind: Composition` config: the Composition directory at its `path`, run as a generator
   * (with no input; what it makes is generated), as a transformer (on the current resources,
   * its output replacing them), or with `discardOutput` on copies, changing nothing.
   */
  private configureComposition(step: StepConfig, role: PluginRole): ReadyStep {
    const config = step.config;
    const path = config.view['path'];
    if (typeof path !== 'string' || path === '') {
      throw new KustomizeError('PLUGIN_FAILED', `${config.originalId} (configured in ${step.configuredIn}): a Composition step needs the path of a Composition directory`, {
        file: step.configuredIn,
      });
    }
    const plan = loadPlan(step.loader.child(path), this.ctx);
    if (plan.kind !== COMPOSITION_KIND) throw new KustomizeError('COMPOSITION_INVALID', `expected a Composition for path '${path}' but got a ${plan.kind}`);
    const join: NestedJoin = config.view['discardOutput'] === true ? 'discarded' : role === 'generator' ? 'generated' : 'replacing';
    return { run: 'nested', join, role, step, place: placeOf(step), plan };
  }

  private async runNested(s: Extract<ReadyStep, { run: 'nested' }>, acc: Accumulator): Promise<void> {
    const ctx = this.ctx;
    switch (s.join) {
      case 'base': {
        applyOpenApiField(s.plan, ctx, false);
        const base = await runPlan(s.plan, ctx);
        withErrorPrefix(`merging resources of ${s.step.config.kind} ${s.step.config.name}`, () => acc.absorbBase(base));
        return;
      }
      case 'onto':
        applyOpenApiField(s.plan, ctx, false);
        await runPlan(s.plan, ctx, acc);
        return;
      case 'generated': {
        const made = await inStage('GENERATOR_FAILED', s.place, () => runPlan(s.plan, ctx));
        const generated = [...made.resources.resources()];
        if (ctx.trackOrigins) for (const r of generated) r.origin ??= s.place.origin;
        this.absorbGenerated(acc, generated, s.place.origin);
        return;
      }
      case 'replacing':
      case 'discarded': {
        const input = new Accumulator();
        const keep = s.join === 'replacing';
        input.resources.appendAll(keep ? acc.resources.resources() : acc.resources.resources().map((r) => r.clone()));
        await inStage(s.role === 'validator' ? 'VALIDATION_FAILED' : 'TRANSFORMER_FAILED', s.place, () => runPlan(s.plan, ctx, input));
        if (!keep) return;
        acc.resources.setAll([...input.resources.resources()]);
        if (ctx.trackOrigins) recordTransformation(acc.resources, s.place.origin);
        return;
      }
    }
  }

  private absorbGenerated(acc: Accumulator, generated: readonly Resource[], origin: Origin): void {
    this.noteTypes(generated);
    withErrorPrefix(`merging from generator ${origin.configuredBy?.kind ?? ''}`, () => acc.absorbGenerated([...generated]));
  }
}

/**
 * The config a `generators:`, `transformers:` or `validators:` entry naming a Composition
 * directory stands for: run the Composition at `path` (relative to the kustomization). As a
 * validator its output is discarded.
 */
function compositionStep(path: string, discardOutput: boolean): Resource {
  return new Resource({
    apiVersion: COMPOSITION_API_VERSION,
    kind: COMPOSITION_KIND,
    metadata: { name: path },
    path,
    ...(discardOutput && { discardOutput: true }),
  });
}

function withRepo(o: Origin, repo: string | undefined, ref: string | undefined): Origin {
  if (repo) o.repo = repo;
  if (ref) o.ref = ref;
  return o;
}
