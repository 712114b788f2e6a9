/**
 * The library in a real browser: the published package bundled for the browser by each of
 * esbuild, Vite and webpack with no flags (test/browser/bundlers.ts), loaded in headless Chromium
 * from 127.0.0.1, renders the fixture trees (test/fixtures) from a MemoryFileSystem exactly as
 * `kubectl kustomize` renders them from disk; fetches an HTTP resource (with CORS) as kubectl
 * does; runs Starlark functions (also a catalog's, rather than its container); reads and writes
 * OCI tree archives (kustomize-ts/oci); and fails with clear codes where a browser cannot go (no fs,
 * git remotes, and the features that run processes or read the disk: NODE_REQUIRED).
 */
import assert from 'node:assert/strict';
import { build } from '../../src/build/build.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { readTreeArchive, writeTreeArchive } from '../../src/oci/tar.js';
import { catalogYaml, CONFIG, renamerFunction } from '../catalog/harness.js';
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { installPacked, REPO, type Installed } from '../package/packed.js';
import { BUNDLERS, bundlePage } from './bundlers.js';
import { launchChromium, skipBrowser } from './chromium.js';
import { serveDirectory, type StaticServer } from './static-server.js';

const PAGE_JS = `
import { build, MemoryFileSystem, KustomizeError } from 'kustomize-ts';
import { readTreeArchive, writeTreeArchive } from 'kustomize-ts/oci';
// files: path → base64 of the bytes (fixtures hold binary files too)
const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
// kustomize-ts/oci: reads a tree archive (base64) and writes its files back into a new one
window.rewriteArchive = async (b64) => {
  const files = await readTreeArchive(bytes(b64), 'the test archive');
  const out = await writeTreeArchive(files);
  return { files: files.map((f) => [f.path, new TextDecoder().decode(f.bytes)]), rewritten: btoa(String.fromCharCode(...out)) };
};
window.render = async (files, dir, options) => {
  try {
    const fs = files ? MemoryFileSystem.from(Object.fromEntries(Object.entries(files).map(([p, b64]) => [p, bytes(b64)]))) : undefined;
    return { yaml: (await build(dir, { ...options, ...(fs && { fs }) })).yaml };
  } catch (e) {
    return { error: { code: e.code, message: e.message, file: e.file, field: e.field, isKustomizeError: e instanceof KustomizeError } };
  }
};
`;

type Rendered = { yaml: string } | { error: { code: string; message: string; file?: string; field?: string; isKustomizeError: boolean } };

interface FixtureOptions {
  todo?: string;
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
      // (a case kustomize-ts is known to get wrong, `todo` in its options.json, is left out)
      return files && options.reorder !== 'none' && options.todo === undefined ? [{ name, dir: join(root, name, 'input'), options, files }] : [];
    });
}

/** the features that need Node, each asked for in a tree with its plugin kind enabled, and where the error must point */
const NODE_ONLY: { feature: string; files: Record<string, string>; options: object; file: string; field: string; message: RegExp }[] = [
  {
    feature: 'helmCharts',
    files: { 'app/kustomization.yaml': 'helmCharts:\n- name: minecraft\n  repo: https://charts.example.com\n  version: 3.1.3\n' },
    options: { enableHelm: true },
    file: 'kustomization.yaml',
    field: 'helmCharts[0]',
    message: /^helm chart 'minecraft' \(helmCharts\) needs Node, as it runs the helm executable/,
  },
  {
    feature: 'an exec KRM function',
    files: { 'app/kustomization.yaml': 'transformers:\n- fn.yaml\n', 'app/fn.yaml': fnConfig('exec:\n  path: ./set-team.sh') },
    options: { enablePlugins: true, enableExec: true },
    file: 'fn.yaml',
    field: 'metadata.annotations.config.kubernetes.io/function.exec',
    message: /^exec KRM function SetTeam\.v1\.example\.com\/team\.\[noNs\] needs Node, as it runs a program/,
  },
  {
    feature: 'a container KRM function',
    files: { 'app/kustomization.yaml': 'transformers:\n- fn.yaml\n', 'app/fn.yaml': fnConfig('container:\n  image: example.com/set-team:v1') },
    options: { enablePlugins: true },
    file: 'fn.yaml',
    field: 'metadata.annotations.config.kubernetes.io/function.container',
    message: /^container KRM function .*SetTeam.* needs Node, as it runs a container/,
  },
  {
    feature: 'a legacy exec or ES-module plugin from the plugin home',
    files: { 'app/kustomization.yaml': 'generators:\n- gen.yaml\n', 'app/gen.yaml': 'apiVersion: someteam.example.com/v1\nkind: SecretsFromVault\nmetadata:\n  name: vault\n' },
    options: { enablePlugins: true },
    file: 'gen.yaml',
    field: 'kind',
    message: /^plugin .*SecretsFromVault.* from the plugin home \(a legacy exec plugin or an ES module\) needs Node/,
  },
  {
    feature: 'a trusted catalog’s container function',
    files: catalogTree('        container:\n          image: example.com/renamer:v1\n'),
    options: { trustedCatalogs: ['team'] },
    file: 'fn.yaml',
    field: 'kind',
    message: /^function example\.com\/v1 Renamer \(configured in fn\.yaml\) from catalog 'catalog\.yaml' needs Node, as it runs a container/,
  },
];

