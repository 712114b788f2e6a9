#!/bin/sh
':' //; [ -n "$NODE_EXTRA_CA_CERTS" ] && export KUSTOMIZE_TS_DEFERRED_CA_CERTS="$NODE_EXTRA_CA_CERTS" NODE_EXTRA_CA_CERTS=; exec node "$0" "$@"
// Runs the bundled CLI (dist/src/kustomize-ts.cjs, made by scripts/bundle-cli.mjs at
// `npm run build`) with the V8 code cache written beside it; see that script for why.
//
// The line above is for sh, and a string and a comment for JavaScript: run as a program, this
// file starts Node without NODE_EXTRA_CA_CERTS, whose certificates Node would otherwise parse
// at start-up, every run (src/cli/deferred-ca-certs.ts says why, and how they still apply);
// `node bin/kustomize-ts.js` runs it directly.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

// A reader that stops early (`kustomize-ts build | head -1`) closes the pipe: stop quietly,
// with the status of a process killed by SIGPIPE (as kubectl, 128 + 13).
process.stdout.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(141);
});

const bundle = fileURLToPath(new URL('../dist/src/kustomize-ts.cjs', import.meta.url));
let cachedData;
try {
  cachedData = readFileSync(`${bundle}.cache`);
} catch {
  // no cache: V8 compiles the bundle as usual
}
const script = new Script(readFileSync(bundle, 'utf8'), { filename: bundle, cachedData });
const module = { exports: {} };
// the bundle's own import() would fail (see scripts/bundle-cli.mjs): in-process plugins come through this one
script.runInThisContext()(module, createRequire(bundle), (url) => import(url));
await module.exports.restoreDeferredCaCerts();
process.exitCode = await module.exports.main(process.argv.slice(2));
