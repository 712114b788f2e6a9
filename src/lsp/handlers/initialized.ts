import { DidChangeConfigurationNotification, DidChangeWatchedFilesNotification } from 'vscode-languageserver/node';
import type { Server } from '../server-state.js';
import { pullSettings } from './did-change-configuration.js';
import { onDidChangeWorkspaceFolders } from './did-change-workspace-folders.js';

/**
 * `initialized`: watches every file of the workspace (a build may read any: YAML, env files,
 * JSON schemas, scripts) where the client registers watchers for servers, asks the client for
 * the `kustomize` settings where it can answer.
 */
export function onInitialized(server: Server): void {
  server.connection.onInitialized(async () => {
    const workspace = server.client.capabilities.workspace;
    if (workspace?.didChangeWatchedFiles?.dynamicRegistration) {
      await server.connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*' }] });
    }
    if (workspace?.didChangeConfiguration?.dynamicRegistration) await server.connection.client.register(DidChangeConfigurationNotification.type, undefined);
    onDidChangeWorkspaceFolders(server);
    await pullSettings(server);
  });
}
