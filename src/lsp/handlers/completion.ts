import type { Server } from '../server-state.js';

/** `textDocument/completion`: keys, values, paths and targets in a kustomization; fields and values in a resource or a patch. */
export function onCompletion(server: Server): void {
  server.connection.onCompletion((params) => server.service.completion(params.textDocument.uri, params.position));
}
