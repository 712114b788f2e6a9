import type { Server } from '../server-state.js';

/** `textDocument/hover`: what the value under the cursor becomes in each root's output, or what a kustomization field does. */
export function onHover(server: Server): void {
  server.connection.onHover((params) => server.service.hover(params.textDocument.uri, params.position));
}
