import type { Server } from '../server-state.js';

/** `textDocument/documentLink`: each path a kustomization, Composition or Catalog names, to its file; each http(s) URL, to itself. */
export function onDocumentLink(server: Server): void {
  server.connection.onDocumentLinks((params) => server.service.documentLinks(params.textDocument.uri));
}
