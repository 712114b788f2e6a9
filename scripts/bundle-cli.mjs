#!/usr/bin/env node
// Bundles the CLI (dist/src/cli/main.js, compiled by tsc, with the `yaml` package) into one
// minified file, dist/src/kustomize-ts.cjs, and writes V8's code cache for it beside it
// (dist/src/kustomize-ts.cjs.cache). bin/kustomize-ts.js runs the bundle with that cache, so
// start-up reads and compiles one file instead of resolving and linking hundreds of modules.
//
// The bundle is a function expression `(function (module, require, launcherImport) { ... })`, so
// that this script and bin/kustomize-ts.js compile exactly the same text (the cache is only
// accepted for the text it was made from). `import()` fails in a vm.Script whose code came from
// the cache ("A dynamic import callback was not specified"), so the bundle has none: Node's
// modules are loaded with `require`, and in-process plugins with the launcher's `launcherImport`
// (src/plugins/import-module.ts is replaced by a module calling it). The cache is made after
// building the bundled example, so that it holds the functions a build compiles, not only the
// top level. A Node other than the one that made it rejects the cache and compiles the bundle
// as usual: slower to start, same result.

import * as esbuild from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(REPO, 'dist', 'src', 'kustomize-ts.cjs');
const WARM_UP = [join(REPO, 'examples', 'hello', 'overlays', 'production')];

/** src/plugins/import-module.ts, in the bundle: the launcher's `import`, the wrapper's third parameter. */
const launcherImport = {
  name: 'launcher-import',
  setup(build) {
    build.onResolve({ filter: /[/\\]import-module\.js$/ }, () => ({ path: 'import-module', namespace: 'launcher' }));
    build.onLoad({ filter: /.*/, namespace: 'launcher' }, () => ({ contents: 'export const importModule = (url) => launcherImport(url);', loader: 'js' }));
  },
};

/**
 * re2js (150 kB of the bundle): its top level runs when a build first compiles a Go regular
 * expression that needs it, not at every start (most builds have none). The shim's `require` is
 * bundled by esbuild, which wraps the package's CommonJS build to run on first use; the library
 * keeps its plain import.
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

await esbuild.build({
  entryPoints: [join(REPO, 'dist', 'src', 'cli', 'main.js')],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  // the package's ES-module build, which esbuild can tree-shake (its CommonJS build cannot be)
  alias: { yaml: join(REPO, 'node_modules', 'yaml', 'browser', 'index.js') },
  supported: { 'dynamic-import': false },
  // non-ASCII characters escaped: the launcher reads the bundle as latin1, which is quicker than UTF-8
  charset: 'ascii',
  plugins: [launcherImport, lazyRe2js],
  banner: { js: '(function (module, require, launcherImport) {' },
  footer: { js: '})' },
  outfile: OUT,
  logLevel: 'warning',
});

const source = readFileSync(OUT, 'latin1');
if (/[^\x00-\x7f]/.test(source)) throw new Error('bundle-cli: the bundle is not ASCII, and bin/kustomize-ts.js reads it as latin1');
const script = new Script(source, { filename: OUT });
const module = { exports: {} };
script.runInThisContext()(module, createRequire(OUT), (url) => import(url));
const quiet = { out: () => {}, err: () => {} };
for (const dir of WARM_UP) {
  const code = await module.exports.main(['build', dir], quiet);
  if (code !== 0) throw new Error(`bundle-cli: the bundled CLI failed to build ${dir}`);
}
writeFileSync(`${OUT}.cache`, script.createCachedData());
