import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { KustomizeError } from '../../src/errors.js';
import type { ResolvedOptions } from '../../src/options.js';
import { startServer } from '../load/git-http-server.js';
import { catalogYaml, CONFIG, execRuntime, fileSha256, hostArch, hostOs, renamerFunction, renamerScript, runOnConfigMap, setup, sha256, tarGz, tree } from './harness.js';

// Catalog resolution for real: catalogs on disk, over HTTP and in a git repository served
// from 127.0.0.1; exec functions are real executables (shell scripts), fetched over HTTP, as
// .tar.gz archives, from file:// URLs and relative to the catalog, checked by digest and
// cached. Each program touches a marker file, so a test can tell whether it ran.

const work = mkdtempSync(join(tmpdir(), 'kts-catalog-resolver-'));
const www = join(work, 'www');
const gitRoot = join(work, 'srv');
let server: { url: string; close: () => Promise<void> };

const marker = (name: string) => join(work, `ran-${name}`);
const options = (extra: Partial<ResolvedOptions> = {}): Partial<ResolvedOptions> => ({ cacheDir: mkdtempSync(join(tmpdir(), 'kts-cache-')), ...extra });
const code = (c: string, pattern: RegExp) => (e: unknown) => {
  assert.ok(e instanceof KustomizeError, String(e));
  assert.equal(e.code, c, e.message);
  assert.match(e.message, pattern);
  return true;
};

/** A program served over HTTP as `fn/<name>` and as `fn/<name>.tar.gz` (holding `bin/<name>`). */
function serveProgram(name: string, prefix: string): { plain: string; archive: string } {
  mkdirSync(join(www, 'fn/bin'), { recursive: true });
  writeFileSync(join(www, 'fn', name), renamerScript(marker(name), prefix), { mode: 0o755 });
  writeFileSync(join(www, 'fn/bin', name), renamerScript(marker(`${name}-tgz`), `${prefix}tgz-`), { mode: 0o755 });
  tarGz(join(www, 'fn'), join(www, 'fn', `${name}.tar.gz`), [`bin/${name}`]);
  return { plain: fileSha256(join(www, 'fn', name)), archive: fileSha256(join(www, 'fn', `${name}.tar.gz`)) };
}

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, stdio: 'pipe' });

let digests: { plain: string; archive: string };

before(async () => {
  digests = serveProgram('renamer', 'http-');
  server = await startServer(gitRoot, www);
  // a catalog over HTTP whose program is named relative to it
  mkdirSync(join(www, 'catalogs/bin'), { recursive: true });
  writeFileSync(join(www, 'catalogs/bin/renamer'), renamerScript(marker('http-relative'), 'rel-'), { mode: 0o755 });
  writeFileSync(
    join(www, 'catalogs/catalog.yaml'),
    catalogYaml('http-catalog', renamerFunction(execRuntime({ bin: 'renamer', uri: 'bin/renamer', sha256: fileSha256(join(www, 'catalogs/bin/renamer')) }))),
  );
  // a catalog in a git repository, its program beside it; tag v1 differs from the branch tip
  const src = join(work, 'src');
  mkdirSync(join(src, 'catalogs'), { recursive: true });
  const gitProgram = renamerScript(marker('git'), 'git-v1-');
  writeFileSync(join(src, 'catalogs/renamer'), gitProgram, { mode: 0o755 });
  writeFileSync(join(src, 'catalogs/catalog.yaml'), catalogYaml('git-catalog', renamerFunction(execRuntime({ bin: 'renamer', uri: 'renamer', sha256: sha256(gitProgram) }))));
  git(src, 'init', '-q', '-b', 'main');
  git(src, 'add', '.');
  git(src, 'commit', '-q', '-m', 'v1');
  git(src, 'tag', 'v1');
  writeFileSync(join(src, 'catalogs/catalog.yaml'), 'not: a catalog\n');
  git(src, 'commit', '-q', '-am', 'broken at the tip');
  mkdirSync(join(gitRoot, 'org'), { recursive: true });
  git(work, 'clone', '-q', '--bare', src, join(gitRoot, 'org/repo.git'));
});

after(async () => server?.close());

/** A kustomization directory holding `catalog.yaml` (and any other files). */
const app = (catalog: string, files: Record<string, string> = {}) => tree({ 'catalog.yaml': catalog, ...files });

