import { throwIfAborted } from '../abort.js';
import { isNotice, type BuildNote, type Notice, type Warning } from '../errors.js';
import { defaultFileSystem } from '../fs/default-fs.js';
import type { FileSystem } from '../fs/filesystem.js';
import type { CrdsFile } from '../pipeline/custom-resource-types.js';
import { relative } from '../fs/path.js';
import { AccessLog } from '../fs/access-log.js';
import { RecordingFileSystem } from '../fs/recording-fs.js';
import type { RemoteInput } from '../load/remote/remote-source.js';
import type { Resource } from '../model/resource.js';
import { checkOptionNames, OPTION_NAMES, optionNames, resolveOptions, type GivenOptions, type ResolvedOptions } from '../options.js';
import type { PrintedBefore } from '../output/printed-before.js';
import { renderResources, type Rendered } from '../output/render.js';
import type { PluginRegistration } from '../plugins/plugin.js';
import type { BuildMemory } from '../pipeline/context.js';
import { runBuild } from '../pipeline/run.js';
import type { ResourceProvenance } from '../pipeline/provenance.js';
import type { BuildCache, RememberedBuild } from './build-cache.js';

/** What a build takes besides the {@link ResolvedOptions}. */
interface BuildOnlyOptions {
  /** in-process plugins, found by apiVersion and kind after the builtins and before the plugin home */
  plugins?: readonly PluginRegistration[];
  /** what the caller keeps between builds: an unchanged build is answered from it, parsed files are reused */
  cache?: BuildCache;
  /**
   * Stops the build: the processes it runs (plugins, functions, helm, git: their process groups
   * are killed), its HTTP and registry requests, and its wait for in-process plugins (which see
   * the signal as `ctx.signal`). A build whose signal aborts before it settles rejects with a
   * KustomizeError `ABORTED` whose `cause` is the signal's reason, once it has removed what it
   * fetched. A signal that has aborted already fails the build at once.
   */
  signal?: AbortSignal;
  /**
   * Records, for every value of the output, the step that wrote it and the file, line and
   * column of the text it came from, with the values before it (`explain`): in
   * `BuildResult.provenance`. Such a build does not use a `cache`.
   */
  provenance?: boolean;
}

/** Options of a build: any of the {@link ResolvedOptions} (the rest take their defaults), in-process plugins, a cache, a signal. */
export type BuildOptions = GivenOptions & BuildOnlyOptions;

/** The names `build()` accepts: any other is a mistake (in JavaScript, nothing else would say so). */
export const BUILD_OPTION_NAMES = [...OPTION_NAMES, ...optionNames<BuildOnlyOptions>({ plugins: true, cache: true, signal: true, provenance: true })];

/** The metadata of a {@link KubernetesObject}: what every printed object has, and the maps the build writes. */
export interface ObjectMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [field: string]: unknown;
}

/**
 * A Kubernetes object as the build prints it, as plain data: what YAML reads (integers past
 * 2^53 are bigints, which `JSON.stringify` refuses).
 */
export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export interface BuildResult {
  /**
   * The local files whose bytes the build read (kustomization files, resources, patches,
   * generator sources, plugin configs and scripts, catalogs…), relative to the directory built,
   * sorted. A file of a fetched tree is not among them: its reference is in `remote`.
   */
  inputs: string[];
  /**
   * the remote inputs the build read, each by type and reference as written with what it
   * resolved to (a git commit, an OCI digest, an HTTP file's sha256, a chart archive's digest):
   * what `lock()` writes
   */
  remote: RemoteInput[];
  /** with the `provenance` option: for each resource of the output, in output order, who wrote each of its values (see `explain`) */
  provenance?: ResourceProvenance[];
  /**
   * Whether `inputs` and `remote` (with the options) are all the output depends on: false when a
   * plugin ran that may read files the build does not see (an exec or container function, a
   * legacy plugin, an in-process plugin of the caller's). Builtins, helm and Starlark read
   * through the build.
   */
  inputsComplete: boolean;
  /** the objects the build prints, in output order: plain data, the caller's to change */
  objects: KubernetesObject[];
  /** the same as resources (ids, previous names, origins), with the annotations `buildMetadata` asked for */
  resources: Resource[];
  /** the YAML `kustomize build` prints */
  yaml: string;
  /** deprecations and other warnings: their messages are what kustomize prints to stderr */
  warnings: Warning[];
  /**
   * What the build noticed that kustomize passes over in silence (a patch target that selects
   * nothing…; see {@link Notice}): nothing is printed for them, `validate` reports them.
   */
  notices: Notice[];
}

