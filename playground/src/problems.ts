import type { Diagnostic } from 'vscode-languageserver-types';
import type { Problem } from './language.js';

/** LSP's severities, as the page names them (1 error, 2 warning, 3 information, 4 hint). */
const SEVERITY = ['', 'error', 'warning', 'info', 'hint'] as const;

function severityOf(d: Diagnostic): string {
  return SEVERITY[d.severity ?? 1] ?? 'error';
}

/** A diagnostic's message as text (LSP allows markdown there; the service writes plain text). */
function messageOf(d: Diagnostic): string {
  return typeof d.message === 'string' ? d.message : d.message.value;
}

/** The problems list: each problem as `file:line message`, a button that `pick` is told of. */
export function showProblems(list: HTMLElement, count: HTMLElement, problems: readonly Problem[], pick: (problem: Problem) => void): void {
  count.textContent = problems.length === 0 ? 'none' : String(problems.length);
  list.replaceChildren(
    ...problems.map((problem) => {
      const { file, diagnostic } = problem;
      const button = document.createElement('button');
      button.type = 'button';
      button.className = severityOf(diagnostic);
      const place = document.createElement('span');
      place.className = 'place';
      place.textContent = `${file}:${diagnostic.range.start.line + 1}`;
      const code = document.createElement('span');
      code.className = 'code';
      code.textContent = String(diagnostic.code ?? '');
      button.append(place, ' ', code, ' ', messageOf(diagnostic));
      button.addEventListener('click', () => pick(problem));
      const li = document.createElement('li');
      li.append(button);
      return li;
    }),
  );
}

/**
 * The editor's gutter: a number for each line of the current file, the lines with problems
 * marked (their severity as a class, their messages as the title). Screen readers get the
 * problems from the list, not from here.
 */
export function showGutter(gutter: HTMLElement, lineCount: number, diagnostics: readonly Diagnostic[]): void {
  const marked = new Map<number, Diagnostic[]>();
  for (const d of diagnostics) {
    for (let line = d.range.start.line; line <= Math.max(d.range.start.line, d.range.end.line - (d.range.end.character === 0 ? 1 : 0)); line++) {
      marked.set(line, [...(marked.get(line) ?? []), d]);
    }
  }
  gutter.replaceChildren(
    ...Array.from({ length: lineCount }, (_, line) => {
      const number = document.createElement('div');
      number.textContent = String(line + 1);
      const here = marked.get(line);
      if (here) {
        // the most severe problem of the line decides its mark
        number.classList.add('problem', severityOf(here.reduce((a, b) => ((b.severity ?? 1) < (a.severity ?? 1) ? b : a))));
        number.title = here.map(messageOf).join('\n');
      }
      return number;
    }),
  );
}
