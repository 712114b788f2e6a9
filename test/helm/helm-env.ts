import { execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';

// What the Helm tests need: a real helm 3 and, as the reference, kubectl v1.33 (kustomize
// v5.6.0), both from scripts/setup-helm.sh (which CI runs, exporting KUSTOMIZE_TS_HELM). Without
// them the tests that need them are reported as skipped, loudly; with
// KUSTOMIZE_TS_REQUIRE_HELM=1 (as in CI) they fail instead.

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));

function executable(path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}

/** helm: $KUSTOMIZE_TS_HELM, else what scripts/setup-helm.sh put in .cache/helm. */
export const HELM = executable(process.env['KUSTOMIZE_TS_HELM']) ?? executable(join(REPO, '.cache/helm/helm/helm'));
/** kubectl with kustomize v5.6: $KUSTOMIZE_TS_HELM_KUBECTL, else next to helm as the setup script lays them out. */
export const KUBECTL =
  executable(process.env['KUSTOMIZE_TS_HELM_KUBECTL']) ?? (HELM ? executable(join(dirname(dirname(HELM)), 'kubectl', 'kubectl')) : undefined);

const required = process.env['KUSTOMIZE_TS_REQUIRE_HELM'] === '1';

/** The `skip` option of tests that run helm. */
export const skipHelm: string | false =
  !HELM && !required ? 'helm is not installed: run scripts/setup-helm.sh (or set KUSTOMIZE_TS_HELM) to run the Helm tests' : false;
/** The `skip` option of tests that compare with kubectl kustomize. */
export const skipKubectl: string | false =
  skipHelm || (!KUBECTL && !required ? 'kubectl (kustomize v5.6) is not installed: run scripts/setup-helm.sh to run the differential Helm tests' : false);

let warned = false;
export function warnIfSkipped(): void {
  if (warned) return;
  warned = true;
  const reason = skipHelm || skipKubectl;
  if (reason) process.stderr.write(`# SKIPPING Helm tests: ${reason}\n`);
}

/** helm's path; fails the test when it is required but missing. */
export function helm(): string {
  if (!HELM) throw new Error('helm is required (KUSTOMIZE_TS_REQUIRE_HELM=1) but not found: run scripts/setup-helm.sh and set KUSTOMIZE_TS_HELM');
  return HELM;
}

export function kubectl(): string {
  if (!KUBECTL) throw new Error('kubectl from scripts/setup-helm.sh is required (KUSTOMIZE_TS_REQUIRE_HELM=1) but not found');
  return KUBECTL;
}

/** Environment for helm runs of the tests themselves (create, package, repo index): a private helm home. */
function helmEnv(): NodeJS.ProcessEnv {
  const home = mkdtempSync(join(tmpdir(), 'kts-helm-home-'));
  return { ...process.env, HELM_CONFIG_HOME: home, HELM_CACHE_HOME: join(home, '.cache'), HELM_DATA_HOME: join(home, '.data') };
}

/** Runs helm for a test's setup. */
export function runHelm(args: string[], cwd: string): string {
  return execFileSync(helm(), args, { cwd, env: helmEnv(), encoding: 'utf8' });
}

/** Writes a tree of files under a fresh temp directory and returns the directory. */
export function writeTree(files: Record<string, string>, root = mkdtempSync(join(tmpdir(), 'kts-helm-test-'))): string {
  for (const [path, text] of Object.entries(files)) {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
  return root;
}

/** A copy of a tree, so that kustomize-ts and kubectl each pull charts into their own. */
export function copyTree(src: string): string {
  const dst = mkdtempSync(join(tmpdir(), 'kts-helm-copy-'));
  cpSync(src, dst, { recursive: true });
  return dst;
}

/** Every path under a directory, relative to it, sorted. */
export function listTree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const abs = join(d, name);
      out.push(relative(dir, abs));
      if (statSync(abs).isDirectory()) walk(abs);
    }
  };
  walk(dir);
  return out.sort();
}

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** `kustomize-ts build DIR --enable-helm --helm-command <helm> ...` through the CLI's own entry point. */
export async function ours(dir: string, flags: string[] = []): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const code = await main(['build', dir, '--enable-helm', '--helm-command', helm(), ...flags], { out: (s) => (stdout += s), err: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

/**
 * `kubectl kustomize DIR --enable-helm --helm-command <helm> ...`: kustomize v5.6.0. Asynchronous,
 * so that a chart repository served by this process can answer it.
 */
export function theirs(dir: string, flags: string[] = []): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(kubectl(), ['kustomize', dir, '--enable-helm', '--helm-command', helm(), ...flags], { env: helmEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** An error as both print it, comparable: kubectl's `error: ` is our `Error: `, temp dir names differ. */
export function errorText(stderr: string): string {
  return stderr.replace(/^error: /, 'Error: ').replace(/kustomize-helm-[A-Za-z0-9]+/g, 'kustomize-helm-TMP');
}

/** A chart repository over HTTP on 127.0.0.1 serving a directory (index.yaml and the packaged charts). */
export async function serveDirectory(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = join(dir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (!path.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = readFileSync(path);
      res.writeHead(200, { 'content-type': path.endsWith('.yaml') ? 'text/yaml' : 'application/gzip' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}
