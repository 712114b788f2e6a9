/**
 * A language client for tests: starts `kustomize-ts lsp --stdio` (the CLI as users run it) and
 * speaks LSP to it over its stdin and stdout with vscode-jsonrpc's protocol connection, as an
 * editor would: it answers `workspace/configuration` with the settings it was given and keeps
 * every `textDocument/publishDiagnostics`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type CodeAction,
  type CodeLens,
  type CompletionItem,
  type CompletionList,
  type Diagnostic,
  type Hover,
  type Position,
  type ProtocolConnection,
  type Range,
  type ServerCapabilities,
} from 'vscode-languageserver/node';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
export const LAUNCHER = join(REPO, 'bin', 'kustomize-ts.js');

/** A root as `kustomize/roots` lists it. */
export interface RootSummary {
  uri: string;
  name: string;
  state: 'pending' | 'built';
  problems: number;
  files: number;
  builds: number;
}

export class LspClient {
  private readonly published = new Map<string, Diagnostic[]>();
  /** each publication, in order, with when it came (performance.now()) */
  readonly publications: { uri: string; diagnostics: Diagnostic[]; at: number }[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly versions = new Map<string, number>();
  stderr = '';
  /** how many times the server asked to refresh the code lenses */
  codeLensRefreshes = 0;
  /** what the server said it can do, in its answer to `initialize` */
  capabilities: ServerCapabilities = {};

  private constructor(
    readonly process: ChildProcess,
    private readonly connection: ProtocolConnection,
    private settings: unknown,
  ) {}

  /** Starts the server, initializes it with the folders (`file:` URIs) and settings, and says `initialized`. */
  static async start(folders: readonly string[], settings: unknown = {}, capabilities: { configuration: boolean; codeLensRefresh?: boolean } = { configuration: true }): Promise<LspClient> {
    const child = spawn(process.execPath, [LAUNCHER, 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const client = new LspClient(child, connection, settings);
    child.stderr!.on('data', (d: Buffer) => (client.stderr += d.toString()));
    connection.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: Diagnostic[] }) => {
      client.published.set(p.uri, p.diagnostics);
      client.publications.push({ ...p, at: performance.now() });
      for (const wake of [...client.waiters]) wake();
    });
    connection.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) => p.items.map(() => client.settings));
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('workspace/codeLens/refresh', () => {
      client.codeLensRefreshes++;
      return null;
    });
    connection.onNotification('window/logMessage', () => {});
    connection.listen();
    const initialized: { capabilities: ServerCapabilities } = await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: folders[0] ?? null,
      workspaceFolders: folders.map((uri) => ({ uri, name: uri })),
      capabilities: {
        workspace: {
          configuration: capabilities.configuration,
          workspaceFolders: true,
          didChangeWatchedFiles: { dynamicRegistration: true },
          didChangeConfiguration: { dynamicRegistration: true },
          ...(capabilities.codeLensRefresh && { codeLens: { refreshSupport: true } }),
        },
      },
    });
    client.capabilities = initialized.capabilities;
    await connection.sendNotification('initialized', {});
    return client;
  }

  /** The last diagnostics published for `uri`. */
  diagnostics(uri: string): Diagnostic[] | undefined {
    return this.published.get(uri);
  }

  /** Waits until the diagnostics published for `uri` satisfy `ok` (the last publication, or one still to come). */
  waitFor(uri: string, ok: (d: Diagnostic[]) => boolean, ms = 15000): Promise<Diagnostic[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const d = this.published.get(uri);
        if (d && ok(d)) {
          this.waiters.delete(check);
          clearTimeout(timer);
          resolve(d);
        }
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no diagnostics for ${uri} as expected within ${ms} ms; last: ${JSON.stringify(this.published.get(uri))}\nstderr: ${this.stderr}`));
      }, ms);
      this.waiters.add(check);
      check();
    });
  }

  open(uri: string, text: string): Promise<void> {
    this.versions.set(uri, 1);
    return this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  }

  /** Replaces the document's whole text (unsaved). */
  change(uri: string, text: string): Promise<void> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    return this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
  }

  /** An incremental change: `text` put in place of `range`. */
  edit(uri: string, range: Range, text: string): Promise<void> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    return this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range, text }] });
  }

  close(uri: string): Promise<void> {
    return this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  /** Files changed on disk: type 1 created, 2 changed, 3 deleted. */
  watched(changes: { uri: string; type: 1 | 2 | 3 }[]): Promise<void> {
    return this.connection.sendNotification('workspace/didChangeWatchedFiles', { changes });
  }

  /** New settings: answered from then on, and announced. */
  configure(settings: unknown): Promise<void> {
    this.settings = settings;
    return this.connection.sendNotification('workspace/didChangeConfiguration', { settings: { kustomize: settings } });
  }

  hover(uri: string, position: Position): Promise<Hover | null> {
    return this.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position });
  }

  codeActions(uri: string, range: Range, diagnostics: Diagnostic[]): Promise<CodeAction[]> {
    return this.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics } });
  }

  /** `textDocument/completion`'s items (from a list or an array; none for null). */
  async completion(uri: string, position: Position): Promise<CompletionItem[]> {
    const answer: CompletionItem[] | CompletionList | null = await this.connection.sendRequest('textDocument/completion', { textDocument: { uri }, position });
    return Array.isArray(answer) ? answer : (answer?.items ?? []);
  }

  codeLenses(uri: string): Promise<CodeLens[] | null> {
    return this.connection.sendRequest('textDocument/codeLens', { textDocument: { uri } });
  }

  /** Any request, by its method (the server's `kustomize/…` requests). */
  request<R>(method: string, params?: unknown): Promise<R> {
    return this.connection.sendRequest(method, params);
  }

  /** Listens to a notification of the server's, by its method. */
  onNotification<P>(method: string, listen: (params: P) => void): void {
    this.connection.onNotification(method, listen);
  }

  roots(): Promise<RootSummary[]> {
    return this.connection.sendRequest('kustomize/roots');
  }

  /** Waits until the server has found its roots (the folders' roots are found once it is `initialized`) and none is pending. */
  async settled(ms = 30000): Promise<RootSummary[]> {
    const until = performance.now() + ms;
    for (;;) {
      const roots = await this.roots();
      if (roots.length > 0 && roots.every((r) => r.state === 'built')) return roots;
      if (performance.now() > until) throw new Error(`roots still pending after ${ms} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** `shutdown`, `exit`, and the process's exit code. */
  async stop(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => this.process.once('exit', (code) => resolve(code)));
    await this.connection.sendRequest('shutdown');
    await this.connection.sendNotification('exit');
    const code = await exited;
    this.connection.dispose();
    return code;
  }
}
