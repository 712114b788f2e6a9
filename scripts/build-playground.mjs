// Builds the playground (playground/): type-checks it, bundles playground/src/main.ts with the
// library (through the package's own name and `browser` field, as any browser app would) into
// OUTDIR/app.js, and copies the page. Needs the library built (`npm run build`). Says where the
// page is and how to serve it: opened as a file, the browser does not run its module script.
// --metafile=FILE writes esbuild's account of the bundle (each module in it, and what it imports)
// to FILE: the playground's test reads there that nothing from Node is in the page.
//
//   node scripts/build-playground.mjs [OUTDIR] [--metafile=FILE]     (OUTDIR: default playground/dist)
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'playground');
const args = process.argv.slice(2);
const out = resolve(args.find((a) => !a.startsWith('--')) ?? join(src, 'dist'));
const metafile = args.find((a) => a.startsWith('--metafile='))?.slice('--metafile='.length);

execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(src, 'tsconfig.json')], { stdio: 'inherit' });
mkdirSync(out, { recursive: true });
const result = await build({
  entryPoints: [join(src, 'src/main.ts')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  outfile: join(out, 'app.js'),
  logLevel: 'warning',
  metafile: metafile !== undefined,
});
if (metafile !== undefined) writeFileSync(metafile, JSON.stringify(result.metafile));
for (const f of ['index.html', 'style.css']) copyFileSync(join(src, f), join(out, f));

// the directory as it can be typed from here, quoted for the shell where it must be
const inHere = relative(process.cwd(), out);
const shown = inHere === '' ? '.' : inHere.startsWith('..') ? out : inHere;
const quoted = /^[\w./-]+$/.test(shown) ? shown : `'${shown.replaceAll("'", "'\\''")}'`;
console.log(`The playground is in ${shown}/. Serve it over HTTP (opened as a file, it does not run), e.g.:
  python3 -m http.server -d ${quoted} 8000     then open http://localhost:8000/`);
