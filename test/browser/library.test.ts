/**
 * The library in a real browser: the published package bundled by plain
 * `esbuild page.js --bundle --platform=browser`, loaded in headless Chromium from 127.0.0.1,
 * renders the fixture trees (test/fixtures) from a MemoryFileSystem exactly as
 * `kubectl kustomize` renders them from disk; fetches an HTTP resource (with CORS) as kubectl
 * does; and fails with clear codes where a browser cannot go (no fs, git remotes).
 */
import assert from 'node:assert/strict';
import { build } from '../../src/pipeline/build.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { installPacked, REPO, type Installed } from '../package/packed.js';
import { launchChromium, skipBrowser } from './chromium.js';
import { serveDirectory, type StaticServer } from './static-server.js';

const PAGE_JS = `
import { build, MemoryFileSystem, KustomizeError } from 'kustomize-ts';
// files: path → base64 of the bytes (fixtures hold binary files too)
const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
window.render = async (files, dir, options) => {
  try {
    const fs = files ? MemoryFileSystem.from(Object.fromEntries(Object.entries(files).map(([p, b64]) => [p, bytes(b64)]))) : undefined;
    return { yaml: (await build(dir, { ...options, ...(fs && { fs }) })).yaml };
  } catch (e) {
    return { error: { code: e.code, message: e.message, isKustomizeError: e instanceof KustomizeError } };
  }
};
`;

type Rendered = { yaml: string } | { error: { code: string; message: string; isKustomizeError: boolean } };

interface FixtureOptions {
  build?: string;
  reorder?: string;
  loadRestrictor?: 'rootOnly' | 'none';
}

/** the regular files under `dir` in base64, by path relative to it; undefined if there is a symlink */
function readTree(dir: string, into: Record<string, string> = {}, root = dir): Record<string, string> | undefined {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (lstatSync(p).isSymbolicLink()) return undefined;
    if (e.isDirectory()) {
      if (!readTree(p, into, root)) return undefined;
    } else into[relative(root, p)] = readFileSync(p).toString('base64');
  }
  return into;
}

const base64 = (text: string) => Buffer.from(text).toString('base64');

/** kubectl's output (asynchronously: it may fetch from a server in this process) */
async function kubectlKustomize(dir: string, flags: string[] = []): Promise<string> {
  return (await promisify(execFile)('kubectl', ['kustomize', ...flags, dir], { encoding: 'utf8' })).stdout;
}

/** the fixture cases that render (in kubectl's order, without symlinks: the page gets plain files) */
function fixtureCases(): { name: string; dir: string; options: FixtureOptions; files: Record<string, string> }[] {
  const root = join(REPO, 'test/fixtures');
  return readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'expected.yaml')))
    .flatMap((name) => {
      let options: FixtureOptions = {};
      try {
        options = JSON.parse(readFileSync(join(root, name, 'options.json'), 'utf8')) as FixtureOptions;
      } catch {
        // no options.json
      }
      const files = readTree(join(root, name, 'input'));
      return files && options.reorder !== 'none' ? [{ name, dir: join(root, name, 'input'), options, files }] : [];
    });
}

describe('the library in Chromium', { skip: skipBrowser }, () => {
  let packed: Installed;
  let site: StaticServer;
  let browser: Browser;
  let page: Page;
  const render = (files: Record<string, string> | null, dir: string, options: object = {}) =>
    page.evaluate(([f, d, o]) => (window as unknown as { render: (...a: unknown[]) => Promise<Rendered> }).render(f, d, o), [files, dir, options] as const);

  before(async () => {
    packed = installPacked();
    writeFileSync(join(packed.dir, 'page.js'), PAGE_JS);
    writeFileSync(join(packed.dir, 'index.html'), '<!doctype html><script type="module" src="out.js"></script>\n');
    const esbuild = spawnSync(join(REPO, 'node_modules/.bin/esbuild'), ['page.js', '--bundle', '--platform=browser', '--format=esm', '--outfile=out.js', '--log-level=warning'], { cwd: packed.dir, encoding: 'utf8' });
    assert.equal(esbuild.stderr, '');
    site = await serveDirectory(packed.dir);
    browser = await launchChromium();
    page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${site.origin}/`);
    await page.waitForFunction(() => 'render' in window);
    assert.deepEqual(pageErrors, []);
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    packed?.remove();
  });

  test('renders the fixture trees as kubectl kustomize does', async () => {
    const cases = fixtureCases();
    assert.ok(cases.length >= 25, `${cases.length} cases`);
    for (const c of cases) {
      const flags = c.options.loadRestrictor === 'none' ? ['--load-restrictor', 'LoadRestrictionsNone'] : [];
      const expected = await kubectlKustomize(join(c.dir, c.options.build ?? '.'), flags);
      const rendered = await render(c.files, `/${c.options.build ?? ''}`, { reorder: 'legacy', ...(c.options.loadRestrictor && { loadRestrictor: c.options.loadRestrictor }) });
      assert.deepEqual(rendered, { yaml: expected }, c.name);
    }
  });

  test('fetches an HTTP resource with fetch, as kubectl fetches it', async (t) => {
    const remote = mkdtempSync(join(tmpdir(), 'kustomize-ts-remote-'));
    t.after(() => rmSync(remote, { recursive: true, force: true }));
    writeFileSync(join(remote, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: remote\ndata:\n  from: http\n');
    const server = await serveDirectory(remote, true);
    t.after(() => server.close());
    const kustomization = `namePrefix: web-\nresources:\n- ${server.origin}/cm.yaml\n`;
    const local = join(remote, 'app');
    mkdirSync(local);
    writeFileSync(join(local, 'kustomization.yaml'), kustomization);
    assert.deepEqual(await render({ 'app/kustomization.yaml': base64(kustomization) }, '/app'), { yaml: await kubectlKustomize(local) });
  });

  test('runs a Starlark function in the page, from a MemoryFileSystem, as the library does in Node', async () => {
    const files = {
      'app/kustomization.yaml': 'resources:\n- cm.yaml\ntransformers:\n- fn.yaml\n',
      'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n',
      'app/fn.yaml': 'apiVersion: example.com/v1\nkind: SetTeam\nmetadata:\n  name: team\n  annotations:\n    config.kubernetes.io/function: |\n      starlark:\n        path: team.star\n',
      'app/team.star': 'for r in ctx.resource_list["items"]:\n  r["metadata"]["labels"] = {"team": "browser"}\n',
    };
    const inNode = (await build('/app', { fs: MemoryFileSystem.from(files), enableStar: true, reorder: 'legacy' })).yaml;
    assert.match(inNode, /team: browser/);
    const encoded = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, base64(v)]));
    assert.deepEqual(await render(encoded, '/app', { enableStar: true, reorder: 'legacy' }), { yaml: inNode });
  });

  test('without a file system: FILESYSTEM_REQUIRED', async () => {
    const r = await render(null, '/app');
    assert.ok('error' in r);
    assert.equal(r.error.code, 'FILESYSTEM_REQUIRED');
    assert.equal(r.error.isKustomizeError, true);
    assert.match(r.error.message, /pass the files as the `fs` option/);
  });

  test('a git remote: REMOTE_UNSUPPORTED', async () => {
    const r = await render({ 'app/kustomization.yaml': base64('resources:\n- https://github.com/kubernetes-sigs/kustomize//examples/helloWorld?ref=v3.3.1\n') }, '/app');
    assert.ok('error' in r);
    assert.equal(r.error.code, 'REMOTE_UNSUPPORTED');
    assert.match(r.error.message, /cannot clone 'https:\/\/github\.com\/kubernetes-sigs\/kustomize' here/);
  });
});
