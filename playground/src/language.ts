import { LanguageService, MemoryFileSystem, type FileSystem } from 'kustomize-ts';
import type { Diagnostic, Hover } from 'vscode-languageserver-types';

/** The `file:` URI of a playground path (`base/a b.yaml` → `file:///base/a%20b.yaml`). */
function uriOf(path: string): string {
  return `file:///${path.split('/').map(encodeURIComponent).join('/')}`;
}

function pathOf(uri: string): string {
  return decodeURIComponent(uri.replace(/^file:\/\/\//, ''));
}

/** A problem the language service found, with the playground's name of its file. */
export interface Problem {
  file: string;
  diagnostic: Diagnostic;
}

/**
 * The language service over the playground's files, as an editor runs it but with no Node: each
 * file is an open document of a service on an empty `MemoryFileSystem`, the whole tree its one
 * workspace folder, so every kustomization root in it is built and checked. A new one is made for
 * each example: nothing of the last example's files lingers.
 */
export class PlaygroundLanguage {
  private readonly service: LanguageService;
  private readonly problems = new Map<string, Diagnostic[]>();
  private closed = false;

  constructor(
    files: Record<string, string>,
    /** told each time a file's problems change */
    private readonly changed: () => void,
  ) {
    this.service = new LanguageService({
      fs: new MemoryFileSystem(),
      publishDiagnostics: (uri, diagnostics) => {
        if (this.closed) return;
        if (diagnostics.length > 0) this.problems.set(pathOf(uri), diagnostics);
        else this.problems.delete(pathOf(uri));
        this.changed();
      },
    });
    this.service.setFolders(['file:///']);
    for (const [path, text] of Object.entries(files)) this.service.openDocument(uriOf(path), text);
  }

  /** The files as the service reads them (its open documents): builds of the output read the same. */
  get fs(): FileSystem {
    return this.service.workspace.fs;
  }

  /** A file's new text, or a new file. */
  set(path: string, text: string, isNew: boolean): void {
    if (isNew) this.service.openDocument(uriOf(path), text);
    else this.service.changeDocument(uriOf(path), text);
  }

  /** A file removed: below the documents there is nothing, so closing it deletes it. */
  remove(path: string): void {
    this.service.closeDocument(uriOf(path));
  }

  /** Every problem, by file and place. */
  allProblems(): Problem[] {
    return [...this.problems]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .flatMap(([file, diagnostics]) => diagnostics.map((diagnostic) => ({ file, diagnostic })));
  }

  problemsIn(file: string): Diagnostic[] {
    return this.problems.get(file) ?? [];
  }

  /** What the value at `line` and `character` (0-based) of a file becomes in each root, or a kustomization key's documentation. */
  hover(file: string, line: number, character: number): Promise<Hover | null> {
    return this.service.hover(uriOf(file), { line, character });
  }

  /** Resolves when every change so far is built and checked. */
  whenIdle(): Promise<void> {
    return this.service.whenIdle();
  }

  dispose(): void {
    this.closed = true;
    this.service.dispose();
  }
}
