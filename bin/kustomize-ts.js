#!/bin/sh
':' //; [ -n "$NODE_EXTRA_CA_CERTS" ] && export KUSTOMIZE_TS_DEFERRED_CA_CERTS="$NODE_EXTRA_CA_CERTS" NODE_EXTRA_CA_CERTS=; exec node "$0" "$@"
// Runs the bundled CLI (dist/src/kustomize-ts.cjs, and the parts it loads on first use, made by
// scripts/bundle-cli.mjs at `npm run build`) with the V8 code cache written beside each; see that
// script for why.
//
// The line above is for sh, and a string and a comment for JavaScript: run as a program, this
// file starts Node without NODE_EXTRA_CA_CERTS, whose certificates Node would otherwise parse
// at start-up, every run (src/cli/deferred-ca-certs.ts says why, and how they still apply);
// `node bin/kustomize-ts.js` runs it directly. It is CommonJS (bin/package.json), which Node
// starts a few milliseconds sooner than an ES module.
'use strict';
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { join } = require('node:path');
const { Script } = require('node:vm');

const dist = join(__dirname, '..', 'dist', 'src');
const requireInDist = createRequire(join(dist, 'kustomize-ts.cjs'));
// the bundles' own import() would fail (see scripts/bundle-cli.mjs): in-process plugins come through this one
const launcherImport = (url) => import(url);
const loaded = new Map();

/** The exports of the bundle `file` in dist/src, which runs on first use. */
function loadBundle(file) {
  let bundle = loaded.get(file);
  if (bundle === undefined) {
    const path = join(dist, file);
    let cachedData;
    try {
      cachedData = readFileSync(`${path}.cache`);
    } catch {
      // no cache: V8 compiles the bundle as usual
    }
    // latin1: the bundles are ASCII (scripts/bundle-cli.mjs makes sure), and Node reads them so without decoding UTF-8
    const script = new Script(readFileSync(path, 'latin1'), { filename: path, cachedData });
    bundle = { exports: {} };
    loaded.set(file, bundle);
    script.runInThisContext()(bundle, requireInDist, launcherImport, loadBundle);
  }
  return bundle.exports;
}

const cli = loadBundle('kustomize-ts.cjs');
if (process.argv[2] === '--worker-thread') {
  // a worker thread of `build-all` or `affected` (src/build/root-threads.ts starts them so), run from this launcher too
  cli.restoreDeferredCaCerts().then(() => cli.workerMain());
} else {
cli
  .restoreDeferredCaCerts()
  .then(() => {
    // Node 20's V8 (11.3) hands a function to its optimizing compiler sooner than a build of a
    // second pays back on two cores: with eight times its budget, builds of thousands of
    // resources take 0.83 of the time, builds of 100,000 the same. Node 22's V8 (with Maglev)
    // was 11% slower with it: other versions keep their defaults. A flag set makes V8 refuse the
    // code caches made before it (the CLI bundle's, and Node's own for its modules), so it is set
    // once the bundle is compiled and the modules loaded here are (TLS, for deferred certificates);
    // the parts, loaded later, have caches made under it (scripts/bundle-cli.mjs sets it too).
    if (process.versions.v8.startsWith('11.3.')) require('node:v8').setFlagsFromString('--interrupt-budget=540672');
    return cli.main(process.argv.slice(2), undefined, { launcher: __filename, calledAs: process.argv[1] });
  })
  .then((code) => {
    process.exitCode = code;
  });
}
