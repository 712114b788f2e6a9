import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/node';
import { PREVIEW_CHANGED, type PreviewChangedParams } from './protocol';
import { PREVIEW_SCHEME, PreviewDocuments, message } from './preview';
import { serverCommand } from './server';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const path = vscode.workspace.getConfiguration('kustomize').get<string>('server.path', '');
  const server = serverCommand(path);
  // the id names the settings the client reads itself: kustomize.trace.server
  client = new LanguageClient('kustomize', 'Kustomize', server, {
    // kustomizations, their resources and patches are YAML; `Kustomization` has no extension to say so
    documentSelector: [
      { scheme: 'file', language: 'yaml' },
      { scheme: 'file', pattern: '**/Kustomization' },
    ],
    // the server reads the kustomize.* settings, and hears when they change
    synchronize: { configurationSection: 'kustomize' },
  });
  const previews = new PreviewDocuments(client);
  context.subscriptions.push(
    previews,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
    vscode.languages.registerDefinitionProvider({ scheme: PREVIEW_SCHEME }, previews),
    client.onNotification(PREVIEW_CHANGED, (params: PreviewChangedParams) => previews.rootsChanged(params)),
    // the editor's title button passes its file's Uri, a code lens of the server the kustomization's URI (a string)
    vscode.commands.registerCommand('kustomize.preview', (file?: unknown) => showPreview(previews, file)),
  );
  try {
    await client.start();
  } catch (error) {
    void vscode.window.showErrorMessage(
      `Kustomize: could not start the language server (${[server.command, ...(server.args ?? [])].join(' ')}): ${message(error)}. ` +
        'Put kustomize-ts on PATH (npm link in its checkout) or set kustomize.server.path.',
    );
  }
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

/** "Kustomize: Preview": the output of the root of `file` (a Uri or a URI string), else of the active file, beside it. */
async function showPreview(previews: PreviewDocuments, file: unknown): Promise<void> {
  const source = typeof file === 'string' ? vscode.Uri.parse(file) : file instanceof vscode.Uri ? file : vscode.window.activeTextEditor?.document.uri;
  if (source === undefined || source.scheme !== 'file') {
    void vscode.window.showInformationMessage('Kustomize: open a file of a kustomization to preview its output.');
    return;
  }
  try {
    const document = await vscode.workspace.openTextDocument(await previews.open(source));
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: false });
  } catch (error) {
    void vscode.window.showErrorMessage(`Kustomize: no preview of ${source.fsPath}: ${message(error)}`);
  }
}
