/**
 * The runnable snippets of the docs, run as a reader would run them on the published package:
 * a snippet whose first line is `// FILE — COMMAND` (docs/browser.md) is written to FILE in a
 * fresh consumer project and run with COMMAND; a browser page is then loaded in Chromium with
 * the html snippet that follows it. The README's library snippet runs as an ES module. Each
 * must render what it says it renders.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { inspect } from 'node:util';
import { build } from '../../src/build/build.js';
import { installPacked, REPO, type Installed } from '../package/packed.js';
import { launchChromium, skipBrowser } from './chromium.js';
import { serveDirectory } from './static-server.js';

interface Snippet {
  /** the fenced block's language */
  lang: string;
  code: string;
}

function snippets(markdown: string): Snippet[] {
  return [...markdown.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));
}

/** the snippets of docs/browser.md that name their file and command, by file */
function runnable(): Map<string, { command: string[]; code: string; html?: string }> {
  const all = snippets(readFileSync(join(REPO, 'docs/browser.md'), 'utf8'));
  const out = new Map<string, { command: string[]; code: string; html?: string }>();
  all.forEach((s, i) => {
    const head = /^\/\/ (\S+) — (.+)$/m.exec(s.code.split('\n')[0]!);
    if (!head) return;
    const next = all[i + 1];
    out.set(head[1]!, { command: head[2]!.split(' '), code: s.code, ...(next?.lang === 'html' && { html: next.code }) });
  });
  return out;
}

/** runs a snippet's command in the consumer project (node and esbuild, as installed here) */
function runCommand(dir: string, command: string[]): string {
  const [program, ...args] = command;
  const path = program === 'node' ? process.execPath : join(REPO, 'node_modules/.bin', program!);
  return execFileSync(path, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('the docs’ snippets, on the published package', () => {
  let packed: Installed;
  const docs = runnable();
  before(() => {
    packed = installPacked();
  });
  after(() => packed.remove());

  test('docs/browser.md has the snippets run here', () => {
    assert.deepEqual([...docs.keys()].sort(), ['page.js', 'render.cjs', 'render.mjs']);
  });

  test('Node, ES modules (render.mjs): prints the example’s production overlay, as kustomize build does', () => {
    const s = docs.get('render.mjs')!;
    writeFileSync(join(packed.dir, 'render.mjs'), s.code);
    assert.equal(runCommand(packed.dir, s.command), readFileSync(join(REPO, 'examples/hello/expected-production.yaml'), 'utf8'));
  });

  test('Node, CommonJS (render.cjs): prints a generated ConfigMap and the base’s resources', async () => {
    const s = docs.get('render.cjs')!;
    writeFileSync(join(packed.dir, 'render.cjs'), s.code);
    const generated = /^apiVersion: v1\ndata:\n {2}color: blue\nkind: ConfigMap\nmetadata:\n {2}name: settings-[a-z0-9]{10}\n$/;
    const [yaml, list] = runCommand(packed.dir, s.command).split('\n\n');
    assert.match(`${yaml}\n`, generated);
    const base = (await build(join(REPO, 'examples/hello/base'))).resources.map((r) => `${r.kind}/${r.name}`);
    assert.ok(base.length >= 3, base.join());
    assert.equal(list, `${inspect(base)}\n`);
  });

  test('README, the library: prints the Deployment named dev-web', () => {
    const readme = snippets(readFileSync(join(REPO, 'README.md'), 'utf8')).find((s) => s.code.includes("from 'kustomize-ts'") && s.code.includes('MemoryFileSystem.from'));
    assert.ok(readme, 'the README has a library snippet');
    writeFileSync(join(packed.dir, 'readme.mjs'), readme.code);
    const out = runCommand(packed.dir, ['node', 'readme.mjs']);
    assert.match(out, /^kind: Deployment\nmetadata:\n {2}name: dev-web\n/m);
  });

  test('in a browser (page.js, bundled as its comment says): the page shows the Deployment named dev-web', { skip: skipBrowser }, async (t) => {
    const s = docs.get('page.js')!;
    assert.ok(s.html, 'an html snippet follows page.js');
    writeFileSync(join(packed.dir, 'page.js'), s.code);
    writeFileSync(join(packed.dir, 'index.html'), s.html);
    runCommand(packed.dir, s.command);
    const site = await serveDirectory(packed.dir);
    t.after(() => site.close());
    const browser = await launchChromium();
    t.after(() => browser.close());
    const page = await browser.newPage();
    await page.goto(`${site.origin}/`);
    const shown = await page.locator('pre').textContent();
    assert.equal(shown, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: dev-web\nspec:\n  replicas: 2\n');
  });
});
