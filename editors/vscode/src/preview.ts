import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { PREVIEW_REQUEST, type PreviewChangedParams, type PreviewParams, type PreviewResult } from './protocol';

/** The scheme of the preview documents: read-only, since VS Code saves no document a provider gives. */
export const PREVIEW_SCHEME = 'kustomize-preview';

interface PreviewedRoot {
  /** the file the preview was asked for: the server is asked again with it after an edit */
  readonly source: string;
  /** the output, until the server says that an edit changed it */
  yaml: string | undefined;
}

/**
 * The rendered output of kustomization roots, one document a root, which follows the edits:
 * when the server says a root's output changed, its document asks for it again.
 */
export class PreviewDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changes.event;
  private readonly roots = new Map<string, PreviewedRoot>();

  constructor(private readonly client: Pick<BaseLanguageClient, 'sendRequest'>) {}

  /** Renders the root that `source` belongs to; the URI of its preview document. */
  async open(source: vscode.Uri): Promise<vscode.Uri> {
    const { yaml, root } = await this.render(source.toString());
    this.roots.set(root, { source: source.toString(), yaml });
    const uri = previewUri(root);
    // an open preview of this root shows the output just rendered
    this.changes.fire(uri);
    return uri;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const root = uri.query;
    const previewed = this.roots.get(root);
    // a preview VS Code reopened from an earlier window: this window has not rendered it
    if (previewed === undefined) return `# Run "Kustomize: Preview" in a file of ${root} to render it.\n`;
    if (previewed.yaml !== undefined) return previewed.yaml;
    try {
      previewed.yaml = (await this.render(previewed.source)).yaml;
      return previewed.yaml;
    } catch (error) {
      // the preview stays open while an edit breaks the build: it says why, until an edit mends it
      return `# kustomize-ts could not render ${root}:\n${comment(message(error))}\n`;
    }
  }

  /** What the server's `kustomize/previewChanged` says: these roots render differently now. */
  rootsChanged({ roots }: PreviewChangedParams): void {
    for (const root of roots) {
      const previewed = this.roots.get(root);
      if (previewed === undefined) continue;
      previewed.yaml = undefined;
      this.changes.fire(previewUri(root));
    }
  }

  dispose(): void {
    this.changes.dispose();
  }

  private render(uri: string): Promise<PreviewResult> {
    const params: PreviewParams = { uri };
    return this.client.sendRequest<PreviewResult>(PREVIEW_REQUEST, params);
  }
}

/** The preview of `root`: the root in the query, its last name in the path (the tab's title; `.yaml` for YAML's colours). */
export function previewUri(root: string): vscode.Uri {
  const name = root.replace(/[/\\]+$/, '').split(/[/\\]/).pop() || 'kustomization';
  return vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${name} (build).yaml`, query: root });
}

export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function comment(text: string): string {
  return text.split('\n').map((line) => `# ${line}`).join('\n');
}
