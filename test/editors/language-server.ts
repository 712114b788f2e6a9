/**
 * The language server the editor tests drive, found in this one place: this checkout's
 * `kustomize-ts lsp --stdio`, through the launcher `bin/kustomize-ts.js`.
 */
import { requireTool } from '../require-tool.js';

export const languageServer = requireTool('language-server');

/** The server's command line, program first. Ask inside a test: a skipped one never does. */
export function languageServerCommand(): string[] {
  return [process.execPath, languageServer.path, 'lsp', '--stdio'];
}
