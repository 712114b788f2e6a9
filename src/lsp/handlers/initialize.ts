import { TextDocumentSyncKind, type InitializeResult } from 'vscode-languageserver/node';
import { VERSION } from '../../options.js';
import type { Server } from '../server-state.js';

/**
 * `initialize`: what the server can do, and the workspace folders (a client without them gives
 * its root URI, or nothing: then each opened document's nearest kustomization is its root).
 * Settings given as `initializationOptions` (the `kustomize` section's shape) apply from the
 * start; those `initialized` pulls from the client, from when they arrive.
 */
export function onInitialize(server: Server): void {
  server.connection.onInitialize((params): InitializeResult => {
    server.client.capabilities = params.capabilities;
    server.client.folders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    if (params.initializationOptions !== undefined) for (const problem of server.service.configure(params.initializationOptions)) server.connection.console.warn(problem);
    // the roots are found in the background, and built with these settings until the client's arrive
    server.service.setFolders(server.client.folders);
    return {
      capabilities: {
        // didSave is not asked for: the unsaved text is already what builds read, and the watcher reports the disk
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: ['quickfix'] },
        completionProvider: { triggerCharacters: [':', ' ', '-', '/'] },
        codeLensProvider: { resolveProvider: false },
        definitionProvider: true,
        documentLinkProvider: { resolveProvider: false },
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'kustomize-ts', version: VERSION },
    };
  });
}
