import { KustomizeError } from '../../errors.js';
import type { Command } from '../command.js';

/** `lsp`: the language server, on stdin and stdout. */
export const lspCommand: Command = {
  name: 'lsp',
  summary: 'Run the language server (LSP) for editors, on stdin and stdout',
  usage: 'lsp [--stdio]',
  description: `Speak the Language Server Protocol on stdin and stdout: diagnostics (YAML and build
errors at the entry that caused them, deprecated fields with an edit fix quick fix, schema
problems and lints at the source line), hover (what a value becomes in each root's output, what a
kustomization field does) over the editor's unsaved texts, for every kustomization root of the
workspace. Nothing runs a program or uses the network unless the kustomize.allow settings say so.
See docs/editor.md.`,
  flags: [{ name: 'stdio', type: 'bool', help: 'use stdin and stdout (the only transport; editors pass it)' }],
  async run({ positional }) {
    if (positional.length > 0) throw new KustomizeError('USAGE', `lsp takes no arguments; got ${positional.join(' ')}`);
    // loaded only by this command: the server and vscode-languageserver are a part of the CLI bundle of their own
    const { runStdioServer } = await import('../../lsp/server.js');
    await runStdioServer();
    return 0;
  },
};
