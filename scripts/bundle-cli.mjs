#!/usr/bin/env node
// Bundles the CLI (dist/src/cli/main.js, compiled by tsc, with the `yaml` package) into minified
// files, and writes V8's code cache for each beside it (FILE.cache). bin/kustomize-ts.js runs
// them with those caches, so start-up reads and compiles one file instead of resolving and
// linking hundreds of modules.
//
// The CLI is one bundle, dist/src/kustomize-ts.cjs, and parts (PARTS below): the code only some
// runs need (the Starlark interpreter, re2js, the commands over many roots and the server), each
// in a file of its own that is read and compiled when a run first needs it. Every run compiles
// 602 kB instead of 906: about 1 ms sooner at every start (docs/performance.md, Start-up). A part
// is reached only where esbuild sees a lazy import: `await import()`, or a `require` it wrote. A
// module of the CLI bundle that a part imports is the CLI bundle's, which hands it over in its
// `modules` export, and the other way round: each module is in one file, with its one state
// (classes, memos). The CLI bundle is made twice: first to learn which modules it holds, then
// handing over those the parts import.
//
// Each bundle is a function expression `(function (module, require, launcherImport, loadBundle)
// { ... })`, so that this script and bin/kustomize-ts.js compile exactly the same text (a cache
// is only accepted for the text it was made from); `loadBundle(FILE)` returns the exports of the
// bundle FILE, running it on first use. `import()` fails in a vm.Script whose code came from the
// cache ("A dynamic import callback was not specified"), so the bundles have none: Node's modules
// are loaded with `require`, and in-process plugins with the launcher's `launcherImport`
// (src/plugins/import-module.ts is replaced by a module calling it). The CLI bundle's cache is
// made after building the bundled example, so that it holds the functions a build compiles, not
// only the top level; a part's holds the top level of each of its modules. A Node other than the
// one that made them rejects the caches and compiles the bundles as usual: slower to start, same
// result.

import * as esbuild from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(REPO, 'dist', 'src');
const CLI = 'kustomize-ts.cjs';
const WARM_UP = [join(REPO, 'examples', 'hello', 'overlays', 'production')];
const resolveHere = createRequire(join(REPO, 'package.json')).resolve;

/** A module's name in the bundles: its path from the repository (as esbuild's metafile names it). */
const moduleKey = (path) => relative(REPO, path);

/** The parts: for each file, the modules the CLI bundle imports from it (the rest of it is what they import). */
const PARTS = new Map([
  // the interpreter (113 kB), for builds that run Starlark
  ['kustomize-ts-starlark.cjs', [join(DIST, 'starlark', 'krm.js')]],
  // re2js (152 kB): Go regular expressions that JavaScript's cannot run (model/go-regexp.ts)
  ['kustomize-ts-re2js.cjs', [resolveHere('re2js')]],
  // the schemas of Kubernetes' types, each version's, for validate
  ['kustomize-ts-kubernetes-1.36.cjs', [join(DIST, 'schema', 'kubernetes-v1.36.generated.js')]],
  ['kustomize-ts-kubernetes-1.32.cjs', [join(DIST, 'schema', 'kubernetes-v1.32.generated.js')]],
  // the schema checker, for builds that run a catalog function whose version has a schema, and validate
  [
    'kustomize-ts-schema.cjs',
    ['catalog/config-schema.js', 'build/validate.js', 'validate/report-formats.js'].map((m) => join(DIST, m)),
  ],
  // the language server (kustomize-ts lsp): the language service and vscode-languageserver
  ['kustomize-ts-lsp.cjs', [join(DIST, 'lsp', 'server.js')]],
  // build-all, affected, diff, their worker threads, serve, and validate's over many roots; the
  // BuildCache (which the language server takes from here)
  [
    'kustomize-ts-roots.cjs',
    ['build/build-all.js', 'build/affected.js', 'build/diff.js', 'cli/diff-report.js', 'build/root-worker.js', 'serve/render-server.js', 'build/root-validation.js', 'build/build-cache.js', 'fs/tree.js'].map((m) => join(DIST, m)),
  ],
]);

/** src/plugins/import-module.ts, in the bundle: the launcher's `import`, the wrapper's third parameter. */
const launcherImport = {
  name: 'launcher-import',
  setup(build) {
    build.onResolve({ filter: /[/\\]import-module\.js$/ }, () => ({ path: 'import-module', namespace: 'launcher' }));
    build.onLoad({ filter: /.*/, namespace: 'launcher' }, () => ({ contents: 'export const importModule = (url) => launcherImport(url);', loader: 'js' }));
  },
};

/**
 * re2js: its top level runs when a build first compiles a Go regular expression that needs it, not
 * at every start (most builds have none). The shim's `require` loads its part; the library keeps
 * its plain import.
 */
const lazyRe2js = {
  name: 'lazy-re2js',
  setup(build) {
    build.onResolve({ filter: /^re2js$/ }, (args) => (args.namespace === 'lazy' ? undefined : { path: 're2js', namespace: 'lazy' }));
    build.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: "export const RE2JS = new Proxy({}, { get: (_, key) => require('re2js').RE2JS[key] });",
      loader: 'js',
      resolveDir: REPO,
    }));
  },
};

/**
 * Each module in one bundle. `home` maps a module's key to the file that holds it: an import, in
 * `file`, of a module another file holds becomes `loadBundle(other).modules[key]`, and the module
 * is added to what that file hands over (`wanted`, by file). The CLI bundle may reach a part only
 * lazily, or the part would be loaded at every start.
 */
