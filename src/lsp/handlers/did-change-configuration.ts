import type { Server } from '../server-state.js';

/**
 * `workspace/didChangeConfiguration`: new settings. A client that answers
 * `workspace/configuration` is asked for the `kustomize` section; another sends the settings
 * themselves (`{settings: {kustomize: {...}}}`).
 */
export function onDidChangeConfiguration(server: Server): void {
  server.connection.onDidChangeConfiguration(async (params) => {
    if (server.client.capabilities.workspace?.configuration) await pullSettings(server);
    else applySettings(server, (params.settings as { kustomize?: unknown } | null)?.kustomize);
  });
}

/** Asks the client for the `kustomize` settings, where it can answer. */
export async function pullSettings(server: Server): Promise<void> {
  if (!server.client.capabilities.workspace?.configuration) return;
  applySettings(server, await server.connection.workspace.getConfiguration('kustomize'));
}

function applySettings(server: Server, settings: unknown): void {
  for (const problem of server.service.configure(settings)) server.connection.console.warn(problem);
}
