/**
 * What the extension asks of `kustomize-ts lsp` beyond the Language Server Protocol: the names
 * and shapes of the server's preview request and notification, in this one place.
 */

/** The rendered output of the root that a file belongs to. */
export const PREVIEW_REQUEST = 'kustomize/preview';

export interface PreviewParams {
  /** a file of the root, or the root's kustomization */
  readonly uri: string;
}

export interface PreviewResult {
  /** what `kustomize-ts build` prints for the root */
  readonly yaml: string;
  /** the root, as the server names it (the same string `PREVIEW_CHANGED` names it by) */
  readonly root: string;
}

/** Sent by the server when an edit changes what roots render. */
export const PREVIEW_CHANGED = 'kustomize/previewChanged';

export interface PreviewChangedParams {
  readonly roots: readonly string[];
}
