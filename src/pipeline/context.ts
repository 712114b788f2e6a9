import { utf8DecodeStrict } from '../encoding/base64.js';
import type { FileSystem } from '../fs/filesystem.js';
import { isNotice, KustomizeError, type BuildNote, type Notice } from '../errors.js';
import { isWithin, relative } from '../fs/path.js';
import type { Loader, RemoteOrigin } from '../load/loader.js';
import { OpenApiSchemaSetting } from '../openapi/schema.js';
import type { ResolvedOptions } from '../options.js';
import { kustomizeProfile, type KustomizeProfile } from '../versions/profiles.js';
import { BuiltinState } from '../builtins/state.js';
import { builtinResolver } from '../builtins/table.js';
import { PluginResolution } from '../plugins/configure.js';
import { functionSpecResolver, pluginHomeResolver, registeredResolver } from '../plugins/resolvers.js';
import type { PluginContext, PluginRegistration } from '../plugins/plugin.js';
import { lockKey } from '../load/remote/lock-file.js';
import { followLock, readLockRules, type BuildRemoteInputs, type LockRules } from '../load/remote/locked-source.js';
import { imageToRun } from '../load/remote/locked-image.js';
import { forBuild, type RemoteInput, type RemoteSource } from '../load/remote/remote-source.js';
import { defaultRemoteSource } from '../load/remote/default-remote.js';
import { CatalogStore } from '../catalog/catalog-store.js';
import { parseYamlDocuments, type ParseOptions } from '../yaml/parse.js';
import { ParsedTexts } from '../yaml/parsed-texts.js';
import type { Value } from '../yaml/value.js';
import type { Accumulator } from './accumulator.js';
import { ProvenanceRecorder } from './provenance.js';
import { ProvenanceLocators } from './provenance-locators.js';
import { CustomResourceTypeSources, listReplacedNotice, type CrdsFile } from './custom-resource-types.js';
import { ConfigPositions, locatedNotice, type LocatedStep } from './config-positions.js';
import type { StepNotice } from '../builtins/step-notice.js';
import type { ConfigText } from '../catalog/config-error.js';

/**
 * What a caller that keeps builds (a `BuildCache`) lends one build: the texts and documents it
 * has read before, shared and frozen (a step copies the parts it writes, see `Resource`), and
 * the bases it remembers. The build's file system then records what the build reads.
 */
export interface BuildMemory {
  /** The text of a resource file's bytes (undefined when they are not UTF-8). */
  resourceText(path: string, bytes: Uint8Array): string | undefined;
  /** The documents of a resource file's text, shared and frozen. */
  resourceDocuments(text: string, file: string): Value[];
  /** The documents of a text a step reads; each call gets its own copy. */
  stepDocuments(text: string, file: string, options?: ParseOptions): Value[];
  /**
   * The base that `key` names (its place in the tree): what the memory holds of it when its
   * files read as they did, else what `accumulate` makes of it.
   */
  accumulateBase(key: string, build: BaseEffects, accumulate: () => Promise<Accumulator>): Promise<Accumulator>;
}

/** What a base's accumulation may change in its build besides its result. */
export interface BaseEffects {
  readonly openapi: OpenApiSchemaSetting;
  /** whether what the build makes depends on nothing but its files (see `BuildContext.filesDecide`) */
  filesDecide: boolean;
  warn(note: BuildNote): void;
  /** Runs `run`, adding the warnings and notices it gives to `into`. */
  noteWarnings<T>(into: BuildNote[], run: () => Promise<T>): Promise<T>;
}

/** How many bytes of step texts, with their documents, one build keeps parsed (patches are small; this bounds a build that reads huge ones). */
const STEP_TEXT_BYTES = 32_000_000;

/**
 * What every kustomization of one build shares: the options, the file system, the plugin
 * resolvers, the schema choice, warnings, build metadata flags. One per build: two builds
 * never share one.
 */
export class BuildContext implements BaseEffects {
  readonly openapi = new OpenApiSchemaSetting();
  /** set from the top kustomization's `buildMetadata`; kustomize applies it to every kustomization below */
  buildMetadata: string[] = [];

  /** how the kustomize release the build behaves as differs from the others (`options.kustomizeVersion`) */
  readonly profile: KustomizeProfile;

  /** the catalogs the build's layers list, each fetched once, when first needed */
  readonly catalogs: CatalogStore;

  /** the caller's signal (one that never aborts when none was given): what waits on the outside world stops when it aborts */
  readonly signal: AbortSignal;

  /**
   * Whether what the build makes depends on nothing but its files and options: false once it
   * configures a step that is not a builtin or a Composition, or helm, or fetches anything remote.
   */
  filesDecide = true;

  /**
   * Whether the files the build read are all its output depends on, besides its options and the
   * remote references it read: false once a plugin runs that may read files the build does not
   * see (a process, a container, an in-process plugin of the caller's). Builtins, helm (whose
   * chart and values the build reads itself) and Starlark scripts read through the build.
   */
  inputsComplete = true;

  private remoteSource: RemoteSource | undefined;

