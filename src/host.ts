import { KustomizeError, type ErrorContext } from './errors.js';

/**
 * Whether the JavaScript host is Node (or a runtime that offers Node's modules, as Deno and Bun
 * do). Browsers and workers are not, even where a bundler defines a `process` object: that
 * object has no `versions.node`.
 */
export function hostIsNode(): boolean {
  return typeof process !== 'undefined' && typeof process.versions?.node === 'string';
}

/**
 * What `load` takes from a Node-only module, in Node; undefined elsewhere, and where a browser
 * bundle has mapped the module to an empty one (package.json's `browser` field), whose exports
 * are all undefined. Outside Node the module is not even imported: it would import `node:` modules.
 */
export async function importInNode<T>(load: () => Promise<T | undefined>): Promise<T | undefined> {
  return hostIsNode() ? ((await load()) ?? undefined) : undefined;
}

/** What a feature that needs Node needs it for, named in NODE_REQUIRED errors. */
interface NodeFeature {
  /** the feature, as the user asked for it: `helmCharts`, `exec KRM functions`, … */
  feature: string;
  /** what it does that only Node can: `runs the helm executable` */
  needs: string;
}

/**
 * {@link importInNode}, for a feature that cannot work without it: outside Node (in a browser
 * bundle), a NODE_REQUIRED error naming the feature, what it needs Node for, and (in `context`)
 * the file and field that asked for it.
 */
export async function requireNode<T>(load: () => Promise<T | undefined>, what: NodeFeature, context: ErrorContext = {}): Promise<T> {
  const loaded = await importInNode(load);
  if (loaded === undefined) throw new KustomizeError('NODE_REQUIRED', `${what.feature} needs Node, as it ${what.needs}; this build does not run in Node`, context);
  return loaded;
}
