// The CommonJS build (package.json `exports` → `require`), for `require('kustomize-ts')` on Node
// versions without require(esm), made from the compiled ES modules in dist/src (run `tsc` first):
// - dist/cjs/index.cjs, node.cjs and oci.cjs: the entries come from one bundle, so they share one copy of
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
/** the CommonJS files, by the ES module each one is */
const entries = { index: 'index', node: 'node', oci: 'oci/index' };

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'package.json'), '{ "type": "commonjs" }\n');
await build({
  stdin: {
    contents: Object.entries(entries).map(([name, module]) => `export * as ${name} from './dist/src/${module}.js';`).join('\n'),
    resolveDir: root,
    sourcefile: 'cjs-entries.js',
  },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: Object.keys(pkg.dependencies ?? {}),
  // node.ts names the ES module worker threads start (dist/src/build/worker-entry.js) by its own
  // URL: here that is the URL dist/src/node.js has, so the CommonJS entry starts the same module
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(require('node:path').join(__dirname, '..', 'src', 'node.js')).href;" },
  outfile: join(out, 'bundle.cjs'),
  logLevel: 'warning',
});
for (const name of Object.keys(entries)) writeFileSync(join(out, `${name}.cjs`), `'use strict';\nmodule.exports = require('./bundle.cjs').${name};\n`);
cpSync(join(root, 'dist/src'), join(out, 'types'), {
  recursive: true,
  filter: (src) => !/\.(js|map)$/.test(src),
});
