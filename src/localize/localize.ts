import { isMap, isSeq, parseAllDocuments, type Document, type YAMLMap } from 'yaml';
import { utf8DecodeStrict } from '../encoding/base64.js';
import { KustomizeError, messageOf, withErrorPrefix, wrapError } from '../errors.js';
import type { FileSystem } from '../fs/filesystem.js';
import { basename, dirname, isWithin, join, relative, resolve } from '../fs/path.js';
import { KustomizationDocument } from '../edit/kustomization-document.js';
import { parseFileSource } from '../filters/kv-pairs.js';
import { KUSTOMIZATION_FILE_NAMES, openBuildRoot, openTree } from '../load/entry.js';
import { cleanedAbs, Loader } from '../load/loader.js';
import { defaultRemoteSource } from '../load/remote/default-remote.js';
import { isHttpUrl, type RemoteSource } from '../load/remote/remote-source.js';
import { parseRepoSpec, type RepoSpec } from '../load/remote/repo-spec.js';
import { resourcesFromText } from '../model/resource-factory.js';
import { checkOptionNames, optionNames } from '../options.js';
import { defaultDestinationName, LOCALIZED_FILES, remoteFilePath, remoteRootPath } from './paths.js';
import { StagedTree } from './staged-tree.js';
import { eachScalar, rewriteScalar, type Rewrite } from './yaml-rewrite.js';

export interface LocalizeOptions {
  /** where the target is read and the copy written; relative paths resolve against `cwd` */
  fs: FileSystem;
  /** absolute; the default destination is made here */
  cwd: string;
  /** where git bases and HTTP files come from; by default `fetch` and the `git` executable */
  remote?: RemoteSource;
  /** `--scope`: the directory local references may not leave (default: the target) */
  scope?: string;
  /** the new directory, in an existing one (default: `localized-<target>` in `cwd`) */
  destination?: string;
}

const LOCALIZE_OPTION_NAMES = optionNames<LocalizeOptions>({ fs: true, cwd: true, remote: true, scope: true, destination: true });

const DEFAULT_CHART_HOME = 'charts';

/** Settings every kustomization of one run shares. */
interface Run {
  /** the output */
  fs: FileSystem;
  remote: () => Promise<RemoteSource>;
  scope: string;
  destination: string;
  out: StagedTree;
}

/**
 * `kustomize localize`: copies the kustomization at `target` (a directory, or a git URL with a
 * `ref`) into a new directory, with every file and kustomization it refers to, remote ones
 * (git bases, HTTP files) under `localized-files/` and the references to them rewritten, so
 * the copy builds offline to the same output. Returns the destination (absolute). Nothing is
 * written unless every reference could be copied.
 */
export async function localize(target: string, options: LocalizeOptions): Promise<string> {
  checkOptionNames(options, LOCALIZE_OPTION_NAMES, 'localize()');
  const { fs, cwd } = options;
  let fetched: RemoteSource | undefined;
  const remote = async () => (fetched ??= options.remote ?? (await defaultRemoteSource({ offline: false, remoteCache: undefined, warn: undefined })));
  try {
    const spec = parseRepoSpec(target);
    if (spec && spec.ref === '') throw new KustomizeError('REMOTE_INVALID', `localize remote root "${target}" missing ref query string parameter`);
    const { loader, repoDir } = await withErrorPrefix(`unable to establish localize target "${target}"`, () => targetLoader(target, spec, options, remote));
    const scope = establishScope(target, loader, repoDir, options);
    const destination = withErrorPrefix(`invalid localize destination "${options.destination ?? ''}"`, () => {
      const raw = options.destination || defaultDestinationName(loader.root, spec && { spec, atRepoRoot: loader.root === repoDir });
      const abs = resolve(cwd, raw);
      if (fs.exists(abs)) throw new KustomizeError('FILE_INVALID', `localize destination "${raw}" already exists`, { file: abs });
      const parent = dirname(abs);
      if (!fs.exists(parent) || !fs.isDirectory(parent)) {
        throw new KustomizeError('FILE_NOT_FOUND', `unable to create localize destination directory: mkdir ${raw}: no such file or directory`, { file: abs });
      }
      return join(fs.realPath(parent), basename(abs));
    });
    const run: Run = { fs, remote, scope, destination, out: new StagedTree(destination) };
    const dst = join(destination, relative(scope, loader.root));
    await withErrorPrefix(`unable to localize target "${target}"`, () => new RootLocalizer(run, loader, dst, repoDir === undefined).localize());
    run.out.commit(fs);
    return destination;
  } finally {
    fetched?.cleanup();
  }
}