  /** the remote trees the build fetched, whose files its errors name by the tree's URL */
  private readonly fetchedTrees: RemoteOrigin[] = [];

  /** how the build names the files its notes name, by absolute path: a step that notices every workload names one file many times */
  private readonly shownPlaces = new Map<string, { file: string; remote?: string }>();

  /** the directory of the kustomization built, when it is local: its lock file is read from there */
  lockDir: string | undefined;

  private lock: { rules: LockRules | undefined } | undefined;

  /** the remote references the build read, by type and URL, with what each resolved to */
  readonly remoteInputs = new Map<string, RemoteInput>();

  /**
   * The texts steps parse (patches, replacement files) when there is no cache: one patch file
   * is often applied to many targets (argo-cd's redis-ha applies one to 45 resources).
   */
  private readonly stepTexts = new ParsedTexts(STEP_TEXT_BYTES);

  /** where the warnings and notices go besides `options.warn` and `notice`: one list for each base being remembered */
  private readonly warningNotes = new Set<BuildNote[]>();

  /** where steps' configs and the texts they read are written: read when a notice or `explain` first asks */
  private readonly configPositions = new ConfigPositions();

  /** who wrote each value, when the build records it (`explain`) */
  readonly provenance: { recorder: ProvenanceRecorder; locators: ProvenanceLocators } | undefined;

  /** the top kustomization's file name, in the directory built (set once its plan is loaded) */
  topFile = '';

  /** the directory built, which the files warnings and errors name are relative to (set once the build's root is open) */
  buildDir = '';

  /** what the builtins of this build share */
  readonly builtins: BuiltinState;

  /** the plugin resolvers of the build, in order: builtins, in-process plugins, function specs, the plugin home */
  readonly resolution: PluginResolution;

  /** what the build knows of custom resources' types, read when a strategic-merge patch first meets one */
  private readonly customTypes: CustomResourceTypeSources;


  constructor(
    readonly options: Readonly<ResolvedOptions>,
    readonly fs: FileSystem,
    plugins: readonly PluginRegistration[],
    signal: AbortSignal | undefined,
    /** what the caller's cache lends the build; `fs` then records what the build reads */
    private readonly memory?: BuildMemory,
    provenance = false,
    /** receives the build's notices (see {@link Notice}) */
    private readonly notice?: (notice: Notice) => void,
  ) {
    if (provenance) {
      const recorder = new ProvenanceRecorder();
      this.provenance = { recorder, locators: new ProvenanceLocators(recorder, () => this.buildDir, this.configPositions) };
    }
    this.signal = signal ?? new AbortController().signal;
    this.profile = kustomizeProfile(options.kustomizeVersion, 'kustomizeVersion');
    const inputs: BuildRemoteInputs = { lock: () => this.lockRules(), note: (input) => this.noteRemote(input), remote: () => this.remote() };
    const images = (image: string) => imageToRun(image, inputs, { offline: options.offline, signal: this.signal });
    this.catalogs = new CatalogStore({ remote: () => this.remote(), inputs, images });
    this.builtins = new BuiltinState(options, inputs);
    this.resolution = new PluginResolution([builtinResolver(this.builtins), registeredResolver(plugins), functionSpecResolver(images)], pluginHomeResolver());
    this.customTypes = new CustomResourceTypeSources(options, fs, this.openapi);
  }

  /**
   * A base's accumulation (a kustomization a `resources:` entry names, at `loader`). With a
   * cache, a base whose files read as they did in the last build of the tree is not built again
   * (see {@link BuildMemory}).
   */
  accumulateBase(loader: Loader, namespaceAbove: string | undefined, accumulate: (loader: Loader) => Promise<Accumulator>): Promise<Accumulator> {
    const memory = this.memory;
    // a fetched tree is read through a file system of its own, which the record does not see
    if (!memory || loader.fs !== this.fs || loader.containingRemote) return accumulate(loader);
    // the directories above it decide its origin paths and which cycles it may not make
    const roots: string[] = [];
    for (let l: Loader | undefined = loader; l; l = l.referrer) roots.push(l.root);
    // (and the namespace passed down to it, by the kustomize releases that pass one)
    return memory.accumulateBase(JSON.stringify([roots, loader.origin, this.buildMetadata, namespaceAbove ?? null]), this, () => accumulate(loader.apart()));
  }

  async noteWarnings<T>(into: BuildNote[], run: () => Promise<T>): Promise<T> {
    this.warningNotes.add(into);
    try {
      return await run();
    } finally {
      this.warningNotes.delete(into);
    }
  }

  /** The text of a resource file's bytes (undefined when they are not UTF-8); with a cache, the text it had when it last read the same. */
  resourceText(path: string, bytes: Uint8Array): string | undefined {
    return this.memory ? this.memory.resourceText(path, bytes) : utf8DecodeStrict(bytes);
  }

