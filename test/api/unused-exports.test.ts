/**
 * Every export of src/ is used: imported by another module of src/ or test/, or reachable from
 * the package's entries (package.json "exports"). An export nobody imports is dead code, or
 * should not be exported. The TypeScript compiler (5, whose JavaScript API TypeScript 7 does not
 * have) resolves every name, so that re-exports, type-only imports, `typeof import()` and
 * destructured `await import()` count as what they are.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript-5';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Exports used only from outside src/ and test/, where no entry reaches. scripts/, bench/ and
 * bin/ are not read: an export that only they use belongs here.
 */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  // bin/kustomize-ts.js runs the CLI bundle made from this module (scripts/bundle-cli.mjs) and calls them (and main, which tests import);
  // workerMain in the worker threads of build-all
  'src/cli/main.ts': ['restoreDeferredCaCerts', 'workerMain'],
};

/** The modules package.json "exports" maps to (dist/src/X.js is compiled from src/X.ts). */
function packageEntries(): string[] {
  const exports: unknown = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).exports;
  const targets = (v: unknown): string[] => (typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(targets) : []);
  const modules = targets(exports).flatMap((t) => /^\.\/dist\/(src\/.*)\.js$/.exec(t)?.[1] ?? []);
  return [...new Set(modules)].map((m) => `${m}.ts`);
}

/** Declarations whose name is not a use of what they declare. */
const DECLARATION_KINDS = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.VariableDeclaration,
]);

/** What is used from outside src/ and test/: every export of the entries, and the allowed exports of other modules (by path under the root). */
interface Kept {
  root: string;
  entries: ReadonlySet<string>;
  allowed: Readonly<Record<string, readonly string[]>>;
}

/** For each symbol, the files that use it. */
function usesByFile(program: ts.Program, kept: Kept): Map<ts.Symbol, Set<string>> {
  const checker = program.getTypeChecker();
  const uses = new Map<ts.Symbol, Set<string>>();
  // an import names an alias of an alias ... of a declaration: each link is used by the importer
  const useChain = (symbol: ts.Symbol, file: string, throughAliases: boolean): void => {
    for (let s: ts.Symbol | undefined = symbol, seen = new Set<ts.Symbol>(); s && !seen.has(s); s = checker.getImmediateAliasedSymbol(s)) {
      seen.add(s);
      if (throughAliases || seen.size === 1) uses.set(s, (uses.get(s) ?? new Set()).add(file));
      if (!(s.flags & ts.SymbolFlags.Alias) || !s.declarations?.length) break;
    }
  };
  // a property of the module object `import()` gives is made for it: its root is the export
  const use = (symbol: ts.Symbol | undefined, file: string, throughAliases: boolean): void => {
    for (const root of symbol ? checker.getRootSymbols(symbol) : []) useChain(root, file, throughAliases);
  };
  for (const source of program.getSourceFiles()) {
    if (source.isDeclarationFile) continue;
    const file = source.fileName;
    const path = relative(kept.root, file);
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node)) {
        const parent = node.parent;
        if (DECLARATION_KINDS.has(parent.kind) && (parent as ts.NamedDeclaration).name === node) {
          // the name a thing is declared with is no use of it
        } else if (ts.isShorthandPropertyAssignment(parent)) {
          use(checker.getShorthandAssignmentValueSymbol(parent), file, true);
        } else if (ts.isBindingElement(parent) && ts.isObjectBindingPattern(parent.parent) && (parent.propertyName ?? parent.name) === node) {
          // const { name } = await import('./module.js')
          use(checker.getTypeAtLocation(parent.parent).getProperty(node.text), file, true);
        } else {
          // `export { x } from` passes x on: those who import it from here use x, not this (unless it is kept)
          const passedOn =
            ts.isExportSpecifier(parent) &&
            parent.parent.parent.moduleSpecifier !== undefined &&
            !kept.entries.has(path) &&
            !kept.allowed[path]?.includes(parent.name.text);
          use(checker.getSymbolAtLocation(node), file, !passedOn);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return uses;
}

/** The exports of `modules` (paths under the root) no other file uses, as `path: name (what to do)`. */
function unusedExports(program: ts.Program, modules: (path: string) => boolean, kept: Kept): string[] {
  const checker = program.getTypeChecker();
  const uses = usesByFile(program, kept);
  const found: string[] = [];
  for (const source of program.getSourceFiles()) {
    const path = relative(kept.root, source.fileName);
    if (source.isDeclarationFile || !modules(path) || kept.entries.has(path)) continue;
    const module = checker.getSymbolAtLocation(source);
    for (const symbol of module ? checker.getExportsOfModule(module) : []) {
      if (kept.allowed[path]?.includes(symbol.name)) continue;
      const users = uses.get(symbol) ?? new Set();
      if ([...users].some((f) => f !== source.fileName)) continue;
      const fix = symbol.flags & ts.SymbolFlags.Alias ? 'delete the re-export' : users.has(source.fileName) ? "drop 'export'" : 'delete it';
      found.push(`${path}: ${symbol.name} (${fix})`);
    }
  }
  return found;
}

/** A program of in-memory files under /virtual, for checking the checker. */
function virtualProgram(files: Record<string, string>): ts.Program {
  const options: ts.CompilerOptions = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, noEmit: true, skipLibCheck: true, types: [] };
  const host = ts.createCompilerHost(options);
  const text = (name: string): string | undefined => files[relative('/virtual', name)];
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => text(name) ?? readFile(name);
  host.fileExists = (name) => text(name) !== undefined || fileExists(name);
  // module resolution looks only in directories that exist
  host.directoryExists = (dir) => dir === '/virtual' || ts.sys.directoryExists(dir);
  host.getSourceFile = (name, language) => {
    const t = text(name);
    return t === undefined ? getSourceFile(name, language) : ts.createSourceFile(name, t, language);
  };
  return ts.createProgram({ rootNames: Object.keys(files).map((f) => join('/virtual', f)), options, host });
}

