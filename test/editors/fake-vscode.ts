/**
 * A small fake of VS Code's `vscode` module: what the extension and vscode-languageclient use of
 * it, with VS Code's behaviour where the test depends on it (documents a selector matches, the
 * diagnostics the client sets, the providers it registers, content providers asked again when
 * they say a document changed). It records what the extension did for the test to assert, and
 * lets the test act as the user (open, edit and save a document; run a command).
 */
import { fileURLToPath, pathToFileURL } from 'node:url';

type Listener<T> = (event: T) => unknown;
type Event<T> = (listener: Listener<T>, thisArg?: unknown, disposables?: Disposable[]) => Disposable;

class Disposable {
  static from(...disposables: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => disposables.forEach((d) => d.dispose()));
  }
  constructor(private readonly onDispose: () => unknown) {}
  dispose(): void {
    this.onDispose();
  }
}

class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  readonly event: Event<T> = (listener, thisArg, disposables) => {
    const bound: Listener<T> = (event) => listener.call(thisArg, event);
    this.listeners.add(bound);
    const disposable = new Disposable(() => this.listeners.delete(bound));
    disposables?.push(disposable);
    return disposable;
  };
  fire(event: T): void {
    for (const listener of [...this.listeners]) listener(event);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

class CancellationTokenSource {
  private readonly cancelled = new EventEmitter<void>();
  readonly token = { isCancellationRequested: false, onCancellationRequested: this.cancelled.event };
  cancel(): void {
    this.token.isCancellationRequested = true;
    this.cancelled.fire();
  }
  dispose(): void {
    this.cancelled.dispose();
  }
}

class CancellationError extends Error {}

interface UriParts {
  scheme: string;
  path: string;
  query?: string;
}

/** VS Code's Uri, for `file:` and for schemes like the preview's, whose query is free text. */
class Uri {
  static file(path: string): Uri {
    return new Uri({ scheme: 'file', path });
  }
  static parse(text: string): Uri {
    if (text.startsWith('file:')) return Uri.file(fileURLToPath(text));
    const url = new URL(text);
    return new Uri({ scheme: url.protocol.slice(0, -1), path: decodeURIComponent(url.pathname), query: decodeURIComponent(url.search.slice(1)) });
  }
  static from(parts: UriParts): Uri {
    return new Uri(parts);
  }
  readonly scheme: string;
  readonly path: string;
  readonly query: string;
  readonly authority = '';
  readonly fragment = '';
  constructor({ scheme, path, query }: UriParts) {
    this.scheme = scheme;
    this.path = path;
    this.query = query ?? '';
  }
  get fsPath(): string {
    return this.path;
  }
  with(change: Partial<UriParts>): Uri {
    return new Uri({ scheme: this.scheme, path: this.path, query: this.query, ...change });
  }
  toString(): string {
    if (this.scheme === 'file') return pathToFileURL(this.path).href;
    return `${this.scheme}:${encodeURI(this.path)}${this.query ? `?${encodeURIComponent(this.query)}` : ''}`;
  }
  toJSON(): string {
    return this.toString();
  }
}

class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(start: Position | number, end: Position | number, endLine?: number, endCharacter?: number) {
    this.start = typeof start === 'number' ? new Position(start, end as number) : start;
    this.end = typeof start === 'number' ? new Position(endLine!, endCharacter!) : (end as Position);
  }
}

class Location {
  readonly range: Range;
  constructor(
    readonly uri: Uri,
    at: Range | Position,
  ) {
    this.range = at instanceof Position ? new Range(at, at) : at;
  }
}

class Diagnostic {
  source?: string;
  code?: unknown;
  tags?: number[];
  relatedInformation?: unknown[];
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity = 0,
  ) {}
}

