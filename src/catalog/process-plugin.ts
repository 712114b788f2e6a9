import type { Resource } from '../model/resource.js';
import { containerFunction, KrmFunction } from '../plugins/krm-function.js';
import type { Plugin, PluginContext } from '../plugins/plugin.js';
import { KustomizeError } from '../errors.js';
import { normalizeSha256, type ContainerRuntime } from './catalog.js';
import type { LoadedCatalog } from './catalog-store.js';
import { cacheDirectory, executablePath } from './exec-binary.js';
import type { ChosenRuntime } from './runtime-choice.js';

interface CatalogStep {
  config: Resource;
  configuredIn: string;
  catalog: LoadedCatalog;
  ctx: PluginContext;
  /** names the function in messages */
  describe: string;
}

/**
 * The KRM function a trusted catalog's container or exec runtime runs: a container pinned to
 * the catalog's digest (an image by tag alone runs as the build's lock has it), or the exec
 * program fetched, verified and cached (before this returns, so a bad digest stops the build
 * before any step runs).
 */
export async function catalogProcessPlugin(runtime: Exclude<ChosenRuntime, { starlark: string }>, step: CatalogStep): Promise<Plugin> {
  const { config, configuredIn, ctx, describe } = step;
  if ('container' in runtime) {
    const c = runtime.container;
    const container = { image: pinnedImage(c, describe), ...(c.requireNetwork && { network: true }) };
    return containerFunction(config, container, configuredIn, step.catalog.runsImage, { trusted: true });
  }
  const path = await executablePath({ platform: runtime.exec, catalog: step.catalog, describe }, cacheDirectory(ctx.options.cacheDir));
  return new KrmFunction(config, { exec: { path } }, configuredIn, { trusted: true });
}

/** The image a container runtime runs: pinned `image@sha256:…` when the catalog gives a digest. */
function pinnedImage(container: ContainerRuntime, describe: string): string {
  if (container.sha256 === undefined) return container.image;
  const digest = normalizeSha256(container.sha256)!;
  const at = container.image.indexOf('@');
  if (at < 0) return `${container.image}@${digest}`;
  if (container.image.slice(at + 1) !== digest) {
    throw new KustomizeError('DIGEST_MISMATCH', `${describe}: image ${container.image} and sha256 ${digest} name different images`);
  }
  return container.image;
}
