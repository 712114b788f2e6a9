/**
 * The playground end to end in Chromium: the page (built by scripts/build-playground.mjs, served
 * from 127.0.0.1) renders each preloaded example as `kubectl kustomize` renders the same files,
 * re-renders as a file is edited, shows a bad patch's error with its file, restores the files
 * from a share link, and downloads the output.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { REPO } from '../package/packed.js';
import { launchChromium, skipBrowser } from './chromium.js';
import { serveDirectory, type StaticServer } from './static-server.js';

/** what `kubectl kustomize` prints for these files */
async function kubectlKustomize(files: Record<string, string>, target: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'kustomize-ts-playground-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return (await promisify(execFile)('kubectl', ['kustomize', join(dir, target)], { encoding: 'utf8' })).stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** the files as the page holds them, read through its file list and editor */
async function pageFiles(page: Page): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of await page.locator('#files button').allTextContents()) {
    await page.locator(`#files button[data-file="${name}"]`).click();
    files[name] = await page.locator('#editor').inputValue();
  }
  return files;
}

/** waits until the page has rendered more often than `before` (it numbers its renders) */
async function renderedAfter(page: Page, before: number): Promise<void> {
  await page.waitForFunction((n) => Number(document.body.dataset['renders'] ?? 0) > n, before);
}
const renders = (page: Page) => page.evaluate(() => Number(document.body.dataset['renders'] ?? 0));
const output = (page: Page) => page.locator('#output').textContent();

describe('the playground in Chromium', { skip: skipBrowser }, () => {
  let built: string;
  let site: StaticServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    built = mkdtempSync(join(tmpdir(), 'kustomize-ts-playground-site-'));
    await promisify(execFile)(process.execPath, [join(REPO, 'scripts/build-playground.mjs'), built]);
    site = await serveDirectory(built);
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${site.origin}/`);
    await renderedAfter(page, 0);
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    if (built) rmSync(built, { recursive: true, force: true });
    assert.deepEqual(pageErrors, []);
  });

  test('each example renders as kubectl kustomize renders its files', async () => {
    const examples = await page.locator('#example option').allTextContents();
    assert.ok(examples.length >= 4, examples.join(', '));
    for (let i = 0; i < examples.length; i++) {
      const n = await renders(page);
      await page.locator('#example').selectOption(String(i));
      await renderedAfter(page, n);
      const target = await page.locator('#target').inputValue();
      assert.equal(await page.locator('#error').isHidden(), true, examples[i]);
      const expected = await kubectlKustomize(await pageFiles(page), target);
      assert.ok(expected.length > 100, `${examples[i]} renders something`);
      assert.equal(await output(page), expected, examples[i]);
    }
  });

  test('editing a file re-renders, as kubectl renders the edited files', async () => {
    const n = await renders(page);
    await page.locator('#example').selectOption('0');
    await renderedAfter(page, n);
    const file = 'overlays/production/kustomization.yaml';
    await page.locator(`#files button[data-file="${file}"]`).click();
    const before = await output(page);
    const edited = (await page.locator('#editor').inputValue()).replace('namePrefix: prod-', 'namePrefix: live-');
    const m = await renders(page);
    await page.locator('#editor').fill(edited);
    await renderedAfter(page, m);
    const after = await output(page);
    assert.notEqual(after, before);
    assert.match(after ?? '', /name: live-web/);
    assert.equal(after, await kubectlKustomize(await pageFiles(page), await page.locator('#target').inputValue()));
  });

  test('a bad patch shows its error, with the file', async () => {
    const n = await renders(page);
    await page.locator('#example').selectOption({ label: 'Patches' });
    await renderedAfter(page, n);
    await page.locator('#files button[data-file="app/port-patch.yaml"]').click();
    const m = await renders(page);
    await page.locator('#editor').fill('this: [is not a patch\n');
    await renderedAfter(page, m);
    const error = page.locator('#error');
    assert.equal(await error.isVisible(), true);
    assert.equal(await error.locator('.code').textContent(), 'PATCH_FAILED');
    assert.equal(await error.locator('.file').textContent(), 'app/port-patch.yaml');
    assert.match((await error.textContent()) ?? '', /unable to parse SM or JSON patch/);
    assert.equal(await page.locator('#files button.has-error').textContent(), 'app/port-patch.yaml');
  });

  test('the share link restores the files; the download is the output', async () => {
    const n = await renders(page);
    await page.locator('#example').selectOption({ label: 'Generators with hash' });
    await renderedAfter(page, n);
    await page.locator('#files button[data-file="app/nginx.conf"]').click();
    const m = await renders(page);
    await page.locator('#editor').fill('server {\n  listen 8080;\n}\n');
    await renderedAfter(page, m);
    const rendered = await output(page);

    await page.locator('#share').click();
    // the link is made asynchronously (compression): it shows when done
    await page.locator('#share-link').waitFor({ state: 'visible' });
    const link = await page.locator('#share-link').inputValue();
    assert.match(link, new RegExp(`^${site.origin}/#code=[\\w-]+$`));
    const other = await browser.newPage();
    try {
      await other.goto(link);
      await renderedAfter(other, 0);
      assert.equal(await output(other), rendered);
      assert.deepEqual(await pageFiles(other), await pageFiles(page));
    } finally {
      await other.close();
    }

    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download').click()]);
    assert.equal(download.suggestedFilename(), 'app.yaml');
    assert.equal(readFileSync((await download.path())!, 'utf8'), rendered);
  });
});
