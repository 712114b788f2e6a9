/**
 * Browser builds of the library: package.json's `browser` field maps every module that imports
 * a node: module to an empty one, so that bundlers (esbuild, Vite/Rollup, webpack) build for the
 * browser with no flags. The Node-only modules are found here from the sources, so a new or
 * moved one fails this test until the mapping names it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { installPacked, packageJson, REPO } from './packed.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

const importsNode = (text: string) => /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]node:/.test(text);

/** the dist path (as package.json writes it) of each source module that imports a node: module */
function nodeOnlyModules(): string[] {
  return sources(join(REPO, 'src'))
    .filter((f) => importsNode(readFileSync(f, 'utf8')))
    .map((f) => `./dist/${relative(REPO, f).replace(/\.ts$/, '.js')}`)
    .sort();
}

test('the browser field maps away every module that imports node:', () => {
  const nodeOnly = nodeOnlyModules();
  assert.ok(nodeOnly.includes('./dist/src/fs/disk.js'), `the scan found the disk: ${nodeOnly.join(' ')}`);
  const mapped = packageJson().browser;
  const missing = nodeOnly.filter((m) => mapped[m] !== false);
  assert.deepEqual(missing, [], `add these to package.json's "browser" field as false: ${JSON.stringify(missing)}`);
});

test('the browser field names only modules that exist and import node:', () => {
  const nodeOnly = new Set(nodeOnlyModules());
  const stale = Object.keys(packageJson().browser).filter(
    (m) => !existsSync(join(REPO, m.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'))) || !nodeOnly.has(m),
  );
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
