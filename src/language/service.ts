import type { CodeAction, Diagnostic, Hover, Position, Range } from 'vscode-languageserver-types';
import type { FileSystem } from '../fs/filesystem.js';
import { codeActions } from './code-actions.js';
import { diagnosticsByFile } from './diagnostics.js';
import { hover } from './hover.js';
import { readSettings } from './settings.js';
import { pathOfUri, uriOfPath } from './uri.js';
import { Workspace, type FileChange } from './workspace.js';

export interface LanguageServiceOptions {
  /** the files below the editor's documents: the disk in Node (`DiskFileSystem`), a `MemoryFileSystem` in a browser */
  fs: FileSystem;
  /** told a file's diagnostics each time they change (an empty list clears them), and an open document's once it has been built */
  publishDiagnostics?: (uri: string, diagnostics: Diagnostic[]) => void;
}

/** A root as {@link LanguageService.roots} lists it. */
export interface RootSummary {
  /** its directory */
  uri: string;
  name: string;
  kustomization: string;
  /** queued or being built, or built (with what its last build found) */
  state: 'pending' | 'built';
  /** the problems its last build found */
  problems: number;
  /** the files its last build asked about */
  files: number;
  /** how many times it has been built */
  builds: number;
}

/**
 * kustomize as an editor sees it, without a transport: the LSP server (src/lsp) wires it to
 * stdio, the playground calls it directly. Documents are named by `file:` URIs (as the client
 * names them: the same URI comes back in diagnostics); their texts lie over the file system.
 *
 * Each feature is a module over the {@link Workspace} (hover.ts, code-actions.ts): a new one
 * reads `workspace` (files, roots, who read what, `recordsOf`) and gets a method here.
 */
export class LanguageService {
  readonly workspace: Workspace;
  /** the URI the client named each open document by */
  private readonly uris = new Map<string, string>();
  /** each file's diagnostics as last computed, and as last published (JSON) */
  private current = new Map<string, Diagnostic[]>();
  private readonly published = new Map<string, string>();
  /** open documents not given their diagnostics yet (given once, even if there are none) */
  private readonly unpublished = new Set<string>();

  constructor(private readonly options: LanguageServiceOptions) {
    this.workspace = new Workspace(options.fs, (files) => this.publish(files));
  }

  /** The workspace folders (`file:` URIs): their kustomization roots are found and built. */
  setFolders(uris: readonly string[]): void {
    this.workspace.setFolders(uris.flatMap((u) => pathOfUri(u) ?? []));
  }

  /** The client's `kustomize` settings (any JSON); returns what was wrong with them (those settings keep their defaults). */
  configure(settings: unknown): string[] {
    const { settings: read, problems } = readSettings(settings);
    if (JSON.stringify(read) !== JSON.stringify(this.workspace.settings)) this.workspace.configure(read);
    return problems;
  }

  openDocument(uri: string, text: string): void {
    const path = pathOfUri(uri);
    if (path === undefined) return;
    this.uris.set(path, uri);
    this.unpublished.add(path);
    this.workspace.setText(path, text, true);
  }

  changeDocument(uri: string, text: string): void {
    const path = pathOfUri(uri);
    if (path !== undefined) this.workspace.setText(path, text, false);
  }

  closeDocument(uri: string): void {
    const path = pathOfUri(uri);
    if (path === undefined) return;
    this.uris.delete(path);
    this.unpublished.delete(path);
    this.workspace.closeText(path);
  }

  /** Files changed on the disk (a file watcher's events). */
  filesChanged(changes: readonly { uri: string; change: FileChange }[]): void {
    for (const { uri, change } of changes) {
      const path = pathOfUri(uri);
      if (path !== undefined) this.workspace.touched(path, change);
    }
  }

  /** A file's diagnostics as last computed. */
  diagnostics(uri: string): Diagnostic[] {
    const path = pathOfUri(uri);
    return (path !== undefined && this.current.get(path)) || [];
  }

  async hover(uri: string, position: Position): Promise<Hover | null> {
    this.workspace.noteActivity();
    const path = pathOfUri(uri);
    const answer = path === undefined ? null : await hover(this.workspace, path, position);
    // (a hover may wait for records: the quiet the checks wait for starts at its answer)
    this.workspace.noteActivity();
    return answer;
  }

  codeActions(uri: string, range: Range): Promise<CodeAction[]> {
    this.workspace.noteActivity();
    return codeActions(this.workspace, range, this.diagnostics(uri), (p) => this.uriOf(p));
  }

  roots(): RootSummary[] {
    return this.workspace.allRoots().map((r) => ({
      uri: this.uriOf(r.dir),
      name: r.name,
      kustomization: this.uriOf(r.kustomization),
      state: this.workspace.isPending(r) || !r.outcome ? 'pending' : 'built',
      problems: r.outcome?.diagnostics.length ?? 0,
      files: r.outcome?.asked.size ?? 0,
      builds: r.builds,
    }));
  }

  /** Resolves once every change so far is built and its diagnostics published. */
  whenIdle(): Promise<void> {
    return this.workspace.whenIdle();
  }

  dispose(): void {
    this.workspace.dispose();
  }

  /** The URI of a path: the one the client opened it by, if open. */
  uriOf(path: string): string {
    return this.uris.get(path) ?? uriOfPath(path);
  }

  private publish(files: ReadonlySet<string>): void {
    this.current = diagnosticsByFile(this.workspace, (p) => this.uriOf(p));
    for (const file of new Set([...files, ...this.unpublished])) {
      const diagnostics = this.current.get(file) ?? [];
      const json = JSON.stringify(diagnostics);
      if (this.published.get(file) === json && !this.unpublished.has(file)) continue;
      this.unpublished.delete(file);
      this.published.set(file, json);
      this.options.publishDiagnostics?.(this.uriOf(file), diagnostics);
    }
  }
}
