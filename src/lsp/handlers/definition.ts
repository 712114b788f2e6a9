import type { Server } from '../server-state.js';

/** `textDocument/definition`: the file a path names, the resources a patch target or a replacement source selects. */
export function onDefinition(server: Server): void {
  server.connection.onDefinition((params) => server.service.definition(params.textDocument.uri, params.position));
}