/**
 * Builds the kustomization at `path`: what `kustomize build path` prints. Resolves relative
 * paths against `options.cwd` (default: the process's working directory on disk, `/` for a
 * custom file system). Each build has its own context: builds running at the same time in
 * one process share nothing but a `cache` the caller gives them.
 */
export async function build(path: string, options: BuildOptions = {}): Promise<BuildResult> {
  return (await recordedBuild(path, options, 'build()')).result;
}

/** A build's result, and what `validate` also reads of it. */
export interface RecordedBuild {
  result: BuildResult;
  /** the directory built (symlinks resolved): the files the result names are relative to it */
  buildDir: string;
  /** the `crds:` files the build read, with their texts */
  crds: readonly CrdsFile[];
  /** the output's resources themselves, not copies (a cache shares them, frozen): to read, never to change */
  resources: readonly Resource[];
}

/** {@link build}, with what the build read that its result does not say; `entry` names the caller in option errors. */
export async function recordedBuild(path: string, options: BuildOptions, entry: string): Promise<RecordedBuild> {
  checkOptionNames(options, BUILD_OPTION_NAMES, entry);
  const signal = options.signal;
  throwIfAborted(signal);
  let result: RecordedBuild;
  try {
    result = await buildOnce(path, options);
  } catch (e) {
    // whatever an abort made fail (a killed process, a cancelled request) is the abort
    throwIfAborted(signal);
    throw e;
  }
  // an abort while the build waited on nothing it could stop (only files and builtins) stops it too
  throwIfAborted(signal);
  return result;
}

async function buildOnce(path: string, options: BuildOptions): Promise<RecordedBuild> {
  const { cache, plugins = [], signal, ...rest } = options;
  // the warnings and notices in the order given: what a remembered build gives again
  const notes: BuildNote[] = [];
  const fs = options.fs ?? (await defaultFileSystem());
  const resolved = resolveOptions({
    ...rest,
    cwd: options.cwd ?? (options.fs ? '/' : process.cwd()),
    warn: (m) => {
      notes.push(m);
      options.warn?.(m);
    },
  });
  const run: BuildRun = { path, options: resolved, fs, plugins, signal, provenance: options.provenance === true, notice: (n) => notes.push(n) };
  if (!cache || run.provenance) {
    const log = new AccessLog(fs);
    const made = await renderedBuild({ ...run, fs: log });
    const record = { notes, inputs: relativeTo(made.buildDir, log.files), remote: made.remote, inputsComplete: made.inputsComplete, ...(made.provenance && { provenance: made.provenance }) };
    return { result: resultOf(made.rendered, record, { copied: false }), buildDir: made.buildDir, crds: made.crds, resources: made.rendered.resources };
  }
  const key = cache.keyOf(path, resolved, options.fs);
  const recalled = cache.recall(key, fs);
  if (recalled.answer) {
    const kept = recalled.answer;
    for (const m of kept.warnings) if (!isNotice(m)) options.warn?.(m);
    // a build is remembered only when its files decide it: it fetched nothing and ran no program
    const result = resultOf(kept, { notes: kept.warnings, inputs: relativeTo(kept.buildDir, kept.inputs.filesRead()), remote: [], inputsComplete: true }, { copied: true });
    return { result, buildDir: kept.buildDir, crds: kept.crds, resources: kept.resources };
  }
  const recording = new RecordingFileSystem(fs);
  const memory = cache.memory(recalled.bases, recording);
  let made: Awaited<ReturnType<typeof renderedBuild>>;
  try {
    made = await renderedBuild({ ...run, fs: recording }, memory, recalled.printedBefore);
  } catch (e) {
    // the bases it remembered before it failed are measured too
    cache.remember(key, recalled.bases, undefined);
    throw e;
  }
  const inputs = recording.record();
  const record = { notes, inputs: relativeTo(made.buildDir, inputs.filesRead()), remote: made.remote, inputsComplete: made.inputsComplete };
  const kept: RememberedBuild | undefined = made.filesDecide ? { ...made.rendered, buildDir: made.buildDir, inputs, warnings: [...notes], crds: made.crds } : undefined;
  cache.remember(key, recalled.bases, kept);
  // its resources share parts with the cache (frozen): the caller gets copies, as of a remembered build
  const rendered = kept ?? made.rendered;
  return { result: resultOf(rendered, record, { copied: true }), buildDir: made.buildDir, crds: made.crds, resources: rendered.resources };
}

