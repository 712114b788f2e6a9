import type { Server } from '../server-state.js';

/** `textDocument/codeLens`: on a kustomization's first line, its root's resource count, Preview, and how many roots render it. */
export function onCodeLens(server: Server): void {
  server.connection.onCodeLens((params) => server.service.codeLenses(params.textDocument.uri));
}