function placement(file, home, wanted) {
  const RESOLVING = {};
  return {
    name: 'placement',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === RESOLVING) return undefined;
        const { kind, importer, resolveDir, namespace } = args;
        const resolved = await build.resolve(args.path, { kind, importer, resolveDir, namespace, pluginData: RESOLVING });
        const module = moduleKey(resolved.path);
        const owner = resolved.errors.length === 0 && resolved.namespace === 'file' ? home.get(module) : undefined;
        if (owner === undefined || owner === file) return resolved;
        if (file === CLI && kind === 'import-statement') throw new Error(`${importer} imports ${module}, which is in ${owner}: it would be loaded at every start`);
        if (owner !== CLI && !PARTS.get(owner).some((entry) => moduleKey(entry) === module)) {
          throw new Error(`${module} is in both ${owner} and ${file}: one part should hold both, or the CLI bundle this module`);
        }
        wanted.get(owner).add(module);
        return { path: module, namespace: 'elsewhere', pluginData: owner };
      });
      build.onLoad({ filter: /.*/, namespace: 'elsewhere' }, (args) => ({
        contents: `module.exports = loadBundle(${JSON.stringify(args.pluginData)}).modules[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
    },
  };
}

/**
 * The source of `file`'s `modules` export. The CLI bundle hands over modules it runs at start
 * anyway; a part's run their top level when first asked for, as they did in a single bundle:
 * `build-all` loads the part that also holds the server, but not node:http.
 */
function modulesExport(file, modules) {
  const path = (m) => JSON.stringify(join(REPO, m));
  if (file !== CLI) return `export const modules = { ${modules.map((m) => `get ${JSON.stringify(m)}() { return require(${path(m)}); }`).join(', ')} };`;
  return `${modules.map((m, i) => `import * as m${i} from ${path(m)};`).join('\n')}\nexport const modules = { ${modules.map((m, i) => `${JSON.stringify(m)}: m${i}`).join(', ')} };`;
}

/** Bundles `file` from `entry` (its source) and `modules` (the modules it hands to the others); returns the modules it holds. */
async function bundle(file, entry, modules, home, wanted) {
  const result = await esbuild.build({
    stdin: { contents: `${entry}\n${modulesExport(file, [...modules])}\n`, resolveDir: REPO, sourcefile: file },
    absWorkingDir: REPO,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    // the package's ES-module build, which esbuild can tree-shake (its CommonJS build cannot be)
    alias: { yaml: join(REPO, 'node_modules', 'yaml', 'browser', 'index.js') },
    supported: { 'dynamic-import': false },
    // non-ASCII characters escaped: the launcher reads the bundles as latin1, which is quicker than UTF-8
    charset: 'ascii',
    plugins: [launcherImport, lazyRe2js, placement(file, home, wanted)],
    banner: { js: '(function (module, require, launcherImport, loadBundle) {' },
    footer: { js: '})' },
    outfile: join(DIST, file),
    metafile: true,
    logLevel: 'warning',
  });
  return Object.keys(result.metafile.inputs).filter((m) => !m.includes(':') && m !== file);
}

const CLI_ENTRY = `export * from ${JSON.stringify(join(DIST, 'cli', 'main.js'))};`;
const home = new Map([...PARTS].flatMap(([file, entries]) => entries.map((entry) => [moduleKey(entry), file])));
const wanted = new Map([CLI, ...PARTS.keys()].map((file) => [file, new Set()]));
const held = await bundle(CLI, CLI_ENTRY, [], home, wanted);
for (const module of held) home.set(module, CLI);
for (const [file, entries] of PARTS) {
  for (const module of await bundle(file, '', entries.map(moduleKey), home, wanted)) home.set(module, file);
}
const again = await bundle(CLI, CLI_ENTRY, wanted.get(CLI), home, wanted);
if (again.sort().join('\n') !== held.sort().join('\n')) throw new Error('bundle-cli: the CLI bundle holds other modules once it hands some to the parts');

const scripts = new Map();
const requireHere = createRequire(join(DIST, CLI));
/** bin/kustomize-ts.js's loadBundle, without the caches (this script makes them). */
function loadBundle(file) {
  if (!scripts.has(file)) {
    const source = readFileSync(join(DIST, file), 'latin1');
    if (/[^\x00-\x7f]/.test(source)) throw new Error(`bundle-cli: ${file} is not ASCII, and bin/kustomize-ts.js reads it as latin1`);
    const script = new Script(source, { filename: join(DIST, file) });
    scripts.set(file, { script, module: { exports: {} } });
    script.runInThisContext()(scripts.get(file).module, requireHere, (url) => import(url), loadBundle);
  }
  return scripts.get(file).module.exports;
}
const cli = loadBundle(CLI);
const quiet = { out: () => {}, err: () => {} };
for (const dir of WARM_UP) {
  const code = await cli.main(['build', dir], quiet);
  if (code !== 0) throw new Error(`bundle-cli: the bundled CLI failed to build ${dir}`);
}
writeFileSync(join(DIST, `${CLI}.cache`), scripts.get(CLI).script.createCachedData());
// the V8 flag bin/kustomize-ts.js sets once the CLI bundle is compiled, and so before any part is
// loaded (it says why): V8 refuses a cache made under other flags
if (process.versions.v8.startsWith('11.3.')) setFlagsFromString('--interrupt-budget=540672');
for (const file of PARTS.keys()) {
  // each module's top level run, so that the cache holds it compiled
  const { modules } = loadBundle(file);
  for (const key of Object.keys(modules)) void modules[key];
  writeFileSync(join(DIST, `${file}.cache`), scripts.get(file).script.createCachedData());
}
