import type { Server } from '../server-state.js';

/**
 * `workspace/didChangeWorkspaceFolders`: folders added and removed; their roots are found (or
 * dropped) and built. Listened to from `initialized` on (the connection takes the notification
 * once `initialize` has seen that the client sends it).
 */
export function onDidChangeWorkspaceFolders(server: Server): void {
  if (!server.client.capabilities.workspace?.workspaceFolders) return;
  server.connection.workspace.onDidChangeWorkspaceFolders((event) => {
    const removed = new Set(event.removed.map((f) => f.uri));
    server.client.folders = [...server.client.folders.filter((f) => !removed.has(f)), ...event.added.map((f) => f.uri)];
    server.service.setFolders(server.client.folders);
  });
}
