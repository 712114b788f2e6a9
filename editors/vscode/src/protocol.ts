/**
 * What the extension asks of `kustomize-ts lsp` beyond the Language Server Protocol: the names
 * and shapes of the server's preview request and notification, in this one place (the server's
 * are in src/lsp/protocol.ts, the same).
 */

/** The rendered output of the root that a file belongs to. */
export const PREVIEW_REQUEST = 'kustomize/preview';

export interface PreviewParams {
  /** a file of the root, or the root's kustomization */
  readonly uri: string;
  /** the root to render, by name, when several read the file (the `roots` of an earlier answer); by default the nearest */
  readonly root?: string;
}

/** A line of the output that holds a value, and where that value was written (0-based positions). */
export interface PreviewOrigin {
  /** the line of `yaml` */
  readonly outputLine: number;
  readonly uri: string;
  readonly line: number;
  readonly character: number;
  /** the step that wrote it: `resource`, `namePrefix`, `patches[0]`, … */
  readonly step: string;
}

/** Why a root does not render: its build's error, where its diagnostic is shown. */
export interface PreviewError {
  readonly code: string;
  readonly message: string;
  readonly uri: string;
  readonly range: { readonly start: { readonly line: number; readonly character: number }; readonly end: { readonly line: number; readonly character: number } };
}

interface PreviewOf {
  /** the root, as the server names it (the same string `PREVIEW_CHANGED` names it by) */
  readonly root: string;
  /** the other roots that read the file, by name */
  readonly roots: readonly string[];
}

/** The root's output (what `kustomize-ts build` prints) with each line's origin, or the error its build fails with. */
export type PreviewResult = PreviewOf & ({ readonly yaml: string; readonly origins: readonly PreviewOrigin[] } | { readonly error: PreviewError });

/** Sent by the server when an edit changes what roots render. */
export const PREVIEW_CHANGED = 'kustomize/previewChanged';

export interface PreviewChangedParams {
  readonly roots: readonly string[];
}
