import type { CodeAction, CodeLens, CompletionItem, Diagnostic, DocumentLink, Hover, Location, Position, Range, WorkspaceEdit } from 'vscode-languageserver-types';
import type { FileSystem } from '../fs/filesystem.js';
import { codeActions } from './code-actions.js';
import { codeLenses } from './code-lens.js';
import { Completion } from './completion.js';
import { diagnosticsByFile } from './diagnostics.js';
import { hover } from './hover.js';
import { definition } from './navigation/definition.js';
import { documentLinks } from './navigation/document-links.js';
import { references } from './navigation/references.js';
import type { FilePlace } from './navigation/rendered.js';
import { prepareRename, rename } from './navigation/rename.js';
import { Previews, PreviewUnavailable, type PreviewResult } from './preview.js';
import { readSettings } from './settings.js';
import { pathOfUri, uriOfPath } from './uri.js';
import { Workspace, type FileChange } from './workspace.js';

export interface LanguageServiceOptions {
  /** the files below the editor's documents: the disk in Node (`DiskFileSystem`), a `MemoryFileSystem` in a browser */
  fs: FileSystem;
  /** told a file's diagnostics each time they change (an empty list clears them), and an open document's once it has been built */
  publishDiagnostics?: (uri: string, diagnostics: Diagnostic[]) => void;
  /** told the roots (by name) whose output, or error, changed: their previews are to be asked for again */
  previewChanged?: (roots: string[]) => void;
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
  private readonly completer: Completion;
  private readonly builtListeners: (() => void)[] = [];
  private readonly previews: Previews;

  constructor(private readonly options: LanguageServiceOptions) {
    this.workspace = new Workspace(options.fs, (files) => this.publish(files), (roots) => options.previewChanged?.(roots.map((r) => r.name)));
    this.completer = new Completion(this.workspace);
    this.previews = new Previews(this.workspace, (p) => this.uriOf(p));
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

  hover(uri: string, position: Position): Promise<Hover | null> {
    this.workspace.noteActivity();
    const path = pathOfUri(uri);
    return path === undefined ? Promise.resolve(null) : hover(this.workspace, path, position);
  }

  codeActions(uri: string, range: Range): Promise<CodeAction[]> {
    this.workspace.noteActivity();
    return codeActions(this.workspace, range, this.diagnostics(uri), (p) => this.uriOf(p));
  }

  /** What can be written at the position: a kustomization's keys, values, paths and targets; a resource's or a patch's fields and values. */
  completion(uri: string, position: Position): Promise<CompletionItem[]> {
    this.workspace.noteActivity();
    const path = pathOfUri(uri);
    return path === undefined ? Promise.resolve([]) : this.completer.at(path, position);
  }

  /** A kustomization's lenses: its root's resource count, Preview, how many roots render it. */
  codeLenses(uri: string): CodeLens[] {
    const path = pathOfUri(uri);
    return path === undefined ? [] : codeLenses(this.workspace, path, uri);
  }

  /** Calls `listener` each time builds are told (at the end of a run, and every so often in a long one): what shows outputs (code lenses) may have changed. */
  onRootsBuilt(listener: () => void): void {
    this.builtListeners.push(listener);
  }

  /**
   * The output of the root `uri` belongs to (or of the root named `root`), as `kustomize-ts
   * build` prints it over the editor's texts, with where each line's value was written; or the
   * error its build fails with. Throws {@link PreviewUnavailable} when no root has the file.
   */
  preview(uri: string, root?: string): Promise<PreviewResult> {
    this.workspace.noteActivity();
    const path = pathOfUri(uri);
    return path === undefined ? Promise.reject(new PreviewUnavailable(`${uri} is not a file: URI`)) : this.previews.preview(path, root);
  }

  /** Where the path, patch target, patch or replacement source under the cursor goes (see navigation/definition.ts). */
  async definition(uri: string, position: Position): Promise<Location[]> {
    this.workspace.noteActivity();
    const path = pathOfUri(uri);
    return path === undefined ? [] : (await definition(this.workspace, path, position)).map((p) => this.locationOf(p));
  }

  /** The paths and URLs a kustomization, Composition or Catalog names, as links. */
  documentLinks(uri: string): DocumentLink[] {
    const path = pathOfUri(uri);
    if (path === undefined) return [];
    return documentLinks(this.workspace, path).map(({ range, target }) => ({ range, target: 'file' in target ? this.uriOf(target.file) : target.url }));
  }

  /** What refers to the file, or to the resource whose name or kind is under the cursor (see navigation/references.ts). */
  async references(uri: string, position: Position, includeDeclaration: boolean): Promise<Location[]> {
    this.workspace.noteActivity();
    const path = pathOfUri(uri);
    return path === undefined ? [] : (await references(this.workspace, path, position, includeDeclaration)).map((p) => this.locationOf(p));
  }

  /** The resource name under the cursor a rename changes; a `RenameRefused` where there is none. */
  prepareRename(uri: string, position: Position): Promise<{ range: Range; placeholder: string }> {
    this.workspace.noteActivity();
    return prepareRename(this.workspace, pathOfUri(uri) ?? '', position);
  }

  /** The edit that renames the resource whose name is under the cursor, wherever the workspace's files name it (see navigation/rename.ts). */
  async rename(uri: string, position: Position, newName: string): Promise<WorkspaceEdit> {
    this.workspace.noteActivity();
    const edits = await rename(this.workspace, pathOfUri(uri) ?? '', position, newName);
    return { changes: Object.fromEntries([...edits].map(([file, e]) => [this.uriOf(file), e])) };
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

  private locationOf(place: FilePlace): Location {
    return { uri: this.uriOf(place.file), range: place.range };
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
    for (const listener of this.builtListeners) listener();
  }
}
