import { KustomizeError } from '../../errors.js';
import { pullSingleLayer, type PulledSingleLayer } from '../../oci/client.js';
import type { OciReference } from '../../oci/reference.js';
import { cloneUrl, type RepoSpec } from './repo-spec.js';
import { HttpStatusError, httpGet, responseBytes, type RemoteRequestOptions, type RemoteSource, type RemoteTree } from './remote-source.js';

/**
 * Remote resources anywhere `fetch` exists (browsers included): files over HTTP(S) and single
 * OCI layers (catalogs). Git repositories need a git client and OCI trees need Node to unpack,
 * which this source does not have; it refuses them with REMOTE_UNSUPPORTED.
 */
export class FetchRemoteSource implements RemoteSource {
  /** @param httpTimeout seconds before a request is given up */
  constructor(private readonly httpTimeout = 60) {}

  async fetchFile(url: string, options: RemoteRequestOptions = {}): Promise<Uint8Array> {
    const res = await httpGet(url, { timeoutSeconds: this.httpTimeout, signal: options.signal });
    if (res.status < 200 || res.status > 299) throw new HttpStatusError(res.status, res.statusText);
    return responseBytes(res, url, options.signal);
  }

  clone(spec: RepoSpec): Promise<RemoteTree> {
    return unsupported(`cannot clone '${cloneUrl(spec)}' here: git repositories need Node and the git executable; pass a \`remote\` option that can clone`);
  }

  pullTree(ref: OciReference): Promise<RemoteTree> {
    return unsupported(`cannot pull '${ref.raw}' here: OCI trees need Node to unpack; pass a \`remote\` option that can pull them`);
  }

  pullLayer(ref: OciReference, mediaType: string, options: RemoteRequestOptions = {}): Promise<PulledSingleLayer> {
    return pullSingleLayer(ref, mediaType, { signal: options.signal, timeoutSeconds: this.httpTimeout });
  }

  cleanup(): void {}
}

function unsupported(message: string): Promise<never> {
  return Promise.reject(new KustomizeError('REMOTE_UNSUPPORTED', message));
}