async function targetLoader(target: string, spec: RepoSpec | undefined, options: LocalizeOptions, remote: () => Promise<RemoteSource>): Promise<{ loader: Loader; repoDir?: string }> {
  if (!spec) return { loader: Loader.atRoot(options.fs, target, 'rootOnly', options.cwd) };
  const loader = await openBuildRoot(target, options.fs, 'rootOnly', options.cwd, remote);
  return { loader, repoDir: repoDirOf(loader) };
}

/** The directory of the repository a loader of a git checkout is in, symlinks resolved. */
function repoDirOf(loader: Loader): string {
  return loader.fs.realPath(loader.containingRemote?.dir ?? loader.root);
}

/** The scope: the repository of a git target; else `--scope` (which must contain the target) or the target. */
function establishScope(target: string, loader: Loader, repoDir: string | undefined, options: LocalizeOptions): string {
  const raw = options.scope ?? '';
  const prefix = `invalid localize scope "${raw}"`;
  if (repoDir !== undefined) {
    if (raw !== '') throw new KustomizeError('USAGE', `${prefix}: scope "${raw}" specified for remote localize target "${target}"`);
    return repoDir;
  }
  if (raw === '') return loader.root;
  let scope: string;
  try {
    scope = options.fs.realPath(resolve(options.cwd, raw));
  } catch {
    throw new KustomizeError('FILE_NOT_FOUND', `${prefix}: unable to establish localize scope: evalsymlink failure on '${raw}' : '${raw}' doesn't exist`);
  }
  if (!options.fs.isDirectory(scope)) throw new KustomizeError('FILE_INVALID', `${prefix}: unable to establish localize scope: '${raw}' is not a directory`);
  if (!isWithin(scope, loader.root)) {
    throw new KustomizeError('LOAD_RESTRICTED', `${prefix}: localize scope "${raw}" does not contain target "${target}" at "${loader.root}"`);
  }
  return scope;
}

/**
 * Localizes one kustomization: copies what it refers to under `dst` (its place in the copy),
 * recursing into the kustomizations it refers to, and writes its rewritten kustomization file.
 */
class RootLocalizer {
  constructor(
    private readonly run: Run,
    private readonly loader: Loader,
    private readonly dst: string,
    /** whether this kustomization and all that lead to it are local (not in a git base): then the scope applies */
    private readonly local: boolean,
  ) {}

  async localize(): Promise<void> {
    const name = KUSTOMIZATION_FILE_NAMES.find((n) => this.loader.fs.exists(this.loader.absolute(n)));
    if (!name) {
      throw new KustomizeError('KUSTOMIZATION_NOT_FOUND', `unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory '${this.loader.root}'`, {
        file: this.loader.root,
      });
    }
    const doc = KustomizationDocument.parse(this.loader.loadText(name), this.loader.absolute(name));
    await this.localizeFields(doc);
    this.run.out.writeFile(join(this.dst, name), doc.toString());
  }

  private async localizeFields(doc: KustomizationDocument): Promise<void> {
    const file: Rewrite = (p) => this.localizeFile(p);
    const root: Rewrite = (p) => this.localizeRoot(p);
    await withErrorPrefix('unable to localize openapi path', () => rewriteScalar(doc.mapNode('openapi'), 'path', file));
    const lists: [string, 'bases' | 'components' | 'configurations' | 'crds' | 'resources', Rewrite][] = [
      ['bases', 'bases', root],
      ['components', 'components', root],
      ['configurations', 'configurations', file],
      ['crds', 'crds', file],
      ['resources', 'resources', (p) => this.localizeResource(p)],
    ];
    for (const [name, field, rewrite] of lists) await withErrorPrefix(`unable to localize ${name} entry`, () => eachScalar(doc.seqNode(field), rewrite));
    for (const field of ['configMapGenerator', 'secretGenerator'] as const) {
      for (const generator of maps(doc.seqNode(field))) await withErrorPrefix(`unable to localize ${field}`, () => this.localizeGenerator(generator));
    }
    await this.localizeHelm(doc);
    for (const field of ['patches', 'patchesJson6902'] as const) {
      for (const patch of maps(doc.seqNode(field))) await withErrorPrefix(`unable to localize ${field}`, () => rewriteScalar(patch, 'path', file));
    }
    await withErrorPrefix('unable to localize patchesStrategicMerge entry', () => eachScalar(doc.seqNode('patchesStrategicMerge'), (p) => this.localizeK8sResource(p)));
    for (const replacement of maps(doc.seqNode('replacements'))) await withErrorPrefix('unable to localize replacements entry', () => rewriteScalar(replacement, 'path', file));
    for (const field of ['generators', 'transformers', 'validators'] as const) {
      await eachScalar(doc.seqNode(field), (entry) => this.localizePluginEntry(field, entry));
    }
  }

