import type { Server } from '../server-state.js';

/** `textDocument/references`: what includes a file, or what patches, replaces or refers to the resource under the cursor. */
export function onReferences(server: Server): void {
  server.connection.onReferences((params) => server.service.references(params.textDocument.uri, params.position, params.context.includeDeclaration));
}
