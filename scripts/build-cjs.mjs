// The CommonJS build (package.json `exports` → `require`), for `require('kustomize-ts')` on Node
// versions without require(esm), made from the compiled ES modules in dist/src (run `tsc` first):
// - dist/cjs/index.cjs and node.cjs: both entries come from one bundle, so they share one copy of
//   each class (KustomizeError, Resource, …) and `instanceof` holds across them. Dependencies and
//   node: modules stay external; the lazily imported Node-only parts are bundled in and still
//   load lazily.
// - dist/cjs/types/: the declarations of dist/src, under a package.json that makes them
//   CommonJS, so TypeScript (module node16/nodenext) types a `require` as a `require`.
import { build } from 'esbuild';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist/cjs');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const entries = ['index', 'node'];

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'package.json'), '{ "type": "commonjs" }\n');
await build({
  stdin: {
    contents: entries.map((e) => `export * as ${e} from './dist/src/${e}.js';`).join('\n'),
    resolveDir: root,
    sourcefile: 'cjs-entries.js',
  },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: Object.keys(pkg.dependencies ?? {}),
  outfile: join(out, 'bundle.cjs'),
  logLevel: 'warning',
});
for (const e of entries) writeFileSync(join(out, `${e}.cjs`), `'use strict';\nmodule.exports = require('./bundle.cjs').${e};\n`);
cpSync(join(root, 'dist/src'), join(out, 'types'), {
  recursive: true,
  filter: (src) => !/\.(js|map)$/.test(src),
});