  private async localizeGenerator(generator: YAMLMap): Promise<void> {
    await withErrorPrefix('unable to localize generator env file', () => rewriteScalar(generator, 'env', (p) => this.localizeFile(p)));
    const envs = generator.get('envs', true);
    await withErrorPrefix('unable to localize generator envs file', () => eachScalar(isSeq(envs) ? envs : undefined, (p) => this.localizeFile(p)));
    const files = generator.get('files', true);
    await eachScalar(isSeq(files) ? files : undefined, (s) => this.localizeFileSource(s));
  }

  /** A generator's `files:` entry, `path` or `key=path`. */
  async localizeFileSource(source: string): Promise<string> {
    const [key, path] = parseFileSource(source);
    const localized = await withErrorPrefix(`invalid file source "${source}"`, () => this.localizeFile(path));
    return source === path ? localized : `${key}=${localized}`;
  }

  private async localizeHelm(doc: KustomizationDocument): Promise<void> {
    for (const [i, chart] of maps(doc.seqNode('helmChartInflationGenerator')).entries()) {
      await withErrorPrefix(`unable to localize helmChartInflationGenerator entry ${i} values`, () => rewriteScalar(chart, 'values', (p) => this.localizeFile(p)));
      await withErrorPrefix(`unable to copy helmChartInflationGenerator entry ${i}`, () => this.localizeChartHome(chart, 'chartHome'));
    }
    const charts = maps(doc.seqNode('helmCharts'));
    for (const [i, chart] of charts.entries()) {
      await withErrorPrefix(`unable to localize helmCharts entry ${i} valuesFile`, () => rewriteScalar(chart, 'valuesFile', (p) => this.localizeFile(p)));
      const additional = chart.get('additionalValuesFiles', true);
      await withErrorPrefix(`unable to localize helmCharts entry ${i} additionalValuesFiles`, () =>
        eachScalar(isSeq(additional) ? additional : undefined, (p) => this.localizeFile(p)),
      );
    }
    const globals = doc.mapNode('helmGlobals');
    if (globals) await withErrorPrefix('unable to copy helmGlobals', () => this.localizeChartHome(globals, 'chartHome'));
    else if (charts.length > 0) await withErrorPrefix('unable to copy default chart home', () => this.copyChartHomeEntry(''));
  }

  /** A chart home field: the directory copied (the default home when the field is absent). */
  async localizeChartHome(map: YAMLMap, key: string): Promise<void> {
    if (map.has(key)) await rewriteScalar(map, key, (p) => this.copyChartHomeEntry(p));
    else await this.copyChartHomeEntry('');
  }

  /**
   * Copies a chart home (`''` for the default, `charts`) to the same place in the copy, if it
   * exists: it may be where helm is to pull charts into. Returns the entry to write.
   */
  async copyChartHomeEntry(entry: string): Promise<string> {
    const path = entry || DEFAULT_CHART_HOME;
    if (path.startsWith('/')) throw new KustomizeError('FILE_INVALID', `absolute path "${path}" not handled in alpha`);
    const isDefault = this.loader.absolute(path) === this.loader.absolute(DEFAULT_CHART_HOME);
    const copied = withErrorPrefix(`unable to copy home "${entry}"`, () => this.copyChartHome(path, !isDefault));
    return entry === '' ? '' : copied;
  }

  private copyChartHome(path: string, clean: boolean): string {
    const rel = relative(this.loader.root, this.loader.absolute(path));
    if (!this.loader.fs.exists(this.loader.absolute(rel))) return rel;
    const home = withErrorPrefix('invalid chart home', () => this.childLoader(rel));
    const toDst = clean ? relative(this.loader.root, home.root) : rel;
    const dst = join(this.dst, toDst);
    if (!this.run.out.has(dst)) this.copyDir(home.root, dst);
    return toDst;
  }