test('every export of src/ is imported elsewhere, reachable from an entry, or allowed', () => {
  const config = ts.getParsedCommandLineOfConfigFile(join(REPO, 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
  });
  assert.ok(config, 'tsconfig.json reads');
  const program = ts.createProgram({ rootNames: config.fileNames, options: { ...config.options, noEmit: true } });
  const entries = packageEntries();
  assert.deepEqual(entries, ['src/index.ts', 'src/node.ts', 'src/oci/index.ts'], 'the entries are found in package.json');
  for (const [path, names] of Object.entries(ALLOWED)) {
    const module = program.getTypeChecker().getSymbolAtLocation(program.getSourceFile(join(REPO, path))!);
    const exported = new Set(module ? program.getTypeChecker().getExportsOfModule(module).map((s) => s.name) : []);
    assert.deepEqual(names.filter((n) => !exported.has(n)), [], `allowed exports of ${path} that it no longer has`);
  }
  const found = unusedExports(program, (p) => p.startsWith('src/'), { root: REPO, entries: new Set(entries), allowed: ALLOWED });
  assert.deepEqual(found, [], `exports nothing else uses:\n  ${found.join('\n  ')}\n`);
});

test('the check finds exports nothing imports, and counts every kind of import', () => {
  const program = virtualProgram({
    'entry.ts': "export { viaEntry } from './a.js';\n",
    'a.ts': [
      'export const viaEntry = 1;',
      'export const imported = 2;',
      'export type TypeOnly = number;',
      'export const dynamic = 3;',
      'export const dynamicProperty = 9;',
      'export const typeQuery: number = 4;',
      'export const onlyInside = 5;',
      'export const unused = 6;',
      'export const passedOnOnly = 7;',
      'export const keptThroughB = 8;',
      'export const x: number = onlyInside;',
      '',
    ].join('\n'),
    'b.ts': [
      "import { imported, type TypeOnly, x } from './a.js';",
      "export { passedOnOnly } from './a.js';",
      "export { keptThroughB } from './a.js';",
      'export const y: TypeOnly = imported + x;',
      "export async function load(): Promise<number> {\n  const { dynamic } = await import('./a.js');\n  return dynamic + (await import('./a.js')).dynamicProperty;\n}",
      "export type Q = typeof import('./a.js').typeQuery;",
      '',
    ].join('\n'),
    'c.ts': "import { y, load, type Q } from './b.js';\nexport const z = async (): Promise<Q> => y + (await load());\n",
  });
  assert.deepEqual(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), [], 'the files compile');
  assert.deepEqual(unusedExports(program, (p) => p !== 'c.ts', { root: '/virtual', entries: new Set(['entry.ts']), allowed: { 'b.ts': ['keptThroughB'] } }), [
    "a.ts: onlyInside (drop 'export')",
    'a.ts: unused (delete it)',
    'a.ts: passedOnOnly (delete it)',
    'b.ts: passedOnOnly (delete the re-export)',
  ]);
});