/** a kustomization whose transformer resolves through its catalog, whose function has `runtime` */
function catalogTree(runtime: string): Record<string, string> {
  return {
    'app/kustomization.yaml': 'catalogs:\n- catalog.yaml\nresources:\n- cm.yaml\ntransformers:\n- fn.yaml\n',
    'app/catalog.yaml': catalogYaml('team', renamerFunction(runtime)),
    'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n',
    'app/fn.yaml': CONFIG,
    'app/prefix.star': 'for r in ctx.resource_list["items"]:\n  r["metadata"]["name"] = "star-" + r["metadata"]["name"]\n',
  };
}

function fnConfig(spec: string): string {
  const annotation = spec.split('\n').map((l) => `      ${l}`).join('\n');
  return `apiVersion: example.com/v1\nkind: SetTeam\nmetadata:\n  name: team\n  annotations:\n    config.kubernetes.io/function: |\n${annotation}\n`;
}

const encode = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).map(([k, v]) => [k, base64(v)]));

describe('the library in Chromium', { skip: skipBrowser }, () => {
  let packed: Installed;
  let browser: Browser;
  /** kubectl's output for a fixture case, computed once for all the bundlers */
  const kubectlOutputs = new Map<string, Promise<string>>();
  const kubectlFixture = (c: ReturnType<typeof fixtureCases>[number]) => {
    const flags = c.options.loadRestrictor === 'none' ? ['--load-restrictor', 'LoadRestrictionsNone'] : [];
    if (!kubectlOutputs.has(c.name)) kubectlOutputs.set(c.name, kubectlKustomize(join(c.dir, c.options.build ?? '.'), flags));
    return kubectlOutputs.get(c.name)!;
  };

  before(async () => {
    packed = installPacked();
    writeFileSync(join(packed.dir, 'page.js'), PAGE_JS);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    packed?.remove();
  });

  for (const bundler of BUNDLERS) {
    describe(`bundled by ${bundler}`, () => {
      let site: StaticServer;
      let page: Page;
      const render = (files: Record<string, string> | null, dir: string, options: object = {}) =>
        page.evaluate(([f, d, o]) => (window as unknown as { render: (...a: unknown[]) => Promise<Rendered> }).render(f, d, o), [files, dir, options] as const);

      before(async () => {
        const bundled = bundlePage(bundler, packed.dir);
        assert.doesNotMatch(bundled.javascript, /(?:from |import\(|require\()["']node:/);
        site = await serveDirectory(bundled.site);
        page = await browser.newPage();
        const pageErrors: string[] = [];
        page.on('pageerror', (e) => pageErrors.push(e.message));
        await page.goto(`${site.origin}/`);
        await page.waitForFunction(() => 'render' in window);
        assert.deepEqual(pageErrors, []);
      });
      after(async () => {
        await page?.close();
        await site?.close();
      });

      test('renders the fixture trees as kubectl kustomize does', async () => {
        const cases = fixtureCases();
        assert.ok(cases.length >= 25, `${cases.length} cases`);
        for (const c of cases) {
          const rendered = await render(c.files, `/${c.options.build ?? ''}`, { reorder: 'legacy', ...(c.options.loadRestrictor && { loadRestrictor: c.options.loadRestrictor }) });
          assert.deepEqual(rendered, { yaml: await kubectlFixture(c) }, c.name);
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
        assert.deepEqual(await render(encode(files), '/app', { enableStar: true, reorder: 'legacy' }), { yaml: inNode });
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

      test('a trusted catalog’s function that offers a container and Starlark runs on Starlark in the page, as the Starlark alone runs in Node', async () => {
        const inNode = (await build('/app', { fs: MemoryFileSystem.from(catalogTree('        starlark: prefix.star\n')), trustedCatalogs: ['team'] })).yaml;
        assert.match(inNode, /name: star-cm/);
        const both = catalogTree('        container:\n          image: example.com/renamer:v1\n        starlark: prefix.star\n');
        assert.deepEqual(await render(encode(both), '/app', { trustedCatalogs: ['team'] }), { yaml: inNode });
      });

      test('kustomize-ts/oci in the page: reads a tree archive written in Node, and writes one Node reads', async () => {
        // in the order an archive holds them (sorted by path)
        const files = [
          { path: 'cm.yaml', bytes: new TextEncoder().encode('kind: ConfigMap\n') },
          { path: 'kustomization.yaml', bytes: new TextEncoder().encode('resources:\n- cm.yaml\n') },
        ];
        const archive = Buffer.from(await writeTreeArchive(files)).toString('base64');
        const r = await page.evaluate((b64) => (window as unknown as { rewriteArchive: (b: string) => Promise<{ files: string[][]; rewritten: string }> }).rewriteArchive(b64), archive);
        const texts = files.map((f) => [f.path, new TextDecoder().decode(f.bytes)]);
        assert.deepEqual(r.files, texts);
        const reread = await readTreeArchive(Buffer.from(r.rewritten, 'base64'), 'the archive written in the page');
        assert.deepEqual(reread.map((f) => [f.path, new TextDecoder().decode(f.bytes)]), texts);
      });

      for (const c of NODE_ONLY) {
        test(`${c.feature}, with its plugin kind enabled: NODE_REQUIRED, naming the file and field`, async () => {
          const r = await render(encode(c.files), '/app', c.options);
          assert.ok('error' in r, JSON.stringify(r));
          assert.deepEqual({ ...r.error, message: '' }, { code: 'NODE_REQUIRED', isKustomizeError: true, file: c.file, field: c.field, message: '' }, r.error.message);
          assert.match(r.error.message, c.message);
        });
      }
    });
  }
});
