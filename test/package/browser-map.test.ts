/**
 * Browser builds of the library: package.json's `browser` field maps every module that imports
 * a node: module to an empty one, so that bundlers (esbuild, Vite/Rollup, webpack) build for the
 * browser with no flags. A module that imports a mapped one by name is mapped too, or a bundler
 * would bundle it with those imports undefined (esbuild warns about each): only Node loads it.
 * The modules are read as bundlers read them, compiled (dist/src), so a new or moved one fails
 * this test until the mapping names it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { test } from 'node:test';
import { installPacked, packageJson, REPO } from './packed.js';

/** the compiled modules under `dir` (package.json's way of naming them: ./dist/src/…/x.js) and their text */
function compiled(dir = './dist/src'): Map<string, string> {
  return new Map(
    readdirSync(join(REPO, dir), { withFileTypes: true }).flatMap((e): [string, string][] => {
      const path = `${dir}/${e.name}`;
      return e.isDirectory() ? [...compiled(path)] : e.name.endsWith('.js') ? [[path, readFileSync(join(REPO, path), 'utf8')]] : [];
    }),
  );
}

const importsNode = (text: string) => /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]node:/.test(text);

/** the library's modules that `module` imports: statically (`import … from`, `export … from`), or with `import()` */
function importsOf(module: string, text: string): { statically: string[]; dynamically: string[] } {
  const resolve = (specifiers: Iterable<RegExpMatchArray>) => [...specifiers].map((m) => `./${posix.join(posix.dirname(module), m[1]!)}`);
  return {
    statically: resolve(text.matchAll(/^(?:import|export)\s+(?:[\w$*\s{},]+?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm)),
    dynamically: resolve(text.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)),
  };
}

const modules = compiled();
const mapped = new Set(Object.entries(packageJson().browser).flatMap(([m, to]) => (to === false ? [m] : [])));

/** the modules a browser bundle holds: what the exports' browser entries import, by either way, short of the mapped ones */
function bundled(): string[] {
  const entries = Object.values(packageJson().exports).flatMap((e) => (typeof e === 'object' && e && 'browser' in e ? [e.browser as string] : []));
  const seen = new Set<string>();
  const visit = (m: string): void => {
    if (seen.has(m) || mapped.has(m)) return;
    seen.add(m);
    const { statically, dynamically } = importsOf(m, modules.get(m)!);
    [...statically, ...dynamically].forEach(visit);
  };
  entries.forEach(visit);
  return [...seen];
}

test('the browser field maps away every module that imports node:', () => {
  const nodeOnly = [...modules].filter(([, text]) => importsNode(text)).map(([m]) => m);
  assert.ok(nodeOnly.includes('./dist/src/fs/disk.js'), `the scan found the disk: ${nodeOnly.join(' ')}`);
  const missing = nodeOnly.filter((m) => !mapped.has(m));
  assert.deepEqual(missing, [], `add these to package.json's "browser" field as false: ${JSON.stringify(missing)}`);
});

test('no module of a browser bundle imports a mapped one by name', () => {
  const inBundle = bundled();
  // the entry, and a module only import() reaches: the walk follows both kinds of import
  assert.ok(inBundle.includes('./dist/src/index.js') && inBundle.includes('./dist/src/plugins/starlark-function.js'), inBundle.join(' '));
  const importing = inBundle.filter((m) => importsOf(m, modules.get(m)!).statically.some((i) => mapped.has(i)));
  assert.deepEqual(importing, [], `only Node loads these: add them to package.json's "browser" field as false (or import what they need with import()): ${JSON.stringify(importing)}`);
});

test('the browser field names only modules that exist and import node: or a mapped module', () => {
  const stale = [...mapped].filter((m) => {
    const text = modules.get(m);
    return text === undefined || !(importsNode(text) || importsOf(m, text).statically.some((i) => mapped.has(i)));
  });
  assert.deepEqual(stale, [], `remove (or rename) these in package.json's "browser" field: ${JSON.stringify(stale)}`);
});

test('plain `esbuild page.js --bundle --platform=browser` bundles the published package, without warnings or node: imports', (t) => {
  const packed = installPacked();
  t.after(() => packed.remove());
  const { dir } = packed;
  writeFileSync(join(dir, 'page.js'), "import { build, MemoryFileSystem } from 'kustomize-ts';\nglobalThis.kustomize = { build, MemoryFileSystem };\n");
  const esbuild = join(REPO, 'node_modules/.bin/esbuild');
  // stderr holds esbuild's errors and warnings (e.g. an import from a disabled module)
  const run = spawnSync(esbuild, ['page.js', '--bundle', '--platform=browser', '--outfile=out.js', '--log-level=warning'], { cwd: dir, encoding: 'utf8' });
  assert.equal(run.stderr, '');
  assert.equal(run.status, 0);
  const bundle = readFileSync(join(dir, 'out.js'), 'utf8');
  assert.doesNotMatch(bundle, /(?:from |import\(|require\()["']node:/);
  assert.match(bundle, /\(disabled\):node_modules\/kustomize-ts\/dist\/src\/fs\/disk\.js/);
});
