import type { ClientCapabilities, Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { LanguageService } from '../language/service.js';

/** What the handlers share: the connection, the service, the open documents, and what the client said it can do. */
export interface Server {
  connection: Connection;
  service: LanguageService;
  documents: TextDocuments<TextDocument>;
  /** set by `initialize` */
  client: { capabilities: ClientCapabilities; folders: string[] };
}
