/**
 * The modules of src/ form no import cycle (type-only imports and lazy `import()` included):
 * each folder is a stage or a layer, and the pipeline flows one way.
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
