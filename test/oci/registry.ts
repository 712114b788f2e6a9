import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pushArtifact } from '../../src/oci/client.js';
import type { RegistryCredentials } from '../../src/oci/credentials.js';
import { MediaType } from '../../src/oci/media-types.js';
import { writeTreeArchive, type TreeFile } from '../../src/oci/tar.js';

/**
 * A real OCI registry (Debian's `docker-registry`, distribution 2.8) on 127.0.0.1 for tests:
 * `scripts/setup-registry.sh` installs it; the tests ask for it with `requireTool('registry')`.
 */
export interface TestRegistry {
  /** `127.0.0.1:PORT`, as written in `oci://` references */
  host: string;
  /** where it keeps its blobs and manifests, for a test that tampers with them */
  storage: string;
  stop: () => Promise<void>;
}

/** The user `tester` with password `s3cret-pw`, as a bcrypt htpasswd line (cost 4, made with Python's crypt). */
export const TEST_USER = { username: 'tester', password: 's3cret-pw' };
const HTPASSWD = 'tester:$2b$04$BGNB8ffQGdfUoXG/rR0ce.EBD7L8Ox1at8A6mYrBI.yghR5o/thoO\n';

/** Starts a registry with its own storage; `auth: 'htpasswd'` makes it ask for TEST_USER (Basic). */
export async function startRegistry(options: { auth?: 'htpasswd' | { token: TokenAuthConfig } } = {}): Promise<TestRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'kts-registry-'));
  let auth = '';
  if (options.auth === 'htpasswd') {
    writeFileSync(join(dir, 'htpasswd'), HTPASSWD);
    auth = `auth: {htpasswd: {realm: test-realm, path: ${join(dir, 'htpasswd')}}}\n`;
  } else if (options.auth) {
    const t = options.auth.token;
    auth = `auth: {token: {realm: "${t.realm}", service: ${t.service}, issuer: ${t.issuer}, rootcertbundle: ${t.rootCertBundle}}}\n`;
  }
  // port 0: the registry takes a free port and names it in its "listening on" line (level info)
  writeFileSync(
    join(dir, 'config.yml'),
    `version: 0.1\nlog: {level: info, accesslog: {disabled: true}}\nstorage: {filesystem: {rootdirectory: ${join(dir, 'data')}}, delete: {enabled: true}}\nhttp: {addr: 127.0.0.1:0, secret: test-only-secret}\n${auth}`,
  );
  const child = spawn('docker-registry', ['serve', join(dir, 'config.yml')], { stdio: ['ignore', 'ignore', 'pipe'] });
  const host = await listening(child);
  return {
    host,
    storage: join(dir, 'data'),
    stop: async () => {
      // (a second call finds it stopped)
      if (child.exitCode === null && child.signalCode === null) {
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

/** The registry's `127.0.0.1:PORT` once it says it listens; fails when it exits first. */
function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let log = '';
    const read = (d: string): void => {
      log += d;
      const address = /msg="listening on (127\.0\.0\.1:\d+)"/.exec(log)?.[1];
      if (!address) return;
      // what it logs from here on (a line a request) is not needed
      child.stderr!.off('data', read);
      resolve(address);
    };
    child.stderr!.setEncoding('utf8').on('data', read);
    child.once('exit', () => reject(new Error(`docker-registry exited: ${log}`)));
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
