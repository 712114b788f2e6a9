import { KustomizeError } from '../errors.js';
import type { Resource } from '../model/resource.js';
import { configuredInProcess } from './configure.js';
import { FUNCTION_ANNOTATION, functionSpecOf, starlarkRunConfig } from '../kinds/function-spec.js';
import { requireNode } from '../host.js';
import type { PluginContext, PluginRegistration } from './plugin.js';
import { StarlarkFunction } from './starlark-function.js';
import type { PluginResolver } from './resolver.js';
import type { ImageToRun } from '../load/remote/locked-image.js';

/** In-process plugins given to the build, by apiVersion and kind (need `--enable-alpha-plugins`). */
export function registeredResolver(registrations: readonly PluginRegistration[]): PluginResolver {
  return {
    description: 'in-process plugins given to the build',
    async resolve(config, _configuredIn, ctx) {
      const registered = registrations.find((p) => p.apiVersion === config.apiVersion && p.kind === config.kind);
      if (!registered) return undefined;
      requirePluginsEnabled(config, ctx);
      return configuredInProcess(() => registered.factory(config.obj, ctx), config.originalId.toString(), ctx);
    },
  };
}

/**
 * A config with an explicit runtime (`config.kubernetes.io/function`): a KRM function in a
 * container or an executable, or a Starlark script run in-process; kpt's `StarlarkRun` (the
 * script in `source:`) is a Starlark function too. A container's image runs as `toRun` says
 * (the build's lock: see locked-image.ts).
 */
export function functionSpecResolver(toRun: (image: string) => ImageToRun): PluginResolver {
  return {
    description: 'function specs',
    async resolve(config, configuredIn, ctx) {
      const spec = functionSpecOf(config);
      const starlarkRun = spec ? undefined : starlarkRunConfig(config.view);
      if (starlarkRun || spec?.starlark) {
        if (!ctx.options.enableStar) requirePluginsEnabled(config, ctx);
        const script = starlarkRun ?? (spec?.starlark?.path ? { path: spec.starlark.path } : undefined);
        if (!script) throw new KustomizeError('PLUGIN_NOT_FOUND', `${config.originalId}: a starlark function needs a path (url is not supported)`);
        return new StarlarkFunction(config, script, configuredIn);
      }
      if (!spec) return undefined;
      requirePluginsEnabled(config, ctx);
      // running functions needs Node: loaded only when a build has one
      const runtime = spec.exec?.path ? 'exec' : 'container';
      return requireNode(
        async () => {
          const { KrmFunction, containerFunction } = await import('./krm-function.js');
          if (!KrmFunction) return undefined;
          return runtime === 'exec' ? new KrmFunction(config, spec, configuredIn) : containerFunction(config, spec.container!, configuredIn, toRun);
        },
        { feature: `${runtime} KRM function ${config.originalId}`, needs: runtime === 'exec' ? 'runs a program' : 'runs a container (podman or docker)' },
        { file: configuredIn, field: `metadata.annotations.${FUNCTION_ANNOTATION}.${runtime}` },
      );
    },
  };
}

/**
 * The legacy plugin home: an executable `<Kind>` (legacy exec plugin) or an ES module
 * `<Kind>.mjs`/`<Kind>.js` (in-process plugin) under `<home>/<group>/<version>/<lowercase kind>/`.
 * The last resolver: what it cannot find is not found. Modules are imported once per build.
 */
export function pluginHomeResolver(): PluginResolver {
  const modules = new Map<string, Promise<unknown>>();
  return {
    description: 'the plugin home',
    async resolve(config, configuredIn, ctx) {
      requirePluginsEnabled(config, ctx);
      // the plugin home is on disk: loaded only when a build looks there
      const loadFromPluginHome = await requireNode(
        async () => (await import('./plugin-home-plugins.js')).loadFromPluginHome,
        { feature: `plugin ${config.originalId} from the plugin home (a legacy exec plugin or an ES module)`, needs: 'reads the plugin home on the disk and runs or imports what it finds there' },
        { file: configuredIn, field: 'kind' },
      );
      return loadFromPluginHome(config, configuredIn, ctx, modules);
    },
  };
}

/** Every plugin that is not builtin needs `--enable-alpha-plugins`. */
function requirePluginsEnabled(config: Resource, ctx: PluginContext): void {
  if (ctx.options.enablePlugins) return;
  throw new KustomizeError(
    'PLUGIN_DISABLED',
    `external plugins disabled; unable to load external plugin '${config.originalId.kind}' (enable plugins with --enable-alpha-plugins)`,
  );
}
