import type { Server } from '../server-state.js';

/** `textDocument/codeAction`: quick fixes for the diagnostics in the range (`edit fix` for a deprecated field). */
export function onCodeAction(server: Server): void {
  server.connection.onCodeAction((params) => server.service.codeActions(params.textDocument.uri, params.range));
}
