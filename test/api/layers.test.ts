/**
 * src/ is layered: its folders (and top-level files) stand in one order, from the bottom up, and
 * each imports only what stands before it (type-only imports and lazy `import()` included), so
 * neither modules nor folders form cycles and the pipeline flows one way.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const deps = [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g)].map((m) =>
      resolve(dirname(f), (m[1] ?? m[2]!).replace(/\.js$/, '.ts')),
    );
    graph.set(f, deps);
  }
  return graph;
}

function cycles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, 'open');
    stack.push(n);
    for (const d of graph.get(n) ?? []) {
      if (!graph.has(d)) continue;
      if (state.get(d) === 'open') found.push([...stack.slice(stack.indexOf(d)), d].map((p) => relative(SRC, p)).join(' -> '));
      else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f);
  return found;
}

/** The folders and top-level files of src/, from the bottom up: each may import only those before it. */
const LAYERS = [
  // foundations, which know nothing of kustomize
  'errors.ts',
  'abort.ts',
  'memo',
  'host.ts',
  'encoding',
  'yaml',
  'fs',
  'process',
  'oci',
  'openapi',
  'schema',
  'starlark',
  // the kustomize releases a build can behave as, and what each does differently
  'versions',
  // load: files, load restrictions, entries, remote trees; the options of a build
  'load',
  'options.ts',
  // model: resources, ids, selectors, patches, field specs
  'model',
  'patch',
  'fieldspec',
  // kinds: Kustomization, Composition, function specs
  'kinds',
  // builtins and plugins
  'plugins',
  'vars',
  'replacements',
  'filters',
  'helm',
  'builtins',
  'catalog',
  // pipeline: plans, and the one runner of every kind's plan
  'plan',
  'composition',
  'pipeline',
  // output: the printed build, and the cache around it
  'output',
  'validate',
  'build',
  // what users call: library commands, the CLI, the entries
  'edit',
  'localize',
  // the language service (browser-safe), and the LSP server over it (Node)
  'language',
  'serve',
  'lsp',
  'cli',
  'index.ts',
  'node.ts',
];

/** The folder or top-level file of src/ a module belongs to. */
function layerOf(file: string): string {
  return relative(SRC, file).split('/')[0]!;
}

/** The imports of a module from a layer above its own. */
function upwardImports(graph: Map<string, string[]>): string[] {
  const upward: string[] = [];
  for (const [file, deps] of graph) {
    for (const dep of deps) {
      if (LAYERS.indexOf(layerOf(dep)) > LAYERS.indexOf(layerOf(file))) upward.push(`${relative(SRC, file)} -> ${relative(SRC, dep)}`);
    }
  }
  return upward;
}

test('every folder of src/ imports only the layers below it', () => {
  const graph = importGraph(sources(SRC));
  const unlisted = [...new Set([...graph.keys()].map(layerOf))].filter((l) => !LAYERS.includes(l));
  assert.deepEqual(unlisted, [], 'a new folder must take its place in LAYERS');
  assert.deepEqual(upwardImports(graph), []);
});

test('the layer check finds an import from a layer above', () => {
  const g = new Map([
    [join(SRC, 'model/resource.ts'), [join(SRC, 'yaml/value.ts'), join(SRC, 'pipeline/run.ts')]],
    [join(SRC, 'yaml/value.ts'), []],
  ]);
  assert.deepEqual(upwardImports(g), ['model/resource.ts -> pipeline/run.ts']);
});

test('src/ has no import cycles', () => {
  assert.deepEqual(cycles(importGraph(sources(SRC))), []);
});

test('the cycle finder finds a cycle', () => {
  const g = new Map([
    [join(SRC, 'a.ts'), [join(SRC, 'b.ts')]],
    [join(SRC, 'b.ts'), [join(SRC, 'a.ts')]],
  ]);
  assert.deepEqual(cycles(g), ['a.ts -> b.ts -> a.ts']);
});
