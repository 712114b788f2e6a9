import { build, KustomizeError, outputLineOrigins, type WrittenBy } from 'kustomize-ts';
import { EXAMPLES, type Example } from './examples.js';
import { EditorHover } from './hover.js';
import { PlaygroundLanguage, type Problem } from './language.js';
import { showGutter, showProblems } from './problems.js';
import { decodeState, encodeState } from './share.js';
import { TextGrid } from './text-grid.js';

/** an element of the page, by id */
function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el as T;
}

/** the files that make a directory buildable: a Kustomization's or a Composition's */
const BUILD_FILE = /(^|\/)(kustomization\.ya?ml|Kustomization|composition\.ya?ml|Composition)$/;

/**
 * The playground's state and its page: files, the selected file, the directory built, the last
 * output, and the language service that checks the files as they are edited.
 */
class Playground {
  private files: Record<string, string> = {};
  private current = '';
  private target = '';
  private output = '';
  /** the file the last build's error names */
  private errorFile: string | undefined;
  /** renders are asynchronous: only the newest may show its result */
  private renderCount = 0;
  private renderTimer: ReturnType<typeof setTimeout> | undefined;
  /** the files edited since the language service was last told */
  private readonly edited = new Set<string>();
  private language: PlaygroundLanguage | undefined;
  /** changes told to the language service: the page says it checks until it is idle after the newest */
  private checkCount = 0;

  private readonly el = {
    example: byId<HTMLSelectElement>('example'),
    target: byId<HTMLSelectElement>('target'),
    files: byId<HTMLUListElement>('files'),
    editor: byId<HTMLTextAreaElement>('editor'),
    gutter: byId('gutter'),
    problems: byId('problems'),
    problemCount: byId('problem-count'),
    checking: byId('checking'),
    currentFile: byId('current-file'),
    output: byId('output'),
    outputTarget: byId('output-target'),
    origin: byId('origin'),
    status: byId('status'),
    error: byId('error'),
    shareLink: byId<HTMLInputElement>('share-link'),
  };

  private readonly grid = new TextGrid(this.el.editor);
  private readonly hover = new EditorHover(this.el.editor, byId('hover'), this.grid, (at) => {
    this.tellEdits();
    return this.language?.hover(this.current, at.line, at.character) ?? Promise.resolve(null);
  });

  constructor() {
    this.el.example.append(...EXAMPLES.map((e, i) => new Option(e.title, String(i))));
    this.el.example.addEventListener('change', () => this.load(EXAMPLES[Number(this.el.example.value)]!));
    this.el.target.addEventListener('change', () => {
      this.target = this.el.target.value;
      void this.render();
    });
    this.el.editor.addEventListener('input', () => {
      this.files[this.current] = this.el.editor.value;
      this.edited.add(this.current);
      // the service's checks so far are of an older text: none counts until it is told this one
      this.checkCount++;
      this.el.checking.textContent = '(checking…)';
      this.showGutter();
      this.scheduleRender();
    });
    this.el.editor.addEventListener('scroll', () => (this.el.gutter.scrollTop = this.el.editor.scrollTop));
    byId('add-file').addEventListener('click', () => this.addFile());
    byId('delete-file').addEventListener('click', () => this.deleteFile());
    byId('share').addEventListener('click', () => void this.share());
    byId('download').addEventListener('click', () => this.download());
  }

  async start(): Promise<void> {
    byId('not-started').remove();
    const shared = await decodeState(location.hash);
    if (shared) {
      this.el.example.selectedIndex = -1;
      this.load({ title: 'shared', ...shared });
    } else this.load(EXAMPLES[0]!);
  }

  load(example: Example): void {
    this.files = { ...example.files };
    this.target = example.target;
    clearTimeout(this.renderTimer);
    this.edited.clear();
    this.language?.dispose();
    this.language = new PlaygroundLanguage(this.files, () => this.showProblems());
    this.checking();
    this.showProblems();
    this.select(example.open ?? Object.keys(this.files).find((f) => f.startsWith(`${example.target}/`) && BUILD_FILE.test(f)) ?? Object.keys(this.files)[0] ?? '');
    void this.render();
  }

  private select(file: string): void {
    this.current = file;
    this.el.editor.value = this.files[file] ?? '';
    this.el.editor.disabled = !(file in this.files);
    this.el.currentFile.textContent = file;
    this.el.editor.scrollTop = 0;
    this.hover.hide();
    this.showGutter();
    this.listFiles();
  }