class MarkdownString {
  isTrusted?: boolean;
  supportHtml?: boolean;
  constructor(public value = '') {}
  appendMarkdown(value: string): this {
    this.value += value;
    return this;
  }
  appendText(value: string): this {
    this.value += value.replace(/[\\`*_{}[\]()#+\-.!]/g, '\\$&');
    return this;
  }
  appendCodeblock(code: string, language = ''): this {
    this.value += `\n\`\`\`${language}\n${code}\n\`\`\`\n`;
    return this;
  }
}

class Hover {
  readonly contents: unknown[];
  constructor(
    contents: unknown,
    readonly range?: Range,
  ) {
    this.contents = Array.isArray(contents) ? contents : [contents];
  }
}

class TabInputText {
  constructor(readonly uri: Uri) {}
}

/** The classes vscode-languageclient extends or converts to, for what this test does not ask of the server. */
const UNUSED_CLASSES = [
  'CallHierarchyItem', 'CodeAction', 'CodeLens', 'CompletionItem', 'CompletionList', 'DocumentLink', 'InlayHint', 'TypeHierarchyItem', 'SymbolInformation', 'DocumentSymbol',
  'TextEdit', 'WorkspaceEdit', 'SnippetString', 'SnippetTextEdit', 'DiagnosticRelatedInformation', 'DocumentHighlight', 'FoldingRange', 'SelectionRange', 'SignatureHelp',
  'SignatureInformation', 'ParameterInformation', 'Color', 'ColorInformation', 'ColorPresentation', 'SemanticTokens', 'SemanticTokensEdit', 'SemanticTokensEdits',
  'LinkedEditingRanges', 'InlineValueText', 'InlineValueVariableLookup', 'InlineValueEvaluatableExpression', 'InlineCompletionItem', 'InlineCompletionList',
  'InlayHintLabelPart', 'CallHierarchyIncomingCall', 'CallHierarchyOutgoingCall', 'RelativePattern', 'TabInputTextDiff', 'TabInputCustom', 'TabInputNotebook',
];

/** A text document, as VS Code's TextDocument has it: the parts the client reads. */
export class FakeTextDocument {
  version = 1;
  isClosed = false;
  isDirty = false;
  readonly isUntitled = false;
  readonly eol = 1;
  constructor(
    readonly uri: Uri,
    readonly languageId: string,
    private text: string,
  ) {}
  get fileName(): string {
    return this.uri.fsPath;
  }
  get lineCount(): number {
    return this.text.split('\n').length;
  }
  getText(): string {
    return this.text;
  }
  positionAt(offset: number): Position {
    const before = this.text.slice(0, offset).split('\n');
    return new Position(before.length - 1, before[before.length - 1]!.length);
  }
  offsetAt(position: Position): number {
    const lines = this.text.split('\n');
    return lines.slice(0, position.line).reduce((n, line) => n + line.length + 1, 0) + position.character;
  }
  /** Replaces the text, as an edit does; the change, as VS Code's event describes it. */
  replace(text: string): { range: Range; rangeOffset: number; rangeLength: number; text: string } {
    const change = { range: new Range(new Position(0, 0), this.positionAt(this.text.length)), rangeOffset: 0, rangeLength: this.text.length, text };
    this.text = text;
    this.version += 1;
    return change;
  }
}

interface DocumentFilter {
  scheme?: string;
  language?: string;
  pattern?: string;
}

/** languages.match, for the filters the extension gives: a scheme, a language, a `**\/NAME` pattern. */
function matches(selector: DocumentFilter | DocumentFilter[], document: FakeTextDocument): number {
  const filters = Array.isArray(selector) ? selector : [selector];
  const match = filters.some(
    (f) =>
      (f.scheme === undefined || f.scheme === document.uri.scheme) &&
      (f.language === undefined || f.language === document.languageId) &&
      (f.pattern === undefined || (f.pattern.startsWith('**/') && document.uri.path.endsWith(`/${f.pattern.slice(3)}`))),
  );
  return match ? 10 : 0;
}

interface ContentProvider {
  onDidChange?: Event<Uri>;
  provideTextDocumentContent(uri: Uri, token: unknown): Promise<string> | string;
}

type Settings = { [key: string]: unknown };

function lookup(settings: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Settings)[key] : undefined), settings);
}