/** Files a build read, relative to the directory it built, sorted. */
function relativeTo(buildDir: string, files: readonly string[]): string[] {
  return files.map((f) => relative(buildDir, f)).sort();
}

/**
 * What the caller gets of a build: the YAML, the warnings, and the resources and objects made
 * when first asked for (most callers want only the YAML). Resources a cache keeps (`copied`)
 * are copied; the objects are always copies.
 */
function resultOf(made: { resources: readonly Resource[]; yaml: string }, record: BuildRecord, how: { copied: boolean }): BuildResult {
  let resources: Resource[] | undefined = how.copied ? undefined : [...made.resources];
  let objects: KubernetesObject[] | undefined;
  return {
    yaml: made.yaml,
    warnings: record.notes.filter((n): n is Warning => !isNotice(n)),
    notices: record.notes.filter(isNotice),
    inputs: record.inputs,
    remote: record.remote,
    inputsComplete: record.inputsComplete,
    ...(record.provenance && { provenance: record.provenance }),
    get resources() {
      return (resources ??= made.resources.map((r) => r.clone()));
    },
    set resources(value) {
      resources = value;
    },
    get objects() {
      // structuredClone leaves out what only the build needs (marks on the maps), and thaws what a cache shares
      return (objects ??= made.resources.map((r) => structuredClone(r.view) as KubernetesObject));
    },
    set objects(value) {
      objects = value;
    },
  };
}

/** What a build says besides its output: its warnings and what it read. */
interface BuildRecord {
  /** its warnings and notices */
  notes: readonly BuildNote[];
  inputs: string[];
  remote: RemoteInput[];
  inputsComplete: boolean;
  provenance?: ResourceProvenance[];
}

/** What one build is asked. */
interface BuildRun {
  path: string;
  options: ResolvedOptions;
  fs: FileSystem;
  plugins: readonly PluginRegistration[];
  signal: AbortSignal | undefined;
  provenance: boolean;
  notice: (notice: Notice) => void;
}

/** The build, printed; `filesDecide` says whether its output depends on nothing but its files and options. */
async function renderedBuild(
  run: BuildRun,
  memory?: BuildMemory,
  printedBefore?: PrintedBefore,
): Promise<{ rendered: Rendered; filesDecide: boolean; inputsComplete: boolean; buildDir: string; remote: RemoteInput[]; crds: readonly CrdsFile[]; provenance?: ResourceProvenance[] }> {
  const made = await runBuild(run.path, run.options, run.fs, run.plugins, run.signal, memory, run.provenance, run.notice);
  const recorder = made.provenance?.recorder;
  recorder?.beforeStep(made.resources);
  const rendered = renderResources(
    made.resources,
    { originAnnotations: made.originAnnotations, transformerAnnotations: made.transformerAnnotations },
    printedBefore && ((r) => printedBefore.textOf(r)),
  );
  recorder?.afterStep(rendered.resources, () => made.provenance!.printing);
  const provenance = recorder && rendered.resources.map((r) => ({ ...idOf(r), fields: recorder.fieldsOf(r, r.view) }));
  return { rendered, filesDecide: made.filesDecide, inputsComplete: made.inputsComplete, buildDir: made.buildDir, remote: made.remote, crds: made.crds, ...(provenance && { provenance }) };
}

/** A resource's id as `explain` names it. */
function idOf(r: Resource): Omit<ResourceProvenance, 'fields'> {
  return { apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace, name: r.name };
}
