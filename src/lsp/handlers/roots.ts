import type { RootSummary } from '../../language/service.js';
import type { Server } from '../server-state.js';

/** The custom request `kustomize/roots`: the workspace's roots, each with its state, problems and files read. */
const ROOTS_REQUEST = 'kustomize/roots';

export function onRoots(server: Server): void {
  server.connection.onRequest(ROOTS_REQUEST, (): RootSummary[] => server.service.roots());
}