  /** Copies a directory, leaving out symbolic links. */
  private copyDir(src: string, dst: string): void {
    const fs = this.loader.fs;
    this.run.out.mkdirAll(dst);
    for (const name of fs.readDir(src)) {
      const path = join(src, name);
      if (fs.realPath(path) !== path) continue;
      if (fs.isDirectory(path)) this.copyDir(path, join(dst, name));
      else this.run.out.writeFile(join(dst, name), fs.readFile(path));
    }
  }

  /** A `resources:` entry: a resource file (local or HTTP), else a kustomization (local or git). */
  async localizeResource(path: string): Promise<string> {
    let fileError: unknown;
    try {
      const content = await this.load(path);
      try {
        resourcesFromText(decode(content, path), path);
      } catch (e) {
        throw wrapError(e, `invalid resource at file "${path}"`);
      }
      return this.writeFile(path, content);
    } catch (e) {
      fileError = e;
    }
    try {
      return await this.localizeRoot(path);
    } catch (rootError) {
      throw new KustomizeError(
        rootError instanceof KustomizeError ? rootError.code : 'FILE_NOT_FOUND',
        `could not localize path "${path}" as file: ${messageOf(fileError)}; could not localize path "${path}" as directory: ${messageOf(rootError)}`,
        { file: path, cause: rootError },
      );
    }
  }

  /** A file reference, copied; `''` (an unset optional path) stays empty. */
  async localizeFile(path: string): Promise<string> {
    if (path === '') return '';
    return this.writeFile(path, await this.load(path));
  }

  /** A `patchesStrategicMerge` entry: a file copied, or an inline patch kept. */
  async localizeK8sResource(entry: string): Promise<string> {
    return isInlineYaml(entry) ? entry : this.localizeFile(entry);
  }

