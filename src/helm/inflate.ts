import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { KustomizeError, messageOf } from '../errors.js';
import type { FileSystem } from '../fs/filesystem.js';
import type { BuildRemoteInputs } from '../load/remote/locked-source.js';
import { isHttpUrl } from '../load/remote/remote-source.js';
import { sha256Digest } from '../oci/digest.js';
import { readTreeArchive } from '../oci/tar.js';
import { parseYamlDocument } from '../yaml/parse.js';
import { isMap } from '../yaml/value.js';
import { resourcesFromText } from '../model/resource-factory.js';
import type { Resource } from '../model/resource.js';
import type { PluginContext } from '../plugins/plugin.js';
import { absChartHome, type ResolvedHelmChart } from './chart-config.js';
import { HelmCommand } from './helm-command.js';
import { chartDir, pullArgs, templateArgs } from './helm-args.js';
import { inlineValuesFile } from './values.js';

/**
 * Inflates one chart the way kustomize's HelmChartInflationGenerator does, with the real helm:
 *
 * 1. check that the command is helm 3 (or 4);
 * 2. use the chart at `<chart home>/<name>` if that directory exists, else `helm pull` it from
 *    `repo` into the chart home (`<chart home>/<name>-<version>/<name>` when a version is set),
 *    keeping its archive beside it; a chart with a repo and an archive there is checked against
 *    the build's lock and noted;
 * 3. write the values to a file of a temporary directory: the `valuesFile` as it is, or the
 *    merge of it with `valuesInline` (a values file over HTTP(S) is fetched by the build: see
 *    {@link fetchValuesFile});
 * 4. `helm template` with kustomize's arguments, and read what it prints as resources.
 *
 * helm gets HELM_CONFIG_HOME=`configHome` (default: `<temp dir>/helm`) and its cache and data
 * homes below it. The temporary directory is removed afterwards.
 */
