import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

// The browser tests drive Debian's chromium (scripts/setup-chromium.sh installs it) with
// playwright-core. Without it they are reported as skipped, loudly; with
// KUSTOMIZE_TS_REQUIRE_BROWSER=1 (as in CI) they fail instead.

function onPath(cmd: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    try {
      accessSync(join(dir, cmd), constants.X_OK);
      return join(dir, cmd);
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** chromium: $KUSTOMIZE_TS_CHROMIUM, else `chromium` on the PATH */
const CHROMIUM = process.env['KUSTOMIZE_TS_CHROMIUM'] || onPath('chromium');
const required = process.env['KUSTOMIZE_TS_REQUIRE_BROWSER'] === '1';

/** The `skip` option of tests that need Chromium. */
export const skipBrowser: string | false =
  !CHROMIUM && !required ? 'chromium is not installed: run scripts/setup-chromium.sh (or set KUSTOMIZE_TS_CHROMIUM) to run the browser tests' : false;
if (skipBrowser) process.stderr.write(`# SKIPPING browser tests: ${skipBrowser}\n`);

/** A headless Chromium; fails when it is required but missing. */
export function launchChromium(): Promise<Browser> {
  if (!CHROMIUM) throw new Error('chromium is required (KUSTOMIZE_TS_REQUIRE_BROWSER=1) but not found: run scripts/setup-chromium.sh');
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}
