import { KustomizeError } from '../errors.js';
import { requireNode } from '../host.js';
import type { Loader } from '../load/loader.js';
import type { Resource } from '../model/resource.js';
import type { ResolvedOptions } from '../options.js';
import type { Plugin, PluginContext } from '../plugins/plugin.js';
import type { PluginResolver } from '../plugins/resolver.js';
import { StarlarkFunction } from '../plugins/starlark-function.js';
import type { CatalogFunction, ContainerRuntime, FunctionVersion } from './catalog.js';
import type { CatalogStore, LoadedCatalog } from './catalog-store.js';
import { FunctionConfigError } from './config-error.js';
import { chooseRuntime } from './runtime-choice.js';

/** A `catalogs:` entry, with the loader of the layer (Kustomization, Component, Composition) that lists it. */
export interface CatalogEntry {
  reference: string;
  loader: Loader;
}

/** A Starlark script a catalog names, fetched. */
interface StarlarkScript {
  /** as the catalog wrote it */
  uri: string;
  source: string;
  /** the catalog's reference, for messages */
  catalog: string;
}

/** Runs Starlark functions: the Starlark runtime, given to the resolver by the build. */
export type StarlarkRunner = (script: StarlarkScript, config: Resource, configuredIn: string, ctx: PluginContext) => Plugin | Promise<Plugin>;

/** What a config resolved to in a catalog. */
interface CatalogMatch {
  catalog: LoadedCatalog;
  fn: CatalogFunction;
  version: FunctionVersion;
}

/**
 * Resolves plugin configs through one layer's catalogs (KEP-2906): the catalogs are fetched
 * in order, only as far as needed, and the first function whose `group`, `names.kind` and a
 * version name match the config's apiVersion and kind configures it. Its catalog must be
 * trusted (`--trusted-catalog`); trust then stands in for `--enable-alpha-plugins` and
 * `--enable-exec`, while a function that needs the network or a mount still needs `--network`
 * or `--mount`. All of that, the config against its version's schema, and an exec program's
 * digest, are checked before anything runs.
 */
export class CatalogResolver implements PluginResolver {
  readonly description: string;

  constructor(
    readonly entries: readonly CatalogEntry[],
    private readonly store: CatalogStore,
    private readonly runStarlark?: StarlarkRunner,
  ) {
    this.description = `catalogs ${entries.map((e) => e.reference).join(', ')}`;
  }

  async resolve(config: Resource, configuredIn: string, ctx: PluginContext): Promise<Plugin | undefined> {
    const match = await this.find(config);
    if (!match) return undefined;
    const describe = `function ${config.apiVersion} ${config.kind}${configuredIn ? ` (configured in ${configuredIn})` : ''}`;
    checkTrusted(match.catalog, ctx.options, describe);
    await checkConfig(config, configuredIn, match);
    const runtime = chooseRuntime(match.version.runtime, describe);
    if ('starlark' in runtime) return this.starlark(runtime.starlark, match.catalog, config, configuredIn, ctx, describe);
    if ('container' in runtime) checkContainerNeeds(runtime.container, ctx.options, describe);
    // running processes needs Node: loaded only when a catalog function runs
    const catalogProcessPlugin = await requireNode(
      async () => (await import('./process-plugin.js')).catalogProcessPlugin,
      { feature: `${describe} from catalog '${match.catalog.reference.raw}'`, needs: `runs ${'container' in runtime ? 'a container' : 'a program'}` },
      { file: configuredIn, field: 'kind' },
    );
    return catalogProcessPlugin(runtime, { config, configuredIn, catalog: match.catalog, ctx, describe });
  }

  /** The first function of the catalogs, in order, that configures `config`; catalogs after it are not fetched. */
  async find(config: Resource): Promise<CatalogMatch | undefined> {
    const { group, version } = splitApiVersion(config.apiVersion);
    for (const entry of this.entries) {
      const catalog = await this.store.load(entry.reference, entry.loader);
      for (const fn of catalog.catalog.spec.krmFunctions) {
        if (fn.group !== group || fn.names.kind !== config.kind) continue;
        const v = fn.versions.find((x) => x.name === version);
        if (v) return { catalog, fn, version: v };
      }
    }
    return undefined;
  }

  private async starlark(uri: string, catalog: LoadedCatalog, config: Resource, configuredIn: string, ctx: PluginContext, describe: string): Promise<Plugin> {
    if (!this.runStarlark) {
      throw new KustomizeError('PLUGIN_NOT_FOUND', `${describe}: catalog '${catalog.reference.raw}' runs it on Starlark, and this build has no Starlark runtime`);
    }
    const source = new TextDecoder().decode(await catalog.readUri(uri, describe));
    return this.runStarlark({ uri, source, catalog: catalog.reference.raw }, config, configuredIn, ctx);
  }
}

/** Runs a catalog's Starlark script with the in-process interpreter (loaded only by a build that runs Starlark). */
export const inProcessStarlark: StarlarkRunner = (script, config, configuredIn) =>
  new StarlarkFunction(config, { source: script.source, name: script.uri }, configuredIn);

/** Whether `--trusted-catalog` names the catalog: its reference exactly as written, or its `metadata.name`. */
function isTrusted(catalog: LoadedCatalog, trusted: readonly string[] | undefined): boolean {
  const name = catalog.catalog.metadata?.name;
  return (trusted ?? []).some((t) => t === catalog.reference.raw || (name !== undefined && name !== '' && t === name));
}

/** `catalog 'catalog.yaml' (example-co-functions)`: a catalog as messages name it. */
function catalogNamed(catalog: LoadedCatalog): string {
  const name = catalog.catalog.metadata?.name;
  return `catalog '${catalog.reference.raw}'${name ? ` (${name})` : ''}`;
}

function checkTrusted(catalog: LoadedCatalog, options: Readonly<ResolvedOptions>, describe: string): void {
  if (isTrusted(catalog, options.trustedCatalogs)) return;
  const raw = catalog.reference.raw;
  const name = catalog.catalog.metadata?.name;
  throw new KustomizeError(
    'CATALOG_UNTRUSTED',
    `${describe} comes from ${catalogNamed(catalog)}, which is not trusted; ` +
      `review it with '${options.programName} catalog view ${raw}', then trust it with --trusted-catalog ${raw}${name ? ` or --trusted-catalog ${name}` : ''}`,
    { remote: raw },
  );
}

/**
 * The config against its function version's `openAPIV3Schema` (a version without one takes any
 * config): what it refuses is FUNCTION_CONFIG_INVALID, before the function is started.
 */
async function checkConfig(config: Resource, configuredIn: string, match: CatalogMatch): Promise<void> {
  const violations = (await match.catalog.configSchema(match.fn, match.version))?.violations(config.view) ?? [];
  if (violations.length === 0) return;
  throw new FunctionConfigError(violations, { config, configuredIn, schema: `${config.apiVersion} ${config.kind} in ${catalogNamed(match.catalog)}` });
}

function checkContainerNeeds(container: ContainerRuntime, options: Readonly<ResolvedOptions>, describe: string): void {
  if (container.requireNetwork && !options.network) {
    throw new KustomizeError('PLUGIN_DISABLED', `${describe} requires network access (requireNetwork); allow it with --network`);
  }
  if (container.requireStorageMount && !(options.mounts && options.mounts.length > 0)) {
    throw new KustomizeError('PLUGIN_DISABLED', `${describe} requires a storage mount (requireStorageMount); give one with --mount`);
  }
}

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
