import type { Executable } from 'vscode-languageclient/node';

/**
 * The server's arguments, exactly: an Executable without `transport` gets no flags from the
 * client, which would otherwise add its own (`--stdio`, `--clientProcessId=…`) for the server
 * to accept.
 */
const SERVER_ARGS = ['lsp', '--stdio'];

/**
 * How to start the server, given the `kustomize.server.path` setting: empty, the `kustomize-ts`
 * on PATH; a JavaScript file (a checkout's `bin/kustomize-ts.js`), run by the Node that runs this
 * extension (VS Code's own, as ELECTRON_RUN_AS_NODE makes it), so that it needs no `npm link`
 * and no shell that reads its first line (Windows has none); else that program.
 */
export function serverCommand(path: string): Executable {
  if (path === '') return { command: 'kustomize-ts', args: SERVER_ARGS };
  if (/\.[cm]?js$/.test(path)) {
    return { command: process.execPath, args: [path, ...SERVER_ARGS], options: { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } } };
  }
  return { command: path, args: SERVER_ARGS };
}