  private listFiles(): void {
    this.el.files.replaceChildren(
      ...Object.keys(this.files)
        .sort()
        .map((f) => {
          const button = document.createElement('button');
          button.type = 'button';
          button.textContent = f;
          button.dataset['file'] = f;
          button.setAttribute('aria-current', String(f === this.current));
          if (f === this.errorFile) button.classList.add('has-error');
          const problems = this.language?.problemsIn(f).length ?? 0;
          if (problems > 0) button.dataset['problems'] = String(problems);
          button.addEventListener('click', () => this.select(f));
          const li = document.createElement('li');
          li.append(button);
          return li;
        }),
    );
    const dirs = [...new Set(Object.keys(this.files).filter((f) => BUILD_FILE.test(f)).map((f) => f.replace(BUILD_FILE, '') || '.'))].sort();
    if (!dirs.includes(this.target)) dirs.push(this.target);
    this.el.target.replaceChildren(...dirs.map((d) => new Option(d, d, false, d === this.target)));
  }

  private addFile(): void {
    const path = prompt('Path of the new file (e.g. base/configmap.yaml)')?.trim().replace(/^\/+/, '');
    if (!path) return;
    if (!(path in this.files)) {
      this.files[path] = '';
      this.language?.set(path, '', true);
      this.checking();
    }
    this.select(path);
    this.scheduleRender();
  }

  private deleteFile(): void {
    if (!(this.current in this.files) || !confirm(`Delete ${this.current}?`)) return;
    delete this.files[this.current];
    this.edited.delete(this.current);
    this.language?.remove(this.current);
    this.checking();
    this.select(Object.keys(this.files).sort()[0] ?? '');
    void this.render();
  }

  /** When typing pauses, the language service is told the edits and the output is built again. */
  private scheduleRender(): void {
    clearTimeout(this.renderTimer);
    this.renderTimer = setTimeout(() => void this.render(), 150);
  }

  /** Tells the language service the files edited since it was last told. */
  private tellEdits(): void {
    if (this.edited.size === 0) return;
    for (const file of this.edited) this.language?.set(file, this.files[file]!, false);
    this.edited.clear();
    this.checking();
  }

  /** Says "checking" until the language service has built and checked the newest change (the page counts those in `data-checks`). */
  private checking(): void {
    const count = ++this.checkCount;
    const language = this.language;
    this.el.checking.textContent = '(checking…)';
    void language?.whenIdle().then(() => {
      if (count !== this.checkCount || language !== this.language) return;
      this.el.checking.textContent = '';
      document.body.dataset['checks'] = String(count);
    });
  }

  /** The language service's problems: the list under the editor, the current file's gutter, the file list's counts. */
  private showProblems(): void {
    showProblems(this.el.problems, this.el.problemCount, this.language?.allProblems() ?? [], (p) => this.openProblem(p));
    this.showGutter();
    this.listFiles();
  }

  private showGutter(): void {
    const diagnostics = this.language?.problemsIn(this.current) ?? [];
    showGutter(this.el.gutter, this.el.editor.value.split('\n').length, diagnostics);
    this.el.editor.setAttribute('aria-invalid', String(diagnostics.some((d) => (d.severity ?? 1) === 1)));
  }

  /** Opens a problem's file, the caret at its place, and shows the hover there (who wrote the value). */
  private openProblem({ file, diagnostic }: Problem): void {
    if (!(file in this.files)) return;
    this.select(file);
    this.grid.reveal(diagnostic.range.start);
    this.el.gutter.scrollTop = this.el.editor.scrollTop;
    this.hover.restAt(diagnostic.range.start);
  }

  /** Builds the target from the files in memory and shows the YAML, or the error with its file and field. */
  private async render(): Promise<void> {
    clearTimeout(this.renderTimer);
    this.tellEdits();
    const count = ++this.renderCount;
    this.el.outputTarget.textContent = this.target;
    let built: { yaml: string; origins: (WrittenBy | undefined)[] } | undefined;
    let error: unknown;
    try {
      // legacy order: the output of `kustomize build`, the command line; with who wrote each value
      // over the language service's documents: the output is of the files it checks
      const result = await build(`/${this.target}`, { fs: this.language!.fs, reorder: 'legacy', provenance: true });
      built = { yaml: result.yaml, origins: outputLineOrigins(result.yaml, result.provenance!) };
    } catch (e) {
      error = e;
    }
    if (count !== this.renderCount) return;
    document.body.dataset['renders'] = String(count);
    if (built !== undefined) {
      this.output = built.yaml;
      this.showOutput(built.yaml, built.origins);
      this.el.error.hidden = true;
      this.el.status.textContent = '';
      this.errorFile = undefined;
      this.listFiles();
      return;
    }
    this.el.status.textContent = '(failed; showing the last output)';
    this.showError(error);
  }