/** A fresh fake: its `vscode` module, and what the extension did with it. */
export function createFakeVscode(options: { version: string; workspaceFolder: string; settings: Settings }) {
  const opened = new EventEmitter<FakeTextDocument>();
  const changed = new EventEmitter<{ document: FakeTextDocument; contentChanges: unknown[]; reason: undefined }>();
  const saved = new EventEmitter<FakeTextDocument>();
  const never = new EventEmitter<never>().event;
  const documents: FakeTextDocument[] = [];
  const contentProviders = new Map<string, ContentProvider>();
  const record = {
    /** the diagnostics set by the client, by the URI of their document */
    diagnostics: new Map<string, Diagnostic[]>(),
    /** the providers registered, by the kind of provider (`Hover`, `Definition`, …), each with the documents it is for */
    providers: new Map<string, { selector: DocumentFilter | DocumentFilter[]; provider: unknown }[]>(),
    commands: new Map<string, (...args: unknown[]) => unknown>(),
    /** what the extension showed: messages, and documents with their options */
    messages: [] as string[],
    shown: [] as { document: FakeTextDocument; options: unknown }[],
    /** the client's output channel, to read when a test fails */
    output: [] as string[],
  };
  const window = {
    activeTextEditor: undefined as { document: FakeTextDocument } | undefined,
    visibleTextEditors: [],
    onDidChangeActiveTextEditor: never,
    onDidChangeVisibleTextEditors: never,
    tabGroups: { all: [] as { tabs: { input: TabInputText }[] }[], onDidChangeTabs: never },
    createOutputChannel(name: string) {
      const line = (level: string) => (message: string) => record.output.push(`[${name} ${level}] ${message}`);
      return {
        name,
        logLevel: 3,
        onDidChangeLogLevel: never,
        ...Object.fromEntries(['trace', 'debug', 'info', 'warn', 'error', 'append', 'appendLine', 'replace'].map((level) => [level, line(level)])),
        clear() {},
        show() {},
        hide() {},
        dispose() {},
      };
    },
    async showErrorMessage(message: string) {
      record.messages.push(`error: ${message}`);
    },
    async showWarningMessage(message: string) {
      record.messages.push(`warning: ${message}`);
    },
    async showInformationMessage(message: string) {
      record.messages.push(`info: ${message}`);
    },
    async showTextDocument(document: FakeTextDocument, options: unknown) {
      record.shown.push({ document, options });
      return { document };
    },
    async withProgress<R>(_options: unknown, task: (progress: { report(): void }) => Promise<R>): Promise<R> {
      return task({ report() {} });
    },
  };
  const workspace = {
    workspaceFolders: [{ uri: Uri.file(options.workspaceFolder), name: 'fixture', index: 0 }],
    textDocuments: documents,
    notebookDocuments: [],
    getWorkspaceFolder: () => workspace.workspaceFolders[0],
    getConfiguration(section?: string) {
      const scope = section === undefined ? options.settings : lookup(options.settings, section);
      return {
        get: (key: string, fallback?: unknown) => lookup(scope, key) ?? fallback,
        has: (key: string) => lookup(scope, key) !== undefined,
      };
    },
    onDidOpenTextDocument: opened.event,
    onDidChangeTextDocument: changed.event,
    onDidSaveTextDocument: saved.event,
    ...Object.fromEntries(
      [
        'onDidCloseTextDocument', 'onWillSaveTextDocument', 'onDidChangeConfiguration', 'onDidChangeWorkspaceFolders', 'onDidCreateFiles', 'onDidRenameFiles', 'onDidDeleteFiles',
        'onWillCreateFiles', 'onWillRenameFiles', 'onWillDeleteFiles', 'onDidOpenNotebookDocument', 'onDidChangeNotebookDocument', 'onDidSaveNotebookDocument', 'onDidCloseNotebookDocument',
      ].map((name) => [name, never]),
    ),
    registerTextDocumentContentProvider(scheme: string, provider: ContentProvider) {
      contentProviders.set(scheme, provider);
      // as VS Code does: a document the provider says changed is asked for again
      const listening = provider.onDidChange?.(async (uri) => {
        const document = documents.find((d) => d.uri.toString() === uri.toString());
        if (document) document.replace(await provider.provideTextDocumentContent(uri, new CancellationTokenSource().token));
      });
      return new Disposable(() => {
        listening?.dispose();
        contentProviders.delete(scheme);
      });
    },
    async openTextDocument(uri: Uri) {
      const open = documents.find((d) => d.uri.toString() === uri.toString());
      if (open) return open;
      const provider = contentProviders.get(uri.scheme);
      if (!provider) throw new Error(`the fake opens documents of content providers only, not ${uri.toString()}`);
      const document = new FakeTextDocument(uri, 'yaml', await provider.provideTextDocumentContent(uri, new CancellationTokenSource().token));
      documents.push(document);
      opened.fire(document);
      return document;
    },
  };
  const languages = new Proxy(
    {
      match: matches,
      createDiagnosticCollection: () => ({
        set(uri: Uri, diagnostics: Diagnostic[] | undefined) {
          record.diagnostics.set(uri.toString(), diagnostics ?? []);
        },
        delete(uri: Uri) {
          record.diagnostics.delete(uri.toString());
        },
        clear() {
          record.diagnostics.clear();
        },
        dispose() {},
      }),
    } as Record<string, unknown>,
    {
      // registerHoverProvider, registerDefinitionProvider, …: whichever the server's capabilities ask for
      get(target, name: string) {
        const kind = /^register(\w+?)s?Provider$/.exec(name)?.[1];
        if (kind === undefined) return target[name];
        return (selector: DocumentFilter | DocumentFilter[], provider: unknown) => {
          record.providers.set(kind, [...(record.providers.get(kind) ?? []), { selector, provider }]);
          return new Disposable(() => {});
        };
      },
    },
  );
  const api = {
    version: options.version,
    env: { appName: 'fake VS Code', language: 'en', openExternal: async () => false },
    Disposable, EventEmitter, CancellationTokenSource, CancellationError, Uri, Position, Range, Location, Diagnostic, MarkdownString, Hover, TabInputText,
    ...Object.fromEntries(UNUSED_CLASSES.map((name) => [name, class {}])),
    // the kinds the client maps the protocol's kinds to, as it is made
    CodeActionKind: Object.fromEntries(['Empty', 'QuickFix', 'Refactor', 'RefactorExtract', 'RefactorInline', 'RefactorRewrite', 'Source', 'SourceOrganizeImports'].map((kind) => [kind, { value: kind }])),
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    DiagnosticTag: { Unnecessary: 1, Deprecated: 2 },
    ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2 },
    LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    TextDocumentSaveReason: { Manual: 1, AfterDelay: 2, FocusOut: 3 },
    FileType: { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 },
    window,
    workspace,
    languages,
    commands: {
      registerCommand(id: string, run: (...args: unknown[]) => unknown) {
        record.commands.set(id, run);
        return new Disposable(() => record.commands.delete(id));
      },
      async executeCommand(id: string, ...args: unknown[]) {
        return record.commands.get(id)?.(...args);
      },
    },
  };

  /** What the user does. */
  const user = {
    /** opens a file in an editor, and makes it the active one */
    open(path: string, languageId: string, text: string): FakeTextDocument {
      const document = new FakeTextDocument(Uri.file(path), languageId, text);
      documents.push(document);
      window.tabGroups.all = [{ tabs: documents.map((d) => ({ input: new TabInputText(d.uri) })) }];
      window.activeTextEditor = { document };
      opened.fire(document);
      return document;
    },
    edit(document: FakeTextDocument, text: string): void {
      changed.fire({ document, contentChanges: [document.replace(text)], reason: undefined });
    },
    save(document: FakeTextDocument): void {
      saved.fire(document);
    },
    /** asks the providers of `kind` whose selectors match the document what VS Code asks them when the user hovers, goes to definition, … */
    async ask(kind: string, document: FakeTextDocument, at: { line: number; character: number }): Promise<unknown[]> {
      const registered = (record.providers.get(kind) ?? []).filter((p) => matches(p.selector, document) > 0);
      const providers = registered.map((p) => p.provider as Record<string, (...args: unknown[]) => unknown>);
      const method = `provide${kind}`;
      return Promise.all(providers.map((p) => p[method]!(document, new Position(at.line, at.character), new CancellationTokenSource().token)));
    },
  };
  return { api, record, user, Position };
}
