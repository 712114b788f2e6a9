// Bundles the extension, vscode-languageclient with it, into dist/extension.js: the .vsix then
// needs no node_modules. CommonJS, as VS Code loads extensions; `vscode` is VS Code's own module.
// Also copies the repository's LICENSE here, for vsce to package.
import { copyFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));

await build({
  entryPoints: [here('src/extension.ts')],
  outfile: here('dist/extension.js'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  // VS Code 1.91, the oldest this extension runs in (engines.vscode), runs Node 20
  target: 'node20',
  external: ['vscode'],
  minify: true,
  logLevel: 'warning',
});
copyFileSync(here('../../LICENSE'), here('LICENSE'));
