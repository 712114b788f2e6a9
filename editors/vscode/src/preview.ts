import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { PREVIEW_REQUEST, type PreviewChangedParams, type PreviewOrigin, type PreviewParams, type PreviewResult } from './protocol';

/** The scheme of the preview documents: read-only, since VS Code saves no document a provider gives. */
export const PREVIEW_SCHEME = 'kustomize-preview';

interface PreviewedRoot {
  /** the file the preview was asked for: the server is asked again with it (and the root's name) after an edit */
  readonly source: string;
  /** what the document shows (the output, or why there is none), until the server says that an edit changed it */
  text: string | undefined;
  /** where the value on each line of the output was written, by line */
  origins: ReadonlyMap<number, PreviewOrigin>;
}

/**
 * The rendered output of kustomization roots, one document a root, which follows the edits:
 * when the server says a root's output changed, its document asks for it again.
 */
export class PreviewDocuments implements vscode.TextDocumentContentProvider, vscode.DefinitionProvider, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changes.event;
  private readonly roots = new Map<string, PreviewedRoot>();

  constructor(private readonly client: Pick<BaseLanguageClient, 'sendRequest'>) {}

  /** Renders the root that `source` belongs to; the URI of its preview document. */
  async open(source: vscode.Uri): Promise<vscode.Uri> {
    const result = await this.render(source.toString());
    this.roots.set(result.root, { source: source.toString(), ...shown(result) });
    const uri = previewUri(result.root);
    // an open preview of this root shows the output just rendered
    this.changes.fire(uri);
    return uri;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const root = uri.query;
    const previewed = this.roots.get(root);
    // a preview VS Code reopened from an earlier window: this window has not rendered it
    if (previewed === undefined) return `# Run "Kustomize: Preview" in a file of ${root} to render it.\n`;
    if (previewed.text !== undefined) return previewed.text;
    try {
      Object.assign(previewed, shown(await this.render(previewed.source, root)));
      return previewed.text!;
    } catch (error) {
      return `# kustomize-ts could not render ${root}:\n${comment(message(error))}\n`;
    }
  }

  /**
   * "Go to Definition" on a line of a preview: where its value was written. The origins are asked
   * for again (the server answers from what it kept while the root's files are unchanged): an
   * edit that changes no output, which the server does not tell, may still move the lines.
   */
  async provideDefinition(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Location | undefined> {
    const root = document.uri.query;
    const previewed = this.roots.get(root);
    if (previewed === undefined) return undefined;
    const result = await this.render(previewed.source, root).catch(() => undefined);
    if (result && 'yaml' in result && result.yaml === previewed.text) previewed.origins = shown(result).origins;
    const origin = previewed.origins.get(position.line);
    return origin && new vscode.Location(vscode.Uri.parse(origin.uri), new vscode.Position(origin.line, origin.character));
  }

  /** What the server's `kustomize/previewChanged` says: these roots render differently now. */
  rootsChanged({ roots }: PreviewChangedParams): void {
    for (const root of roots) {
      const previewed = this.roots.get(root);
      if (previewed === undefined) continue;
      previewed.text = undefined;
      this.changes.fire(previewUri(root));
    }
  }

  dispose(): void {
    this.changes.dispose();
  }

  private render(uri: string, root?: string): Promise<PreviewResult> {
    const params: PreviewParams = { uri, ...(root !== undefined && { root }) };
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

/** What a preview shows of the server's answer: the output and its origins, or, while an edit breaks the build, why (until an edit mends it). */
function shown(result: PreviewResult): Omit<PreviewedRoot, 'source'> {
  if ('yaml' in result) return { text: result.yaml, origins: new Map(result.origins.map((o) => [o.outputLine, o])) };
  const { code, message, uri, range } = result.error;
  const at = `${vscode.Uri.parse(uri).fsPath}:${range.start.line + 1}:${range.start.character + 1}`;
  return { text: `# kustomize-ts could not render ${result.root}:\n${comment(`${code}: ${message}`)}\n# at ${at}\n`, origins: new Map() };
}

function comment(text: string): string {
  return text.split('\n').map((line) => `# ${line}`).join('\n');
}
