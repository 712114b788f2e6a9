import type { Server } from '../server-state.js';
import { refusedAsResponse } from './rename.js';

/** `textDocument/prepareRename`: the resource name under the cursor; an error saying why where there is none. */
export function onPrepareRename(server: Server): void {
  server.connection.onPrepareRename((params) => refusedAsResponse(server.service.prepareRename(params.textDocument.uri, params.position)));
}