describe('exec functions from a trusted catalog', () => {
  test('a program relative to a local catalog runs, trusted by the reference as written, without --enable-alpha-plugins or --enable-exec', async () => {
    const program = renamerScript(marker('local'), 'local-');
    const dir = app(catalogYaml('local-catalog', renamerFunction(execRuntime({ bin: 'renamer', uri: 'fn/renamer', sha256: sha256(program) }))), { 'fn/renamer': program });
    const { resolver, ctx } = setup(dir, options({ trustedCatalogs: ['catalog.yaml'], enablePlugins: false, enableExec: false }));
    assert.deepEqual(await runOnConfigMap(resolver(['catalog.yaml']), ctx), ['local-cm']);
    assert.ok(existsSync(marker('local')));
  });

  test('trusted by metadata.name', async () => {
    const program = renamerScript(marker('by-name'), 'named-');
    const dir = app(catalogYaml('team-functions', renamerFunction(execRuntime({ bin: 'renamer', uri: 'renamer', sha256: sha256(program) }))), { renamer: program });
    const { resolver, ctx } = setup(dir, options({ trustedCatalogs: ['team-functions'] }));
    assert.deepEqual(await runOnConfigMap(resolver(['./catalog.yaml']), ctx), ['named-cm']);
  });

  test('an untrusted catalog is an error naming the catalog and --trusted-catalog; nothing is fetched or run', async () => {
    const dir = app(catalogYaml('team-functions', renamerFunction(execRuntime({ bin: 'renamer', uri: `${server.url}/fn/renamer`, sha256: digests.plain }))));
    const opts = options({ trustedCatalogs: ['other.yaml', 'catalog'] });
    const { resolver, ctx } = setup(dir, opts);
    await assert.rejects(
      runOnConfigMap(resolver(['catalog.yaml']), ctx),
      code('CATALOG_UNTRUSTED', /function example\.com\/v1 Renamer \(configured in fn\.yaml\) comes from catalog 'catalog\.yaml' \(team-functions\), which is not trusted; .*--trusted-catalog catalog\.yaml or --trusted-catalog team-functions/),
    );
    assert.deepEqual(readdirSync(opts.cacheDir!), [], 'nothing was downloaded');
  });

  test('a program over HTTP, and one inside a .tar.gz over HTTP', async () => {
    const dir = app(
      catalogYaml(
        'http-programs',
        renamerFunction(execRuntime({ bin: 'renamer', uri: `${server.url}/fn/renamer`, sha256: digests.plain })) +
          renamerFunction(execRuntime({ bin: 'bin/renamer', uri: `${server.url}/fn/renamer.tar.gz`, sha256: `sha256:${digests.archive}` }), 'Archived'),
      ),
    );
    const { resolver, ctx } = setup(dir, options({ trustedCatalogs: ['catalog.yaml'] }));
    assert.deepEqual(await runOnConfigMap(resolver(['catalog.yaml']), ctx), ['http-cm']);
    assert.deepEqual(await runOnConfigMap(resolver(['catalog.yaml']), ctx, CONFIG.replace('Renamer', 'Archived')), ['http-tgz-cm']);
  });

  test('a program from a file:// URL', async () => {
    const dir = app(catalogYaml('file-url', renamerFunction(execRuntime({ bin: 'renamer', uri: `file://${join(www, 'fn/renamer')}`, sha256: digests.plain }))));
    const { resolver, ctx } = setup(dir, options({ trustedCatalogs: ['catalog.yaml'] }));
    assert.deepEqual(await runOnConfigMap(resolver(['catalog.yaml']), ctx), ['http-cm']);
  });

  test('a digest mismatch is an error and the program never runs (nor is it kept)', async () => {
    const m = marker('mismatch');
    const program = renamerScript(m, 'bad-');
    const dir = app(catalogYaml('c', renamerFunction(execRuntime({ bin: 'renamer', uri: 'renamer', sha256: sha256('something else') }))), { renamer: program });
    const opts = options({ trustedCatalogs: ['c'] });
    const { resolver, ctx } = setup(dir, opts);
    await assert.rejects(runOnConfigMap(resolver(['catalog.yaml']), ctx), code('DIGEST_MISMATCH', new RegExp(`renamer has digest sha256:${sha256(program)}, but catalog 'catalog.yaml' says sha256:${sha256('something else')}; it was not run`)));
    assert.equal(existsSync(m), false, 'the program did not run');
    assert.deepEqual(readdirSync(opts.cacheDir!), [], 'nothing was written to the cache');
  });

  test('a digest mismatch of a .tar.gz over HTTP: never runs', async () => {
    const dir = app(catalogYaml('c', renamerFunction(execRuntime({ bin: 'bin/renamer', uri: `${server.url}/fn/renamer.tar.gz`, sha256: digests.plain }))));
    const { resolver, ctx } = setup(dir, options({ trustedCatalogs: ['c'] }));
    const ranBefore = existsSync(marker('renamer-tgz'));
    await assert.rejects(runOnConfigMap(resolver(['catalog.yaml']), ctx), code('DIGEST_MISMATCH', /renamer\.tar\.gz has digest/));
    assert.equal(existsSync(marker('renamer-tgz')), ranBefore);
  });

  test('an archive without the named bin is an error listing what it holds', async () => {
    const dir = app(catalogYaml('c', renamerFunction(execRuntime({ bin: 'renamer', uri: `${server.url}/fn/renamer.tar.gz`, sha256: digests.archive }))));
    const { resolver, ctx } = setup(dir, options({ trustedCatalogs: ['c'] }));
    await assert.rejects(runOnConfigMap(resolver(['catalog.yaml']), ctx), code('PLUGIN_NOT_FOUND', /holds no 'renamer' \(it holds: bin\/renamer\)/));
  });

  test('a catalog without a digest for the program is refused before anything is fetched', async () => {
    const dir = app(
      catalogYaml('c', renamerFunction(`        exec:\n          platforms:\n          - {bin: renamer, os: ${hostOs()}, arch: ${hostArch()}, uri: '${server.url}/fn/renamer'}\n`)),
    );
    const { resolver, ctx } = setup(dir, options({ trustedCatalogs: ['c'] }));
    await assert.rejects(runOnConfigMap(resolver(['catalog.yaml']), ctx), code('CATALOG_INVALID', /platforms\[0\]\.sha256: is required/));
  });

  test('downloads are cached by digest and reused offline', async () => {
    const own = tree({ renamer: renamerScript(marker('offline'), 'offline-') });
    const offlineServer = await startServer(gitRoot, own);
    const dir = app(catalogYaml('c', renamerFunction(execRuntime({ bin: 'renamer', uri: `${offlineServer.url}/renamer`, sha256: fileSha256(join(own, 'renamer')) }))));
    const opts = options({ trustedCatalogs: ['c'] });
    assert.deepEqual(await runOnConfigMap(setup(dir, opts).resolver(['catalog.yaml']), setup(dir, opts).ctx), ['offline-cm']);
    await offlineServer.close();
    const again = setup(dir, opts);
    assert.deepEqual(await runOnConfigMap(again.resolver(['catalog.yaml']), again.ctx), ['offline-cm'], 'the cached copy ran with the server gone');
    const cold = setup(dir, options({ trustedCatalogs: ['c'] }));
    await assert.rejects(runOnConfigMap(cold.resolver(['catalog.yaml']), cold.ctx), code('REMOTE_FAILED', /renamer/), 'without the cache the server is needed');
  });

  test('the default cache is under $XDG_CACHE_HOME/kustomize-ts', async () => {
    const xdg = mkdtempSync(join(tmpdir(), 'kts-xdg-'));
    const saved = process.env['XDG_CACHE_HOME'];
    process.env['XDG_CACHE_HOME'] = xdg;
    try {
      const dir = app(catalogYaml('c', renamerFunction(execRuntime({ bin: 'renamer', uri: `${server.url}/fn/renamer`, sha256: digests.plain }))));
      const { resolver, ctx } = setup(dir, { trustedCatalogs: ['c'] });
      await runOnConfigMap(resolver(['catalog.yaml']), ctx);
      assert.ok(existsSync(join(xdg, 'kustomize-ts/exec', `sha256-${digests.plain}`, 'renamer')));
    } finally {
      if (saved === undefined) delete process.env['XDG_CACHE_HOME'];
      else process.env['XDG_CACHE_HOME'] = saved;
    }
  });

  test('no program for this platform: an error listing the platforms offered', async () => {
    const other = hostOs() === 'darwin' ? 'windows' : 'darwin';
    const runtime = `        exec:\n          platforms:\n          - {bin: a, os: ${other}, arch: arm64, uri: a, sha256: '${'0'.repeat(64)}'}\n          - {bin: b, os: windows, arch: amd64, uri: b, sha256: '${'0'.repeat(64)}'}\n`;
    const dir = app(catalogYaml('c', renamerFunction(runtime)));
    const { resolver, ctx } = setup(dir, options({ trustedCatalogs: ['c'] }));
    await assert.rejects(
      runOnConfigMap(resolver(['catalog.yaml']), ctx),
      code('PLUGIN_NOT_FOUND', new RegExp(`no exec program for this platform \\(${hostOs()}/${hostArch()}\\); the catalog offers ${other}/arm64, windows/amd64`)),
    );
  });

  test('an exec uri that is neither http(s)://, file:// nor relative is refused', async () => {
    const dir = app(catalogYaml('c', renamerFunction(execRuntime({ bin: 'renamer', uri: '/abs/renamer', sha256: digests.plain }))));
    const { resolver, ctx } = setup(dir, options({ trustedCatalogs: ['c'] }));
    await assert.rejects(runOnConfigMap(resolver(['catalog.yaml']), ctx), code('CATALOG_INVALID', /'\/abs\/renamer' must be an http\(s\):\/\/ or file:\/\/ URL, or a path relative to the catalog/));
  });
});

