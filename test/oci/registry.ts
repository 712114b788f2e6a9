import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pushArtifact } from '../../src/oci/client.js';
import type { RegistryCredentials } from '../../src/oci/credentials.js';
import { MediaType } from '../../src/oci/media-types.js';
import { writeTreeArchive, type TreeFile } from '../../src/oci/tar.js';

/**
 * A real OCI registry (Debian's `docker-registry`, distribution 2.8) on 127.0.0.1 for tests:
 * `scripts/setup-registry.sh` installs it. Without it the tests that need it skip with a
 * message, unless KUSTOMIZE_TS_REQUIRE_REGISTRY=1 (as in CI), which makes them fail.
 */
export interface TestRegistry {
  /** `127.0.0.1:PORT`, as written in `oci://` references */
  host: string;
  stop: () => Promise<void>;
}

/** Why the registry tests cannot run here, or undefined when they can. */
export function registryUnavailable(): string | undefined {
  const found = spawnSync('docker-registry', ['--version'], { stdio: 'ignore' }).status === 0;
  if (found) return undefined;
  if (process.env['KUSTOMIZE_TS_REQUIRE_REGISTRY'] === '1') {
    throw new Error('docker-registry is required (KUSTOMIZE_TS_REQUIRE_REGISTRY=1) but not installed: run scripts/setup-registry.sh');
  }
  return 'docker-registry is not installed (scripts/setup-registry.sh installs it)';
}

/** The user `tester` with password `s3cret-pw`, as a bcrypt htpasswd line (cost 4, made with Python's crypt). */
export const TEST_USER = { username: 'tester', password: 's3cret-pw' };
const HTPASSWD = 'tester:$2b$04$BGNB8ffQGdfUoXG/rR0ce.EBD7L8Ox1at8A6mYrBI.yghR5o/thoO\n';

/** Starts a registry with its own storage; `auth: 'htpasswd'` makes it ask for TEST_USER (Basic). */
export async function startRegistry(options: { auth?: 'htpasswd' | { token: TokenAuthConfig } } = {}): Promise<TestRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'kts-registry-'));
  const port = await freePort();
  let auth = '';
  if (options.auth === 'htpasswd') {
    writeFileSync(join(dir, 'htpasswd'), HTPASSWD);
    auth = `auth: {htpasswd: {realm: test-realm, path: ${join(dir, 'htpasswd')}}}\n`;
  } else if (options.auth) {
    const t = options.auth.token;
    auth = `auth: {token: {realm: "${t.realm}", service: ${t.service}, issuer: ${t.issuer}, rootcertbundle: ${t.rootCertBundle}}}\n`;
  }
  writeFileSync(
    join(dir, 'config.yml'),
    `version: 0.1\nlog: {level: error, accesslog: {disabled: true}}\nstorage: {filesystem: {rootdirectory: ${join(dir, 'data')}}, delete: {enabled: true}}\nhttp: {addr: 127.0.0.1:${port}, secret: test-only-secret}\n${auth}`,
  );
  const child = spawn('docker-registry', ['serve', join(dir, 'config.yml')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const host = `127.0.0.1:${port}`;
  await waitUntilUp(`http://${host}/v2/`, child, () => log);
  return {
    host,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A token service the registry trusts: its realm URL and the certificate bundle it signs with. */
export interface TokenAuthConfig {
  realm: string;
  service: string;
  issuer: string;
  rootCertBundle: string;
}

async function waitUntilUp(url: string, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`docker-registry exited: ${log()}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill();
  throw new Error(`docker-registry did not come up: ${log()}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Every file under `dir`, relative paths, as a tree archive takes them. */
export function treeFiles(dir: string): TreeFile[] {
  const out: TreeFile[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      if (statSync(join(dir, path)).isDirectory()) walk(path);
      else out.push({ path, bytes: readFileSync(join(dir, path)) });
    }
  };
  walk('');
  return out;
}

/** Publishes a directory the way `flux push artifact` does: one tar.gz layer, Flux's media types. Returns the digest. */
export async function pushTree(ref: string, files: TreeFile[], auth?: RegistryCredentials): Promise<string> {
  return pushArtifact(ref, {
    config: { mediaType: MediaType.fluxConfig, bytes: new TextEncoder().encode('{}') },
    layers: [{ mediaType: MediaType.fluxContent, bytes: await writeTreeArchive(files) }],
    ...(auth && { auth }),
  });
}
