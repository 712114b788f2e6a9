/**
 * What the server adds to LSP for previews, in this one place: the names and parameters of
 * `kustomize/preview` and `kustomize/previewChanged`, and the answer's shapes (the language
 * service's, from src/language/preview.ts). editors/vscode/src/protocol.ts has the same for the
 * extension; docs/editor.md#custom-requests-kustomize describes them.
 */
import { NotificationType, RequestType } from 'vscode-languageserver/node';
import type { PreviewResult } from '../language/preview.js';

export type { PreviewOrigin, PreviewResult } from '../language/preview.js';

/** Request: the rendered output of a root, for a file of it. Answers a {@link PreviewResult}. */
export const PREVIEW_REQUEST = new RequestType<PreviewParams, PreviewResult, void>('kustomize/preview');

interface PreviewParams {
  /** a file of the root (one its build reads, or its kustomization) */
  uri: string;
  /** the root to render, by name, when several read the file (the `roots` of an earlier answer); by default the nearest */
  root?: string;
}

/** Notification, from the server: these roots render differently now (an edit, a save, a file on disk changed their output or error). */
export const PREVIEW_CHANGED = new NotificationType<PreviewChangedParams>('kustomize/previewChanged');

export interface PreviewChangedParams {
  /** by name, as the preview's `root` names them */
  roots: string[];
}
