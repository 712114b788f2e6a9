import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../package/packed.js';

/**
 * The bundlers a browser consumer of kustomize-ts uses, each run as its own command line with the
 * least a consumer gives it to bundle `page.js` for the browser: nothing about kustomize-ts, no
 * flags or config to stub Node's modules. Each makes a static site (an index.html and what it
 * loads) and fails the test on an error or a warning about a module.
 */
export type Bundler = 'esbuild' | 'vite' | 'webpack';
export const BUNDLERS: readonly Bundler[] = ['esbuild', 'vite', 'webpack'];

const bin = (name: string) => join(REPO, 'node_modules/.bin', name);

function run(command: string, args: string[], cwd: string): string {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 0, `${command} ${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
  return r.stdout + r.stderr;
}

/** esbuild page.js --bundle --platform=browser */
function esbuild(dir: string, site: string): void {
  // with --log-level=warning, all it prints is errors and warnings (e.g. an import of a disabled module)
  assert.equal(run(bin('esbuild'), ['page.js', '--bundle', '--platform=browser', '--format=esm', `--outfile=${join(site, 'out.js')}`, '--log-level=warning'], dir), '');
  writeFileSync(join(site, 'index.html'), '<!doctype html><script type="module" src="out.js"></script>\n');
}

/** vite build, with no config: the entry is index.html */
function vite(dir: string, site: string): void {
  writeFileSync(join(dir, 'index.html'), '<!doctype html><script type="module" src="./page.js"></script>\n');
  const out = run(bin('vite'), ['build', '--outDir', site, '--emptyOutDir'], dir);
  // the one warning allowed is the size of the bundle; Vite names any module it stubs or cannot resolve
  assert.doesNotMatch(out, /externalized for browser compatibility|node:|failed to resolve|error/i, out);
}

/**
 * webpack page.js --mode production, with no config (target `web`, browserslist absent). Not
 * minified: terser adds seconds and nothing to what is tested. Its warnings about modules are
 * read from its stats (its size hints name no module).
 */
function webpack(dir: string, site: string): void {
  run(bin('webpack'), ['./page.js', '--mode', 'production', '--no-optimization-minimize', '--output-path', site, '--json', join(dir, 'stats.json')], dir);
  const stats = JSON.parse(readFileSync(join(dir, 'stats.json'), 'utf8')) as { errors: unknown[]; warnings: { moduleName?: string; message: string }[] };
  assert.deepEqual(stats.errors, []);
  assert.deepEqual(stats.warnings.filter((w) => w.moduleName), []);
  writeFileSync(join(site, 'index.html'), '<!doctype html><script src="main.js"></script>\n');
}

const RUN: Record<Bundler, (dir: string, site: string) => void> = { esbuild, vite, webpack };

/**
 * Bundles `dir/page.js` (a consumer's page: `dir/node_modules` holds kustomize-ts) with
 * `bundler` into a new directory `dir/site-<bundler>`: a static site whose index.html runs it.
 * Returns the site's directory and the text of its JavaScript files.
 */
export function bundlePage(bundler: Bundler, dir: string): { site: string; javascript: string } {
  const site = join(dir, `site-${bundler}`);
  mkdirSync(site);
  RUN[bundler](dir, site);
  const js = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? js(join(d, e.name)) : e.name.endsWith('.js') ? [readFileSync(join(d, e.name), 'utf8')] : []));
  return { site, javascript: js(site).join('\n') };
}