describe('catalog sources and order', () => {
  test('a catalog over HTTP: its program named relative to the catalog URL', async () => {
    const ref = `${server.url}/catalogs/catalog.yaml`;
    const { resolver, ctx } = setup(tree({}), options({ trustedCatalogs: [ref] }));
    assert.deepEqual(await runOnConfigMap(resolver([ref]), ctx), ['rel-cm']);
  });

  test('a catalog in a git repository at a ref, in kustomize’s remote URL form', async () => {
    const ref = `${server.url}/org/repo.git//catalogs/catalog.yaml?ref=v1`;
    const { resolver, ctx, cleanup } = setup(tree({}), options({ trustedCatalogs: ['git-catalog'] }));
    try {
      assert.deepEqual(await runOnConfigMap(resolver([ref]), ctx), ['git-v1-cm']);
    } finally {
      cleanup();
    }
  });

  test('a local catalog outside the kustomization is refused under the load restrictor, read with LoadRestrictionsNone', async () => {
    const root = tree({ 'shared/catalog.yaml': catalogYaml('shared', renamerFunction(execRuntime({ bin: 'renamer', uri: `${server.url}/fn/renamer`, sha256: digests.plain }))), 'app/x': '' });
    const restricted = setup(join(root, 'app'), options({ trustedCatalogs: ['shared'] }));
    await assert.rejects(runOnConfigMap(restricted.resolver(['../shared/catalog.yaml']), restricted.ctx), code('LOAD_RESTRICTED', /loading catalog '\.\.\/shared\/catalog\.yaml': security; file .* is not in or below/));
    const open = setup(join(root, 'app'), options({ trustedCatalogs: ['shared'], loadRestrictor: 'none' }));
    assert.deepEqual(await runOnConfigMap(open.resolver(['../shared/catalog.yaml']), open.ctx), ['http-cm']);
  });

  test('catalogs are searched in order and fetched only as far as needed: an unreachable catalog after a match is no error', async () => {
    const unreachable = 'http://127.0.0.1:1/catalog.yaml';
    const dir = app(catalogYaml('first', renamerFunction(execRuntime({ bin: 'renamer', uri: `${server.url}/fn/renamer`, sha256: digests.plain }))));
    const { resolver, ctx } = setup(dir, options({ trustedCatalogs: ['first'] }));
    assert.deepEqual(await runOnConfigMap(resolver(['catalog.yaml', unreachable]), ctx), ['http-cm']);
    // a config the first catalog does not know needs the second: now it is an error naming it
    await assert.rejects(runOnConfigMap(resolver(['catalog.yaml', unreachable]), ctx, CONFIG.replace('Renamer', 'Other')), code('REMOTE_FAILED', /loading catalog 'http:\/\/127\.0\.0\.1:1\/catalog\.yaml'/));
  });

  test('the first catalog listing a function wins, and within a catalog the first entry', async () => {
    const second = renamerScript(marker('second'), 'second-');
    const first = renamerScript(marker('first'), 'first-');
    const dir = app(catalogYaml('a', renamerFunction(execRuntime({ bin: 'r', uri: 'first', sha256: sha256(first) })) + renamerFunction(execRuntime({ bin: 'r', uri: 'second', sha256: sha256(second) }))), {
      'b.yaml': catalogYaml('b', renamerFunction(execRuntime({ bin: 'r', uri: 'second', sha256: sha256(second) }))),
      first,
      second,
    });
    const { resolver, ctx } = setup(dir, options({ trustedCatalogs: ['a', 'b'] }));
    assert.deepEqual(await runOnConfigMap(resolver(['b.yaml', 'catalog.yaml']), ctx), ['second-cm']);
    assert.deepEqual(await runOnConfigMap(resolver(['catalog.yaml', 'b.yaml']), ctx), ['first-cm']);
  });

  test('group, kind and version must all match; otherwise the resolver has nothing (and the next resolver is asked)', async () => {
    const dir = app(catalogYaml('c', renamerFunction(execRuntime({ bin: 'renamer', uri: 'x', sha256: digests.plain }))));
    const { resolver, ctx } = setup(dir, options({ trustedCatalogs: ['c'] }));
    for (const apiVersion of ['example.com/v2', 'other.com/v1', 'v1']) {
      assert.equal(await runOnConfigMap(resolver(['catalog.yaml']), ctx, CONFIG.replace('example.com/v1', apiVersion)), undefined, apiVersion);
    }
  });
});