export async function inflateChart(c: ResolvedHelmChart, ctx: PluginContext, inputs: BuildRemoteInputs): Promise<Resource[]> {
  if (!ctx.loader.fs.isTheDisk) {
    throw new KustomizeError(
      'PLUGIN_FAILED',
      `helm chart '${c.name}': helm works on files on the disk; build with the disk file system (the default) to inflate charts`,
    );
  }
  const tmp = mkdtempSync(join(tmpdir(), 'kustomize-helm-'));
  try {
    const helm = new HelmCommand(c.command, c.configHome || join(tmp, 'helm'), ctx.options.pluginTimeout, ctx.options.cwd ?? process.cwd(), ctx.signal);
    await helm.checkVersion();
    if (!isDirectory(chartDir(c))) {
      // kustomize names no path here (its lookup returns none when the chart is missing)
      if (!c.repo) throw new KustomizeError('FILE_NOT_FOUND', "no repo specified for pull, no chart found at ''");
      await pullChart(c, helm, join(tmp, 'pulled'));
    }
    if (c.repo) await checkPulledChart(c, c.repo, ctx.loader.fs, inputs);
    readChart(ctx.loader.fs, chartDir(c));
    const valuesPath = join(tmp, `${c.name}-kustomize-values.yaml`);
    writeValuesFile(valuesPath, await valuesFileContent(c, ctx, inputs));
    const additionalValuesFiles = await fetchedValuesFiles(c.additionalValuesFiles, inputs, join(tmp, 'additional'));
    const stdout = await helm.run(templateArgs({ ...c, additionalValuesFiles }, valuesPath));
    return parseTemplateOutput(stdout, c.name);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * kustomize's `helm pull --untar` into the chart home, in two steps so that the archive is kept:
 * `helm pull` of the archive into `dir`, moved into the chart home (where `helm pull --untar`
 * leaves an empty directory of the archive's name), then unpacked beside it, refusing paths that
 * leave it.
 */
async function pullChart(c: ResolvedHelmChart, helm: HelmCommand, dir: string): Promise<void> {
  mkdirSync(dir);
  await helm.run(pullArgs(c, dir));
  const archives = readdirSync(dir).filter((name) => name.endsWith('.tgz'));
  if (archives.length !== 1) throw new KustomizeError('PLUGIN_FAILED', `helm pull of chart '${c.name}' left ${archives.length} archives, not one: ${archives.join(', ')}`);
  const home = absChartHome(c, c.root);
  mkdirSync(home, { recursive: true });
  const archive = join(home, archives[0]!);
  // (what `helm pull --untar` left there: an empty directory of that name)
  rmSync(archive, { recursive: true, force: true });
  renameSync(join(dir, archives[0]!), archive);
  for (const file of await readTreeArchive(readFileSync(archive), `chart '${c.name}' from '${c.repo}'`)) {
    const path = join(home, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.bytes, { mode: file.executable ? 0o755 : 0o644 });
  }
}

/**
 * A chart pulled from its repository as an input of the build: its archive is kept beside the
 * chart (`<chart home>/<name>-<version>.tgz`, the version its Chart.yaml gives), whose digest is checked against the lock (LOCK_MISMATCH when it pins another archive
 * for the chart and version as written) and noted. A chart with no archive beside it was not
 * pulled (it is the user's files): no remote input.
 */
async function checkPulledChart(c: ResolvedHelmChart, repo: string, fs: FileSystem, inputs: BuildRemoteInputs): Promise<void> {
  const version = chartVersion(fs, join(chartDir(c), 'Chart.yaml'));
  const archive = join(absChartHome(c, c.root), `${c.name}-${version}.tgz`);
  if (version === undefined || !fs.exists(archive)) return;
  const digest = await sha256Digest(fs.readFile(archive));
  const name = { type: 'helm', url: repo, chart: c.name, version: c.version ?? '' } as const;
  const rules = inputs.lock();
  const pin = rules?.pin(name);
  if (pin && pin.digest !== digest) throw rules!.mismatch(pin, digest, ` (${archive}: the chart was published again; remove the chart home's copy to pull it anew)`);
  inputs.note({ ...name, digest });
}

/** The `version` a Chart.yaml gives, if it reads. */
function chartVersion(fs: FileSystem, file: string): string | undefined {
  try {
    const doc = parseYamlDocument(new TextDecoder().decode(fs.readFile(file)), file);
    const version = isMap(doc) ? doc['version'] : undefined;
    return typeof version === 'string' || typeof version === 'number' ? String(version) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads every file of the chart's directory through the build's file system, as helm will read
 * them: so the build's inputs (and a cache's record) name them. helm's loader follows symlinks,
 * to files and to directories, and reads them by the link's path; so does this, stopping at a
 * directory that is its own ancestor (helm fails on such a loop). Only regular files are read (a
 * FIFO would block; helm refuses it), and one that cannot be read is left for helm to report.
 */
function readChart(fs: FileSystem, dir: string, ancestors: ReadonlySet<string> = new Set()): void {
  const real = realPathOrUndefined(fs, dir);
  if (real === undefined || ancestors.has(real)) return;
  const within = new Set(ancestors).add(real);
  for (const name of fs.readDir(dir)) {
    const path = join(dir, name);
    if (fs.isDirectory(path)) readChart(fs, path, within);
    else if (isRegularFile(fs, path)) {
      try {
        fs.readFile(path);
      } catch {
        // helm reports it, in its words
      }
    }
  }
}

function realPathOrUndefined(fs: FileSystem, path: string): string | undefined {
  try {
    return fs.realPath(path);
  } catch {
    return undefined;
  }
}

/** Whether `path`, its symlinks followed, is a regular file (true when the file system cannot tell). */
function isRegularFile(fs: FileSystem, path: string): boolean {
  if (!fs.entryType) return true;
  const type = fs.entryType(path);
  if (type !== 'symlink') return type === 'file';
  const real = realPathOrUndefined(fs, path);
  return real !== undefined && fs.entryType(real) === 'file';
}

/** The values helm gets: the values file copied, or merged with `valuesInline` when there are inline values. */
async function valuesFileContent(c: ResolvedHelmChart, ctx: PluginContext, inputs: BuildRemoteInputs): Promise<string | Uint8Array> {
  const load = (path: string) => (isHttpUrl(path) ? fetchValuesFile(path, inputs) : ctx.loader.load(path));
  const inline = c.valuesInline ?? {};
  if (Object.keys(inline).length === 0) return load(c.valuesFile);
  const text = c.valuesMerge === 'replace' ? undefined : new TextDecoder().decode(await load(c.valuesFile));
  return inlineValuesFile(inline, c.valuesMerge, text, c.valuesFile, ctx.openapi.schema());
}

function writeValuesFile(path: string, values: string | Uint8Array): void {
  try {
    writeFileSync(path, values);
  } catch (e) {
    throw new KustomizeError('PLUGIN_FAILED', `failed to write values file: ${messageOf(e)}`, { cause: e });
  }
}

/**
 * The additional values files as helm gets them: a path as it is; an http(s) URL fetched by the
 * build and written into `dir` (kustomize joins a URL to the kustomization's directory, and helm
 * then finds no such file).
 */
async function fetchedValuesFiles(files: readonly string[], inputs: BuildRemoteInputs, dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const [i, file] of files.entries()) {
    if (!isHttpUrl(file)) {
      out.push(file);
      continue;
    }
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${i}.yaml`);
    writeValuesFile(path, await fetchValuesFile(file, inputs));
    out.push(path);
  }
  return out;
}

/**
 * A values file over HTTP(S), like kustomize's loader reads it, through the build's remote
 * source: so it is a remote input of the build, locked by its sha256, checked against the lock
 * and kept in the remote cache by it.
 */
async function fetchValuesFile(url: string, inputs: BuildRemoteInputs): Promise<Uint8Array> {
  try {
    return await (await inputs.remote()).fetchFile(url);
  } catch (e) {
    if (e instanceof KustomizeError) throw e;
    throw new KustomizeError('REMOTE_FAILED', `Get "${url}": ${messageOf(e)}`, { cause: e });
  }
}

/**
 * helm's output as resources (comments and empty documents dropped, lists expanded). Should
 * helm print something before the first document separator, that part is left out.
 */
function parseTemplateOutput(stdout: string, chart: string): Resource[] {
  const source = `helm template output of chart '${chart}'`;
  try {
    return resourcesFromText(stdout, source);
  } catch (e) {
    const i = stdout.indexOf('\n---\n');
    if (i >= 0) {
      try {
        return resourcesFromText(stdout.slice(i + 1), source);
      } catch {
        // report the first problem
      }
    }
    throw new KustomizeError(e instanceof KustomizeError ? e.code : 'RESOURCE_INVALID', `could not parse bytes into resource map: ${messageOf(e)}`, { cause: e });
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
