#!/usr/bin/env node
// Makes docs/explain.png, the README's picture of `explain`'s text output: runs
// `kustomize-ts explain examples/hello/overlays/production --color always`, turns its dim
// comments into HTML and has Chromium (scripts/setup-chromium.sh) take a screenshot of a
// terminal-like page. Run after `npm run build`:  node scripts/explain-screenshot.mjs
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tree = 'examples/hello/overlays/production';
const text = execFileSync(process.execPath, [path.join(REPO, 'bin', 'kustomize-ts.js'), 'explain', tree, '--color', 'always'], { cwd: REPO, encoding: 'utf8' });
// the Deployment: the resource with the most steps at work
const shown = text.split('---\n').at(-1);
const html = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const body = html(`$ kustomize-ts explain ${tree}\n…\n---\n${shown}`).replace(/\x1b\[2m(.*?)\x1b\[0m/g, '<span class="origin">$1</span>');
const page = `<!doctype html><style>
body { margin: 0; background: #1e1e1e; }
pre { display: inline-block; margin: 0; padding: 16px 20px; color: #e8e8e8; font: 14px/1.45 'DejaVu Sans Mono', monospace; }
.origin { color: #8a8a8a; }
</style><pre>${body}</pre>`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
try {
  const tab = await browser.newPage({ viewport: { width: 1040, height: 200 }, deviceScaleFactor: 1 });
  await tab.setContent(page);
  await tab.locator('pre').screenshot({ path: path.join(REPO, 'docs', 'explain.png') });
} finally {
  await browser.close();
}
