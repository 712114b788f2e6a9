// Builds the playground (playground/): type-checks it, bundles playground/src/main.ts with the
// library (through the package's own name and `browser` field, as any browser app would) into
// OUTDIR/app.js, and copies the page. Needs the library built (`npm run build`).
//
//   node scripts/build-playground.mjs [OUTDIR]      (default playground/dist)
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'playground');
const out = resolve(process.argv[2] ?? join(src, 'dist'));

execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(src, 'tsconfig.json')], { stdio: 'inherit' });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(src, 'src/main.ts')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  outfile: join(out, 'app.js'),
  logLevel: 'warning',
});
for (const f of ['index.html', 'style.css']) copyFileSync(join(src, f), join(out, f));
