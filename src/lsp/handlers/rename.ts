import { LSPErrorCodes, ResponseError } from 'vscode-languageserver/node';
import { RenameRefused } from '../../language/navigation/rename.js';
import type { Server } from '../server-state.js';

/** `textDocument/rename`: one workspace edit renaming the resource whose `metadata.name` is under the cursor, wherever source files name it. */
export function onRename(server: Server): void {
  server.connection.onRenameRequest((params) => refusedAsResponse(server.service.rename(params.textDocument.uri, params.position, params.newName)));
}

/** A refused rename as the error the client shows (`RequestFailed`, with the reason). */
export async function refusedAsResponse<T>(answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (e) {
    if (e instanceof RenameRefused) throw new ResponseError(LSPErrorCodes.RequestFailed, e.message);
    throw e;
  }
}
