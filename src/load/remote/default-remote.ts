import { importInNode } from '../../host.js';
import { FetchRemoteSource } from './fetch-remote.js';
import type { RemoteOptions, RemoteSource } from './remote-source.js';

/**
 * The source of remote resources of a build without a `remote` option: `fetch` and the git
 * executable in Node, `fetch` alone elsewhere. (In browser bundles node-remote.js is mapped to
 * an empty module by package.json's `browser` field, hence the check of what was imported.)
 */
export async function defaultRemoteSource(options: Readonly<RemoteOptions>): Promise<RemoteSource> {
  const nodeRemote = await importInNode(async () => (await import('./node-remote.js')).nodeRemoteSourceFor);
  return nodeRemote ? nodeRemote(options) : new FetchRemoteSource();
}
