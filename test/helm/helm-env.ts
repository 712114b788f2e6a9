import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { main } from '../../src/cli/main.js';
import { requireTool } from '../require-tool.js';

// The Helm tests run a real helm 3 (scripts/setup-helm.sh, which CI runs); test/require-tool.ts
// says what happens without it.
const helmTool = requireTool('helm');

/** The `skip` option of tests that run helm. */
export const skipHelm = helmTool.skip;

/** helm's path. */
export function helm(): string {
  return helmTool.path;
}

/** Environment for helm runs outside the build (the tests' create, package, repo index; kubectl's): a private helm home. */
export function helmEnv(): NodeJS.ProcessEnv {
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

/** `kustomize-ts build DIR --enable-helm --helm-command <helm> --kustomize-version 5.6.0 ...` through the CLI's own entry point. */
export async function ours(dir: string, flags: string[] = []): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  // as kustomize 5.6.0 builds, the reference kubectl's (5.8 leaves the namespace of Helm's output to Helm)
  const code = await main(['build', dir, '--enable-helm', '--helm-command', helm(), '--kustomize-version', '5.6.0', ...flags], { out: (s) => (stdout += s), err: (s) => (stderr += s) });
  return { code, stdout, stderr };
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
