#!/bin/sh
':' //; [ -n "$NODE_EXTRA_CA_CERTS" ] && export KUSTOMIZE_TS_DEFERRED_CA_CERTS="$NODE_EXTRA_CA_CERTS" NODE_EXTRA_CA_CERTS=; exec node "$0" "$@"
// Runs the bundled CLI (dist/src/kustomize-ts.cjs, made by scripts/bundle-cli.mjs at
// `npm run build`) with the V8 code cache written beside it; see that script for why.
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

const bundle = join(__dirname, '..', 'dist', 'src', 'kustomize-ts.cjs');
let cachedData;
try {
  cachedData = readFileSync(`${bundle}.cache`);
} catch {
  // no cache: V8 compiles the bundle as usual
}
// latin1: the bundle is ASCII (scripts/bundle-cli.mjs makes sure), and Node reads it so without decoding UTF-8
const script = new Script(readFileSync(bundle, 'latin1'), { filename: bundle, cachedData });
const cli = { exports: {} };
// the bundle's own import() would fail (see scripts/bundle-cli.mjs): in-process plugins come through this one
script.runInThisContext()(cli, createRequire(bundle), (url) => import(url));
if (process.argv[2] === '--worker-thread') {
  // a worker thread of `build-all` or `affected` (src/build/root-threads.ts starts them so), run from this launcher too
  cli.exports.restoreDeferredCaCerts().then(() => cli.exports.workerMain());
} else {
cli.exports
  .restoreDeferredCaCerts()
  .then(() => {
    // Node 20's V8 (11.3) hands a function to its optimizing compiler sooner than a build of a
    // second pays back on two cores: with eight times its budget, builds of thousands of
    // resources take 0.83 of the time, builds of 100,000 the same. Node 22's V8 (with Maglev)
    // was 11% slower with it: other versions keep their defaults. A flag set makes V8 refuse the
    // code caches made before it (the bundle's, and Node's own for its modules), so it is set
    // once the bundle is compiled and the modules loaded here are (TLS, for deferred certificates).
    if (process.versions.v8.startsWith('11.3.')) require('node:v8').setFlagsFromString('--interrupt-budget=540672');
    return cli.exports.main(process.argv.slice(2), undefined, __filename);
  })
  .then((code) => {
    process.exitCode = code;
  });
}
