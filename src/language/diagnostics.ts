import type { Diagnostic } from 'vscode-languageserver-types';
import type { RootDiagnostic } from './root-build.js';
import type { Root, Workspace } from './workspace.js';

/** What diagnostics carry for code actions (LSP keeps it from the publication to the request). */
export interface DiagnosticData {
  /** the roots whose builds found it, by name */
  roots: string[];
  /** the deprecated field `edit fix` migrates, and the kustomization's directory */
  fix?: RootDiagnostic['fix'];
}

/** How many roots a message names before it says how many more. */
const NAMED_ROOTS = 5;

/** The `source` of every diagnostic. */
const SOURCE = 'kustomize-ts';

/**
 * Each file's diagnostics as the editor gets them: a problem several roots found in a file they
 * share is one diagnostic naming them all (in its message, when the file feeds several roots,
 * and as related information pointing at each root's kustomization).
 */
export function diagnosticsByFile(ws: Workspace, uriOf: (path: string) => string): Map<string, Diagnostic[]> {
  const found = new Map<string, Map<string, { problem: RootDiagnostic; roots: Root[] }>>();
  for (const root of ws.allRoots()) {
    for (const problem of root.outcome?.diagnostics ?? []) {
      let inFile = found.get(problem.file);
      if (!inFile) found.set(problem.file, (inFile = new Map()));
      const key = JSON.stringify([problem.range, problem.severity, problem.code, problem.message]);
      const same = inFile.get(key);
      if (same) same.roots.push(root);
      else inFile.set(key, { problem, roots: [root] });
    }
  }
  const out = new Map<string, Diagnostic[]>();
  for (const [file, problems] of found) {
    const shared = ws.rootsReading(file).length > 1;
    const list = [...problems.values()].map(({ problem, roots }) => toDiagnostic(problem, roots, shared || roots.length > 1, uriOf));
    out.set(file, list.sort(byPlace));
  }
  return out;
}

function toDiagnostic(problem: RootDiagnostic, roots: readonly Root[], nameRoots: boolean, uriOf: (path: string) => string): Diagnostic {
  const names = roots.map((r) => r.name);
  const data: DiagnosticData = { roots: names, ...(problem.fix && { fix: problem.fix }) };
  return {
    range: problem.range,
    severity: problem.severity,
    code: problem.code,
    source: SOURCE,
    message: nameRoots ? `${problem.message}\n(${rootsText(names)})` : problem.message,
    relatedInformation: roots.map((r) => ({ location: { uri: uriOf(r.kustomization), range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }, message: `built as root ${r.name}` })),
    data,
  };
}

/** `root a`, `roots a, b`, `roots a, b, c, d, e and 3 more`. */
function rootsText(names: readonly string[]): string {
  if (names.length === 1) return `root ${names[0]}`;
  const shown = names.slice(0, NAMED_ROOTS).join(', ');
  return `roots ${shown}${names.length > NAMED_ROOTS ? ` and ${names.length - NAMED_ROOTS} more` : ''}`;
}

function byPlace(a: Diagnostic, b: Diagnostic): number {
  const s = a.range.start;
  const t = b.range.start;
  return s.line - t.line || s.character - t.character || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0);
}