  /**
   * The documents of a resource file's text; with a cache, what it holds for that text, shared
   * and frozen: steps copy the parts they write (see `Resource.own`).
   */
  resourceDocuments(text: string, file: string): Value[] {
    // (a build recording provenance uses no memory: see build())
    if (this.provenance) return this.provenance.locators.resourceDocuments(text, file);
    return this.memory ? this.memory.resourceDocuments(text, file) : parseYamlDocuments(text, file);
  }

  /** The documents of a text a step reads, parsed once per build (with a cache, once per content); each call gets its own copy. */
  stepDocuments(text: string, file: string, options?: ParseOptions): Value[] {
    return this.memory ? this.memory.stepDocuments(text, file, options) : this.stepTexts.documents(text, file, options);
  }

  /**
   * The source of remote resources, made on first use; its requests stop when the build's signal
   * aborts, and it follows the lock file beside the kustomization built (see {@link lockRules}).
   */
  async remote(): Promise<RemoteSource> {
    this.filesDecide = false;
    if (!this.remoteSource) {
      const source = this.options.remote ?? (await defaultRemoteSource(this.options));
      const rules = this.lockRules();
      this.remoteSource = forBuild(rules ? followLock(source, rules) : source, this.signal, (input) => this.noteRemote(input));
    }
    return this.remoteSource;
  }

  /** Notes a remote input the build read, with what it resolved to. */
  noteRemote(input: RemoteInput): void {
    this.remoteInputs.set(lockKey(input), input);
  }

  /**
   * The lock the build follows: the lock file beside a local kustomization built (none for a
   * remote one, or when the options ignore it), read when the first remote input is.
   */
  lockRules(): LockRules | undefined {
    if (this.lock === undefined) this.lock = { rules: this.lockDir === undefined ? undefined : readLockRules(this.fs, this.lockDir, this.options.lock) };
    return this.lock.rules;
  }

  /** Notes the tree a loader is at, when the build fetched it; returns the loader. */
  opened(loader: Loader): Loader {
    if (loader.remote) this.fetchedTrees.push(loader.remote);
    return loader;
  }

  /**
   * An error as the build throws it: the file it names relative to the directory built, or, in
   * a tree the build fetched, to that tree's root with `remote` its URL.
   */
  placed(e: unknown): unknown {
    if (!(e instanceof KustomizeError) || e.file === undefined || !e.file.startsWith('/')) return e;
    return e.placedIn(this.shownPlace(e.file));
  }

  /** How the build names the absolute file `file`: relative to the directory built, or to the root of the fetched tree it is in. */
  private shownPlace(file: string): { file: string; remote?: string } {
    const tree = this.fetchedTrees.find((t) => isWithin(t.dir, file));
    return tree ? { file: relative(tree.dir, file), remote: tree.url } : { file: relative(this.buildDir, file) };
  }

  /** Removes what the build fetched. */
  cleanup(): void {
    this.remoteSource?.cleanup();
  }

  /** Whether origins are tracked at all (any buildMetadata entry turns tracking on, as in kustomize). */
  get trackOrigins(): boolean {
    return this.buildMetadata.length > 0;
  }

  /** Gives a warning or a notice to the caller (its file, when absolute, named as the build names files). */
  warn(note: BuildNote): void {
    const file = note.file;
    let shown = file?.startsWith('/') ? this.shownPlaces.get(file) : undefined;
    if (file?.startsWith('/') && !shown) this.shownPlaces.set(file, (shown = this.shownPlace(file)));
    const given = shown ? { ...note, ...shown } : note;
    if (isNotice(given)) this.notice?.(given);
    else this.options.warn?.(given);
    for (const notes of this.warningNotes) notes.push(given);
  }

  /** Where the values of a step's config are written (undefined when its file cannot be read again). */
  configText(step: LocatedStep): ConfigText | undefined {
    const start = this.configPositions.configValue(step, []);
    return start && { file: start.file, at: (path) => this.configPositions.configValue(step, path)?.at ?? start.at };
  }

  /**
   * The context a plugin runs in, reading through `loader`. A step's (`step`, where it was
   * configured) is where its builtin gives its notices: each is located there when given; and
   * `crds` are the `crds:` files its accumulation has when it runs (none: it runs on no accumulation).
   */
  pluginContext(loader: Loader, step?: LocatedStep, crds: () => readonly CrdsFile[] = noCrds): PluginContext {
    // (a context of no step, the build's finishing steps', gives its notices where nothing says where)
    const give = (notice: StepNotice) => this.warn(step ? locatedNotice(this.configPositions, step, notice) : { code: notice.code, message: notice.message, ...(notice.resource && { resource: notice.resource }) });
    const context: PluginContext = {
      loader,
      options: this.options,
      profile: this.profile,
      openapi: this.openapi,
      customResources: this.customTypes.forStep(crds, (list) => give(listReplacedNotice(step, list))),
      signal: this.signal,
      warn: (message) => this.warn({ code: 'PLUGIN_MESSAGE', message }),
      documents: (text, file, options) => this.stepDocuments(text, file, options),
    };
    if (step) this.builtins.notices.route(context, give);
    return context;
  }
}

function noCrds(): readonly CrdsFile[] {
  return [];
}
