import { ErrorCodes, ResponseError, type Connection } from 'vscode-languageserver/node';
import { PreviewUnavailable } from '../../language/preview.js';
import { PREVIEW_CHANGED, PREVIEW_REQUEST, type PreviewChangedParams } from '../protocol.js';
import type { Server } from '../server-state.js';

/**
 * The custom request `kustomize/preview`: a root's output for a file of it. A root whose build
 * fails answers with its error (`{error}`: the preview stays the root's, and follows the edits
 * that mend it); a file no root has is a ResponseError.
 */
export function onPreview(server: Server): void {
  server.connection.onRequest(PREVIEW_REQUEST, async (params) => {
    if (typeof params?.uri !== 'string' || (params.root !== undefined && typeof params.root !== 'string')) {
      throw new ResponseError(ErrorCodes.InvalidParams, `${PREVIEW_REQUEST.method} takes {uri: string, root?: string}`);
    }
    try {
      return await server.service.preview(params.uri, params.root);
    } catch (e) {
      if (e instanceof PreviewUnavailable) throw new ResponseError(ErrorCodes.InvalidParams, e.message);
      throw e;
    }
  });
}

/** The notification `kustomize/previewChanged`: these roots render differently now. */
export function sendPreviewChanged(connection: Connection, roots: string[]): void {
  const params: PreviewChangedParams = { roots };
  void connection.sendNotification(PREVIEW_CHANGED, params);
}
