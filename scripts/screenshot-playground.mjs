#!/usr/bin/env node
// Makes the README's pictures of the playground: builds it (scripts/build-playground.mjs) into a
// temporary directory, serves it on 127.0.0.1, and has Chromium (scripts/setup-chromium.sh) take
// - docs/playground.png: the page as it opens (the first example);
// - docs/editor.png: the language service in its editor: the example whose patch sets
//   `replicas: "three"`, the caret resting on the patch's image line (the tooltip says what the
//   value becomes and which step changed it), line 6 marked and named in the problems list.
// Run after `npm run build`:  node scripts/screenshot-playground.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveDirectory } from '../dist/test/browser/static-server.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EXAMPLE = 'A patch with a wrong type (diagnostics, hover)';
/** the patch's line (0-based) whose value a later step changes: `image: nginx:1.27-alpine` */
const IMAGE_LINE = 10;

const site = mkdtempSync(path.join(tmpdir(), 'kustomize-ts-playground-screenshot-'));
execFileSync(process.execPath, [path.join(REPO, 'scripts/build-playground.mjs'), site], { cwd: REPO, stdio: 'ignore' });
const server = await serveDirectory(site);
// --no-sandbox: as root (CI, containers) Chromium's sandbox refuses to start
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const tab = await browser.newPage({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });
  await tab.goto(`${server.origin}/`);
  await tab.waitForFunction(() => document.body.dataset['renders'] !== undefined && document.getElementById('checking')?.textContent === '');
  await tab.screenshot({ path: path.join(REPO, 'docs', 'playground.png') });

  await tab.setViewportSize({ width: 1280, height: 560 });
  await tab.locator('#example').selectOption({ label: EXAMPLE });
  // checked: the problem is placed at the patch line
  await tab.locator('#problems li').waitFor();
  await tab.waitForFunction(() => document.getElementById('checking')?.textContent === '');
  await tab.locator('#editor').click();
  await tab.keyboard.press('Control+Home');
  for (let i = 0; i < IMAGE_LINE; i++) await tab.keyboard.press('ArrowDown');
  await tab.keyboard.press('End');
  await tab.locator('#hover').waitFor({ state: 'visible' });
  await tab.screenshot({ path: path.join(REPO, 'docs', 'editor.png') });
} finally {
  await browser.close();
  await server.close();
  rmSync(site, { recursive: true, force: true });
}