  /**
   * The output, each line holding a value marked with who wrote it: hovering shows it, clicking
   * opens its file in the editor at the value.
   */
  private showOutput(yaml: string, origins: readonly (WrittenBy | undefined)[]): void {
    const lines = yaml.split('\n');
    if (lines.at(-1) === '') lines.pop();
    this.el.output.replaceChildren(
      ...lines.map((text, i) => {
        const by = origins[i];
        if (!by) return `${text}\n`;
        const line = document.createElement('span');
        line.className = 'written';
        line.textContent = text;
        line.title = `${by.step} ${by.file}:${by.line}:${by.column}`;
        line.addEventListener('mouseenter', () => this.showOrigin(by));
        line.addEventListener('click', () => this.openAt(by));
        return line;
      }).flatMap((part) => (typeof part === 'string' ? [part] : [part, '\n'])),
    );
    this.el.origin.textContent = '';
  }

  private showOrigin(by: WrittenBy): void {
    this.el.origin.textContent = `${by.step} · ${this.fileOf(by) ?? by.file}:${by.line}:${by.column}`;
  }

  /** Opens the file a value came from, the caret at the value. */
  private openAt(by: WrittenBy): void {
    this.showOrigin(by);
    const file = this.fileOf(by);
    if (file === undefined) return;
    this.select(file);
    this.grid.reveal({ line: by.line - 1, character: by.column - 1 });
    this.el.gutter.scrollTop = this.el.editor.scrollTop;
  }

  /** The playground's name of the file a value came from (records name files relative to the directory built). */
  private fileOf(by: WrittenBy): string | undefined {
    const parts: string[] = [];
    for (const part of `${this.target}/${by.file}`.split('/')) {
      if (part === '..') parts.pop();
      else if (part !== '.' && part !== '') parts.push(part);
    }
    const file = parts.join('/');
    return file in this.files ? file : undefined;
  }

  private showError(error: unknown): void {
    const e = error instanceof KustomizeError ? error : undefined;
    const file = e?.file ? this.fileNamed(e.file) : undefined;
    const parts: (string | Node)[] = [];
    const code = document.createElement('span');
    code.className = 'code';
    code.textContent = e?.code ?? 'ERROR';
    parts.push(code);
    if (file) {
      const link = document.createElement('button');
      link.type = 'button';
      link.className = 'file';
      link.textContent = file;
      link.addEventListener('click', () => this.files[file] !== undefined && this.select(file));
      parts.push(' in ', link);
    }
    if (e?.field) {
      const field = document.createElement('span');
      field.className = 'field';
      field.textContent = e.field;
      parts.push(', field ', field);
    }
    parts.push(`\n${error instanceof Error ? error.message : String(error)}`);
    this.el.error.replaceChildren(...parts);
    this.el.error.hidden = false;
    this.errorFile = file;
    this.listFiles();
  }

  /** the file an error names: errors give paths from the root, or relative to the kustomization that names them */
  private fileNamed(reported: string): string {
    const path = reported.replace(/^\/+/, '');
    const candidates = [path, `${this.target}/${path}`];
    return candidates.find((c) => c in this.files) ?? Object.keys(this.files).find((f) => f.endsWith(`/${path}`)) ?? path;
  }

  private async share(): Promise<void> {
    const hash = await encodeState({ files: this.files, target: this.target });
    history.replaceState(null, '', hash);
    this.el.shareLink.value = location.href;
    this.el.shareLink.hidden = false;
    this.el.shareLink.select();
    await navigator.clipboard?.writeText(location.href).catch(() => {});
  }

  private download(): void {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([this.output], { type: 'application/yaml' }));
    a.download = `${this.target.replace(/\//g, '-') || 'output'}.yaml`;
    a.click();
    URL.revokeObjectURL(a.href);
  }
}

void new Playground().start();
