import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { build } from '../../src/build/build.js';
import { lock } from '../../src/edit/lock.js';
import { KustomizeError } from '../../src/errors.js';
import { catalogYaml, CONFIG, renamerFunction } from '../catalog/harness.js';
import { startRegistry, type TestRegistry } from '../oci/registry.js';
import { buildImage, imageName, pushImage } from '../plugins/container-image.js';
import { requireTool } from '../require-tool.js';

// Container functions' images in kustomization.lock.yaml: real images built with podman,
// pushed to a real registry (docker-registry) on 127.0.0.1, and pushed again under the same tag
// after locking. (The machine's engine never pulls by itself: pushImage gives it each image by
// its registry digest, as an engine that pulled it from there has it.)

const podman = requireTool('podman');
const registryTool = requireTool('registry');
const skip = podman.skip || registryTool.skip;

/** An image built here and pushed nowhere. */
const LOCAL_IMAGE = 'localhost/kts-lock/only-here:v1';

describe('lock files and container images', { skip }, () => {
  let registry: TestRegistry;
  const work = mkdtempSync(join(tmpdir(), 'kts-lock-images-'));
  const image = () => `${registry.host}/kts-lock/renamer:v1`;

  /** Builds the image renaming `name` to `<prefix>-name`, pushes it under the tag; returns its registry digest. */
  function publish(prefix: string): string {
    buildImage(image(), `/bin/busybox sed -e 's/^    name: /    name: ${prefix}-/'\n`);
    return pushImage(image());
  }

  before(async () => {
    registry = await startRegistry();
  });
  after(async () => {
    await registry?.stop();
    rmSync(work, { recursive: true, force: true });
    // the images this file built, pushed and pulled (the engine's storage outlives the test)
    for (const reference of [`${registry.host}/kts-lock/*`, LOCAL_IMAGE]) {
      const ids = execFileSync('podman', ['images', '-q', '--filter', `reference=${reference}`], { encoding: 'utf8' }).split('\n').filter(Boolean);
      if (ids.length > 0) execFileSync('podman', ['rmi', '-f', ...new Set(ids)], { stdio: 'ignore' });
    }
  });

  /** A kustomization whose transformer is a container function running `fnImage`. */
  function app(fnImage: string): string {
    const dir = mkdtempSync(join(work, 'app-'));
    writeFileSync(join(dir, 'kustomization.yaml'), 'resources:\n- cm.yaml\ntransformers:\n- fn.yaml\n');
    writeFileSync(join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n');
    writeFileSync(join(dir, 'fn.yaml'), `${CONFIG}  annotations:\n    config.kubernetes.io/function: |\n      container:\n        image: ${fnImage}\n`);
    return dir;
  }
  const options = { enablePlugins: true, containerRuntime: 'podman' };
  const renamed = (prefix: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${prefix}-cm\n`;
  const lockText = (digest: string) =>
    `apiVersion: kustomize-ts.dev/v1alpha1\nkind: KustomizationLock\ninputs:\n- type: image\n  url: "${image()}"\n  digest: "${digest}"\n`;
  const emptyLock = (dir: string) => writeFileSync(join(dir, 'kustomization.lock.yaml'), 'apiVersion: kustomize-ts.dev/v1alpha1\nkind: KustomizationLock\ninputs: []\n');

  test('lock pins an image given by tag to its registry digest; the tag pushed again, the locked image runs; once it is gone, LOCK_MISMATCH', async () => {
    const one = publish('one');
    const dir = app(image());
    await lock(dir, options);
    assert.equal(readFileSync(join(dir, 'kustomization.lock.yaml'), 'utf8'), lockText(one));
    assert.equal((await build(dir, options)).yaml, renamed('one'));

    const two = publish('two');
    assert.notEqual(two, one);
    assert.equal((await build(dir, options)).yaml, renamed('one'), 'run by the locked digest, not by the tag');
    assert.equal((await build(dir, { ...options, lock: 'ignore' })).yaml, renamed('two'));
    const check = await lock(dir, { ...options, action: 'check' });
    assert.deepEqual(check.differences, [{ type: 'image', url: image(), kind: 'changed', locked: one, found: two }]);

    // the locked image is gone, from the registry and from the engine
    const res = await fetch(`http://${registry.host}/v2/kts-lock/renamer/manifests/${one}`, { method: 'DELETE' });
    assert.equal(res.status, 202, await res.text());
    execFileSync('podman', ['rmi', '-f', `${imageName(image())}@${one}`], { stdio: 'ignore' });
    await assert.rejects(build(dir, options), (e: unknown) => {
      assert.ok(e instanceof KustomizeError);
      assert.equal(e.code, 'LOCK_MISMATCH');
      assert.ok(e.message.startsWith(`image input '${image()}': the lock file ${dir}/kustomization.lock.yaml pins ${one}, found ${two} (the pinned one could not be fetched: `), e.message);
      assert.match(e.message, /image not known/);
      return true;
    });
    await lock(dir, { ...options, action: 'update' });
    assert.equal(readFileSync(join(dir, 'kustomization.lock.yaml'), 'utf8'), lockText(two));
    assert.equal((await build(dir, { ...options, lock: 'locked' })).yaml, renamed('two'));
  });

  test("a catalog's container runtime given by tag is locked the same way", async () => {
    const one = publish('cat');
    const dir = app(image());
    writeFileSync(join(dir, 'fn.yaml'), CONFIG);
    writeFileSync(join(dir, 'catalog.yaml'), catalogYaml('c', renamerFunction(`        container:\n          image: ${image()}\n`)));
    writeFileSync(join(dir, 'kustomization.yaml'), 'catalogs:\n- catalog.yaml\nresources:\n- cm.yaml\ntransformers:\n- fn.yaml\n');
    const catalogOptions = { trustedCatalogs: ['c'], containerRuntime: 'podman' };
    await lock(dir, catalogOptions);
    assert.equal(readFileSync(join(dir, 'kustomization.lock.yaml'), 'utf8'), lockText(one));
    publish('next');
    assert.equal((await build(dir, catalogOptions)).yaml, renamed('cat'));
  });

  test('--locked: an image given by tag the lock does not list is LOCK_MISSING; one given by digest needs no entry', async () => {
    const digest = publish('pinned');
    const byTag = app(image());
    emptyLock(byTag);
    await assert.rejects(build(byTag, { ...options, lock: 'locked' }), (e: unknown) => {
      assert.ok(e instanceof KustomizeError);
      assert.equal(e.code, 'LOCK_MISSING');
      assert.ok(e.message.includes(`container image '${image()}' is not in the lock file ${byTag}/kustomization.lock.yaml (--locked)`), e.message);
      return true;
    });
    assert.equal((await build(byTag, options)).yaml, renamed('pinned'), 'without --locked it runs as written');

    const byDigest = app(`${imageName(image())}@${digest}`);
    assert.deepEqual((await lock(byDigest, options)).inputs, []);
    assert.equal((await build(byDigest, { ...options, lock: 'locked' })).yaml, renamed('pinned'));
  });

  test('an image its registry does not have cannot be locked', async () => {
    const local = LOCAL_IMAGE;
    buildImage(local, "/bin/busybox sed -e 's/^    name: /    name: local-/'\n");
    const dir = app(local);
    await assert.rejects(lock(dir, options), (e: unknown) => {
      assert.ok(e instanceof KustomizeError);
      assert.ok(e.message.startsWith(`container image '${local}' cannot be locked: `), e.message);
      assert.match(e.message, /push it to a registry, or give it by digest/);
      return true;
    });
    assert.equal((await build(dir, options)).yaml, renamed('local'), 'a build without a lock runs it as written');
  });

  test('offline, with the registry gone, a locked image runs from the engine: the same output as online', async () => {
    publish('first');
    const dir = app(image());
    await lock(dir, options);
    const online = await build(dir, options);
    publish('later');
    await registry.stop();
    const offline = await build(dir, { ...options, offline: true });
    assert.equal(offline.yaml, online.yaml);
    assert.equal(offline.yaml, renamed('first'));
  });
});
