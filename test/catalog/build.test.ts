import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { main } from '../../src/cli/main.js';
import { KustomizeError } from '../../src/errors.js';
import { build } from '../../src/build/build.js';
import { catalogYaml, CONFIG, execRuntime, renamerFunction, renamerScript, sha256, tree } from './harness.js';

// Catalogs end to end: `catalogs:` in kustomizations, resolved by the build's resolver list
// (builtin → explicit runtime → in-process → the layer's catalogs → plugin home), with a real
// exec program.

const work = mkdtempSync(join(tmpdir(), 'kts-catalog-build-'));
const cacheDir = () => mkdtempSync(join(tmpdir(), 'kts-cache-'));
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n';

function app(markerName: string, extra: Record<string, string> = {}) {
  const program = renamerScript(join(work, markerName), 'cat-');
  return tree({
    'app/kustomization.yaml': 'catalogs:\n- catalog.yaml\nresources:\n- cm.yaml\ntransformers:\n- fn.yaml\n',
    'app/catalog.yaml': catalogYaml('team', renamerFunction(execRuntime({ bin: 'renamer', uri: 'renamer', sha256: sha256(program) }))),
    'app/renamer': program,
    'app/cm.yaml': CM,
    'app/fn.yaml': CONFIG,
    ...extra,
  });
}

test('build(): a plain config resolves through the kustomization’s trusted catalog and runs, with no plugin flags', async () => {
  const dir = app('build-ok');
  const { yaml } = await build(join(dir, 'app'), { trustedCatalogs: ['catalog.yaml'], cacheDir: cacheDir() });
  assert.equal(yaml, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cat-cm\n');
});

test('build(): an untrusted catalog stops the build before anything runs', async () => {
  const dir = app('build-untrusted');
  await assert.rejects(build(join(dir, 'app'), { cacheDir: cacheDir() }), (e: unknown) => e instanceof KustomizeError && e.code === 'CATALOG_UNTRUSTED' && /--trusted-catalog catalog\.yaml or --trusted-catalog team/.test(e.message));
  assert.equal(existsSync(join(work, 'build-untrusted')), false);
});

test('build(): catalogs are local to the layer that lists them — an overlay does not see its base’s', async () => {
  const dir = app('build-layer', {
    'overlay/kustomization.yaml': 'resources:\n- ../app\ntransformers:\n- fn.yaml\n',
    'overlay/fn.yaml': CONFIG,
  });
  // the base's transformer resolves through its catalog; the overlay's identical config finds no catalog and falls to the plugin home
  await assert.rejects(build(join(dir, 'overlay'), { trustedCatalogs: ['team'], cacheDir: cacheDir() }), (e: unknown) => e instanceof KustomizeError && e.code === 'PLUGIN_DISABLED' && /--enable-alpha-plugins/.test(e.message));
  assert.ok(existsSync(join(work, 'build-layer')), 'the base’s catalog function ran');
});

test('build(): a config no catalog lists falls to the plugin home, whose error names the catalogs searched too', async () => {
  const dir = app('build-unlisted', { 'app/fn.yaml': CONFIG.replace('kind: Renamer', 'kind: Unlisted') });
  await assert.rejects(
    build(join(dir, 'app'), { trustedCatalogs: ['team'], cacheDir: cacheDir(), enablePlugins: true, pluginHome: work }),
    (e: unknown) => e instanceof KustomizeError && e.code === 'PLUGIN_NOT_FOUND' && /unable to find plugin for Unlisted.*\(also searched: catalogs catalog\.yaml\)$/s.test(e.message),
  );
});

test('build(): an explicit runtime wins over the catalog and still needs --enable-alpha-plugins', async () => {
  const explicit = `${CONFIG}  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: ./renamer\n`;
  const dir = app('build-explicit', { 'app/fn.yaml': explicit });
  await assert.rejects(build(join(dir, 'app'), { trustedCatalogs: ['team'], cacheDir: cacheDir() }), (e: unknown) => e instanceof KustomizeError && e.code === 'PLUGIN_DISABLED' && /--enable-alpha-plugins/.test(e.message));
  assert.equal(existsSync(join(work, 'build-explicit')), false);
});

test('build(): a Starlark runtime runs the catalog’s script in the in-process interpreter', async () => {
  const dir = app('build-starlark', {
    'app/catalog.yaml': catalogYaml('team', renamerFunction('        starlark: fn/prefix.star\n')),
    'app/fn/prefix.star': 'for r in ctx.resource_list["items"]:\n  r["metadata"]["name"] = "star-" + r["metadata"]["name"]\n',
  });
  const { yaml } = await build(join(dir, 'app'), { trustedCatalogs: ['team'] });
  assert.equal(yaml, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: star-cm\n');
});

test('CLI: build --trusted-catalog (repeatable) and catalog view are commands of kustomize-ts', async () => {
  const dir = app('cli-ok');
  let out = '';
  let err = '';
  const io = { out: (s: string) => (out += s), err: (s: string) => (err += s) };
  const saved = process.env['XDG_CACHE_HOME'];
  process.env['XDG_CACHE_HOME'] = cacheDir();
  try {
    assert.equal(await main(['build', join(dir, 'app'), '--trusted-catalog', 'other', '--trusted-catalog', 'team'], io), 0, err);
  } finally {
    if (saved === undefined) delete process.env['XDG_CACHE_HOME'];
    else process.env['XDG_CACHE_HOME'] = saved;
  }
  assert.equal(out, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cat-cm\n');
  out = '';
  assert.equal(await main(['catalog', 'view', join(dir, 'app/catalog.yaml')], io), 0, err);
  assert.match(out, /^Catalog: {4}team\n/);
  assert.equal(await main(['build', join(dir, 'app')], io), 1);
  assert.match(err, /Error: .*which is not trusted/);
});
