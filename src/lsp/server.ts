/**
 * The LSP server: `kustomize-ts lsp` (stdio). A thin layer over the language service
 * (src/language): each request or notification has its module under handlers/, mapping LSP's
 * messages to the service's methods and back. Node only.
 */
import { createConnection, TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiskFileSystem } from '../fs/disk.js';
import { LanguageService } from '../language/service.js';
import { onCodeAction } from './handlers/code-action.js';
import { onCodeLens } from './handlers/code-lens.js';
import { onCompletion } from './handlers/completion.js';
import { onDidChangeConfiguration } from './handlers/did-change-configuration.js';
import { onDidChangeWatchedFiles } from './handlers/did-change-watched-files.js';
import { onDefinition } from './handlers/definition.js';
import { onDocumentLink } from './handlers/document-link.js';
import { onHover } from './handlers/hover.js';
import { onInitialize } from './handlers/initialize.js';
import { onInitialized } from './handlers/initialized.js';
import { onPreview, sendPreviewChanged } from './handlers/preview.js';
import { onPrepareRename } from './handlers/prepare-rename.js';
import { onReferences } from './handlers/references.js';
import { onRename } from './handlers/rename.js';
import { onRoots } from './handlers/roots.js';
import { onTextDocumentSync } from './handlers/text-document-sync.js';
import type { Server } from './server-state.js';

/** Serves LSP on stdin and stdout until the client exits; resolves when the connection closes. */
export function runStdioServer(): Promise<void> {
  const connection = createConnection(process.stdin, process.stdout);
  const service = new LanguageService({
    fs: new DiskFileSystem(),
    publishDiagnostics: (uri, diagnostics) => void connection.sendDiagnostics({ uri, diagnostics }),
    previewChanged: (roots) => sendPreviewChanged(connection, roots),
  });
  const server: Server = { connection, service, documents: new TextDocuments(TextDocument), client: { capabilities: {}, folders: [] } };
  for (const handler of [onInitialize, onInitialized, onTextDocumentSync, onDidChangeWatchedFiles, onDidChangeConfiguration, onHover, onCodeAction, onCompletion, onCodeLens, onRoots, onPreview]) handler(server);
  for (const handler of [onDefinition, onDocumentLink, onReferences, onPrepareRename, onRename]) handler(server);
  connection.onShutdown(() => service.dispose());
  server.documents.listen(connection);
  return new Promise((resolve) => {
    connection.onExit(() => resolve());
    connection.listen();
  });
}
