import type { Server } from '../server-state.js';

/**
 * `textDocument/didOpen`, `didChange` (incremental: the document manager applies the edits),
 * `didClose`: the editor's texts, which builds read instead of the disk's while they are open.
 */
export function onTextDocumentSync(server: Server): void {
  const { documents, service } = server;
  documents.onDidOpen(({ document }) => service.openDocument(document.uri, document.getText()));
  documents.onDidChangeContent(({ document }) => service.changeDocument(document.uri, document.getText()));
  documents.onDidClose(({ document }) => service.closeDocument(document.uri));
}