  /** A `generators`/`transformers`/`validators` entry: the paths inside builtin plugin configs localized, inline or in a file. */
  async localizePluginEntry(field: string, entry: string): Promise<string> {
    const bytes = isInlineYaml(entry) ? undefined : await withErrorPrefix(`unable to load ${field} entry`, () => this.load(entry));
    const text = bytes ? decode(bytes, entry) : entry;
    const docs = parseAllDocuments(text, { version: '1.1' });
    if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) throw new KustomizeError('YAML_INVALID', `unable to load ${field} entry "${entry}": invalid YAML`, { file: entry });
    for (const doc of docs) await this.localizeBuiltinPlugin(doc);
    const localized = docs.map((d) => d.toString({ lineWidth: 0 })).join('');
    if (!bytes) return localized;
    return withErrorPrefix(`unable to localize ${field} entry`, () => this.writeFile(entry, localized === text ? bytes : localized));
  }

  /** The paths kustomize's builtin plugins read, in a plugin config (`apiVersion: builtin`). */
  private async localizeBuiltinPlugin(doc: Document): Promise<void> {
    const config = doc.contents;
    if (!isMap(config)) return;
    const apiVersion = String(config.get('apiVersion') ?? '');
    if (apiVersion.split('/').pop() !== 'builtin') return;
    const kind = String(config.get('kind') ?? '');
    const file: Rewrite = (p) => this.localizeFile(p);
    const all = async (key: string, rewrite: Rewrite) => {
      const node = config.get(key, true);
      if (isSeq(node)) await eachScalar(node, rewrite);
      else await rewriteScalar(config, key, rewrite);
    };
    const prefix = `plugin ${kind}`;
    switch (kind) {
      case 'ConfigMapGenerator':
      case 'SecretGenerator':
        await all('env', file);
        await all('envs', file);
        await all('files', (s) => this.localizeFileSource(s));
        return;
      case 'HelmChartInflationGenerator':
        await all('valuesFile', file);
        await all('additionalValuesFiles', file);
        await withErrorPrefix(prefix, () => this.localizeChartHome(config, 'chartHome'));
        return;
      case 'PatchTransformer':
      case 'PatchJson6902Transformer':
        await all('path', file);
        return;
      case 'ReplacementTransformer':
        for (const replacement of maps(config.get('replacements', true))) await rewriteScalar(replacement, 'path', file);
        return;
      case 'PatchStrategicMergeTransformer':
        await all('paths', (p) => this.localizeK8sResource(p));
        return;
    }
  }

  /** A kustomization reference (local or git), localized in turn; returns where it went, relative to this one. */
  async localizeRoot(path: string): Promise<string> {
    if (path === '') return '';
    const spec = parseRepoSpec(path);
    if (!spec) {
      const child = withErrorPrefix('invalid root reference', () => this.childLoader(path));
      const locPath = relative(this.loader.root, child.root);
      await withErrorPrefix(`unable to localize root "${path}"`, () => new RootLocalizer(this.run, child, join(this.dst, locPath), this.local).localize());
      return locPath;
    }
    if (spec.ref === '') throw new KustomizeError('REMOTE_INVALID', `localize remote root "${path}" missing ref query string parameter`);
    this.refuseLocalizedFiles(`root "${path}"`);
    const child = await withErrorPrefix('invalid root reference', () => openTree({ type: 'git', url: path, repo: spec }, this.loader, this.run.remote));
    const locPath = remoteRootPath(spec, relative(repoDirOf(child), child.root));
    await withErrorPrefix(`unable to localize root "${path}"`, () => new RootLocalizer(this.run, child, join(this.dst, locPath), false).localize());
    return locPath;
  }

  /** A loader for a local directory reference, inside the scope and outside the destination. */
  private childLoader(path: string): Loader {
    const child = this.loader.child(path);
    if (this.local && !isWithin(this.run.scope, child.root)) {
      throw new KustomizeError('LOAD_RESTRICTED', `root "${child.root}" outside localize scope "${this.run.scope}"`, { file: path });
    }
    if (this.local && isWithin(this.run.destination, child.root)) {
      throw new KustomizeError('LOAD_RESTRICTED', `root "${child.root}" references into localize destination "${this.run.destination}"`, { file: path });
    }
    return child;
  }

  /** A file's content: fetched for a URL, else read within this kustomization's directory. */
  private async load(path: string): Promise<Uint8Array> {
    if (isHttpUrl(path)) {
      try {
        return await (await this.run.remote()).fetchFile(path);
      } catch (e) {
        throw new KustomizeError('REMOTE_FAILED', `invalid file reference: ${messageOf(e)}`, { file: path, cause: e });
      }
    }
    const content = withErrorPrefix('invalid file reference', () => this.loader.load(path));
    if (this.local) {
      const clean = cleanedAbs(this.loader.fs, this.loader.absolute(path));
      if (isWithin(this.run.destination, dirname(clean))) {
        throw new KustomizeError('LOAD_RESTRICTED', `file "${path}" at "${clean}" enters localize destination "${this.run.destination}"`, { file: path });
      }
    }
    return content;
  }

  /** Stages a file's copy; returns its path relative to this kustomization. */
  private writeFile(path: string, content: Uint8Array | string): string {
    let locPath: string;
    if (isHttpUrl(path)) {
      this.refuseLocalizedFiles(`file "${path}"`);
      locPath = remoteFilePath(path);
    } else {
      // the path cleaned of symlinks and detours (`../dir/file` back into the root): the copy has neither
      locPath = relative(this.loader.root, cleanedAbs(this.loader.fs, this.loader.absolute(path)));
    }
    this.run.out.writeFile(join(this.dst, locPath), content);
    return locPath;
  }

  /** Remote copies go to `localized-files/`, which must not already be there. */
  private refuseLocalizedFiles(what: string): void {
    if (this.loader.fs.exists(join(this.loader.root, LOCALIZED_FILES))) {
      throw new KustomizeError('FILE_INVALID', `${this.loader.root} already contains ${LOCALIZED_FILES} needed to store ${what}`);
    }
  }
}

function maps(node: unknown): YAMLMap[] {
  return isSeq(node) ? node.items.filter((i): i is YAMLMap => isMap(i)) : [];
}

/** Whether an entry is YAML text (a mapping) rather than a path. */
function isInlineYaml(entry: string): boolean {
  const docs = parseAllDocuments(entry);
  return Array.isArray(docs) && docs.length > 0 && docs.every((d) => d.errors.length === 0 && (isMap(d.contents) || d.contents === null)) && docs.some((d) => isMap(d.contents));
}

function decode(content: Uint8Array, path: string): string {
  const text = utf8DecodeStrict(content);
  if (text === undefined) throw new KustomizeError('FILE_INVALID', `'${path}' is not UTF-8 text`, { file: path });
  return text;
}
