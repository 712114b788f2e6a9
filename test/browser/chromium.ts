import { chromium, type Browser } from 'playwright-core';
import { requireTool } from '../require-tool.js';

// The browser tests drive Debian's chromium (scripts/setup-chromium.sh installs it) with
// playwright-core; test/require-tool.ts says what happens without it.

const chromiumTool = requireTool('chromium');

/** The `skip` option of tests that need Chromium. */
export const skipBrowser = chromiumTool.skip;

/** A headless Chromium. */
export function launchChromium(): Promise<Browser> {
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start
  return chromium.launch({ executablePath: chromiumTool.path, args: ['--no-sandbox'] });
}
