import type { Server } from '../server-state.js';

/**
 * `textDocument/codeLens`: on a kustomization's first line, its root's resource count, Preview,
 * and how many roots render it. They change when roots are built: a client that can refresh its
 * lenses is asked to then.
 */
export function onCodeLens(server: Server): void {
  server.connection.onCodeLens((params) => server.service.codeLenses(params.textDocument.uri));
  server.service.onRootsBuilt(() => {
    if (server.client.capabilities.workspace?.codeLens?.refreshSupport) server.connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
  });
}
