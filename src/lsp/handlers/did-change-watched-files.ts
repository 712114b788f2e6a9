import { FileChangeType } from 'vscode-languageserver/node';
import type { FileChange } from '../../language/workspace.js';
import type { Server } from '../server-state.js';

const CHANGES: Readonly<Record<FileChangeType, FileChange>> = {
  [FileChangeType.Created]: 'created',
  [FileChangeType.Changed]: 'changed',
  [FileChangeType.Deleted]: 'deleted',
};

/** `workspace/didChangeWatchedFiles`: files changed on the disk rebuild the roots that read them (an open document's text still wins). */
export function onDidChangeWatchedFiles(server: Server): void {
  server.connection.onDidChangeWatchedFiles((params) => {
    server.service.filesChanged(params.changes.map((c) => ({ uri: c.uri, change: CHANGES[c.type] })));
  });
}