describe('container requirements and the Starlark hook', () => {
  const container = (fields: string) => `        container:\n          image: localhost/kustomize-ts-test/never-run:v1\n${fields}`;

  test('requireNetwork needs --network, checked before anything runs', async () => {
    const dir = app(catalogYaml('c', renamerFunction(container('          requireNetwork: true\n'))));
    const { resolver, ctx } = setup(dir, options({ trustedCatalogs: ['c'] }));
    await assert.rejects(runOnConfigMap(resolver(['catalog.yaml']), ctx), code('PLUGIN_DISABLED', /requires network access \(requireNetwork\); allow it with --network/));
  });

  test('requireStorageMount needs --mount, checked before anything runs', async () => {
    const dir = app(catalogYaml('c', renamerFunction(container('          requireStorageMount: true\n'))));
    const { resolver, ctx } = setup(dir, options({ trustedCatalogs: ['c'], network: true }));
    await assert.rejects(runOnConfigMap(resolver(['catalog.yaml']), ctx), code('PLUGIN_DISABLED', /requires a storage mount \(requireStorageMount\); give one with --mount/));
  });

  test('a Starlark runtime: the script (relative to the catalog) goes to the injected runner, whose plugin runs', async () => {
    const dir = app(catalogYaml('c', renamerFunction('        starlark: fn/prefix.star\n')), { 'fn/prefix.star': 'def run(items): pass\n' });
    const seen: string[] = [];
    const { resolver, ctx } = setup(dir, options({ trustedCatalogs: ['c'] }), (script, config, configuredIn) => {
      seen.push(`${script.uri} from ${script.catalog} for ${config.kind} in ${configuredIn}: ${script.source}`);
      return { transform: (resources) => resources.resources().forEach((r) => r.setName(`star-${r.name}`)) };
    });
    assert.deepEqual(await runOnConfigMap(resolver(['catalog.yaml']), ctx), ['star-cm']);
    assert.deepEqual(seen, ['fn/prefix.star from catalog.yaml for Renamer in fn.yaml: def run(items): pass\n']);
  });

  test('a Starlark runtime without a runner is a clear error; an untrusted one is refused first', async () => {
    const dir = app(catalogYaml('c', renamerFunction('        starlark: fn/prefix.star\n')));
    const trusted = setup(dir, options({ trustedCatalogs: ['c'] }));
    await assert.rejects(runOnConfigMap(trusted.resolver(['catalog.yaml']), trusted.ctx), code('PLUGIN_NOT_FOUND', /runs it on Starlark, and this build has no Starlark runtime/));
    const untrusted = setup(dir, options(), () => assert.fail('the runner must not be called'));
    await assert.rejects(runOnConfigMap(untrusted.resolver(['catalog.yaml']), untrusted.ctx), code('CATALOG_UNTRUSTED', /not trusted/));
  });
});
