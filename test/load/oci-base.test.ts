import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { build } from '../../src/build/build.js';
import { KustomizeError } from '../../src/errors.js';
import { pushArtifact } from '../../src/oci/client.js';
import { MediaType } from '../../src/oci/media-types.js';
import { writeTreeArchive } from '../../src/oci/tar.js';
import { pushTree, startRegistry, treeFiles, type TestRegistry } from '../oci/registry.js';
import { requireTool } from '../require-tool.js';

// oci:// bases published as Flux publishes kustomize trees (one tar.gz layer), pulled from a
// real registry (docker-registry) on 127.0.0.1.

const { skip } = requireTool('registry');
const enc = (s: string) => new TextEncoder().encode(s);

describe('oci:// bases', { skip }, () => {
  let registry: TestRegistry;
  const work = mkdtempSync(join(tmpdir(), 'kts-oci-base-'));
  const tree = join(work, 'published');
  let digest: string;
  let componentDigest: string;

  before(async () => {
    registry = await startRegistry();
    mkdirSync(join(tree, 'base'), { recursive: true });
    mkdirSync(join(tree, 'comp'), { recursive: true });
    writeFileSync(join(tree, 'base/kustomization.yaml'), 'resources:\n- deployment.yaml\nconfigMapGenerator:\n- name: settings\n  literals: [mode=remote]\n');
    writeFileSync(
      join(tree, 'base/deployment.yaml'),
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx\n        envFrom:\n        - configMapRef:\n            name: settings\n',
    );
    writeFileSync(join(tree, 'kustomization.yaml'), 'resources:\n- base\nnamePrefix: pub-\n');
    writeFileSync(join(tree, 'comp/kustomization.yaml'), 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nimages:\n- name: nginx\n  newTag: "1.27"\n');
    digest = await pushTree(`oci://${registry.host}/org/app-config:v1`, treeFiles(tree));
    componentDigest = await pushTree(`oci://${registry.host}/org/app-component:v1`, treeFiles(join(tree, 'comp')));
  });
  after(async () => registry?.stop());

  /** Builds an overlay on disk whose kustomization is `text`. */
  const overlay = async (text: string, options: Parameters<typeof build>[1] = {}) => {
    const dir = mkdtempSync(join(work, 'overlay-'));
    writeFileSync(join(dir, 'kustomization.yaml'), text);
    return build(dir, options);
  };

  test('an oci:// base builds to the same output as the same tree on disk, by tag and by digest, as a resource and a component', async () => {
    const local = join(work, 'local');
    cpSync(tree, local, { recursive: true });
    const onDisk = await overlay(`resources:\n- ../local\ncomponents:\n- ../local/comp\nnamespace: prod\n`);
    const byTag = await overlay(`resources:\n- oci://${registry.host}/org/app-config:v1\ncomponents:\n- oci://${registry.host}/org/app-component@${componentDigest}\nnamespace: prod\n`);
    assert.match(onDisk.yaml, /name: pub-settings-[a-z0-9]+\n/);
    assert.match(onDisk.yaml, /image: nginx:1.27/);
    assert.equal(byTag.yaml, onDisk.yaml);
  });

  test('an oci:// reference can be the build root', async () => {
    const { yaml } = await build(`oci://${registry.host}/org/app-config@${digest}`);
    assert.match(yaml, /name: pub-web/);
  });

  test('a component pulled from OCI must be a Component; a wrong kind in the tree fails', async () => {
    await assert.rejects(overlay(`resources:\n- oci://${registry.host}/org/app-config:v1\ncomponents:\n- oci://${registry.host}/org/app-config:v1\n`), /expected kind 'Component'/);
  });

  test('a pulled tree cannot read outside itself, whatever the load restrictor', async () => {
    writeFileSync(join(work, 'secret.yaml'), 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: host-secret\n');
    const escapes: [string, string][] = [
      ['escape-file', `resources:\n- ../../../../../../../../..${join(work, 'secret.yaml')}\n`],
      ['escape-dir', `resources:\n- ../..\n`],
      ['escape-patch', `resources: []\npatches:\n- path: ../../../../../../../..${join(work, 'secret.yaml')}\n`],
    ];
    for (const [name, kustomization] of escapes) {
      await pushTree(`oci://${registry.host}/org/${name}:v1`, [{ path: 'kustomization.yaml', bytes: enc(kustomization) }]);
      await assert.rejects(
        overlay(`resources:\n- oci://${registry.host}/org/${name}:v1\n`, { loadRestrictor: 'none' }),
        (e: unknown) => e instanceof KustomizeError && /security|outside of repo|not in or below|outside/.test(e.message) && !/host-secret/.test(e.message),
        name,
      );
    }
  });

  test('an archive with path traversal is refused before anything is written', async () => {
    const victim = join(work, 'victim');
    const evil = await writeTreeArchive([
      { path: 'kustomization.yaml', bytes: enc('resources: []\n') },
      { path: `../../../../../../../../..${victim}`, bytes: enc('pwned') },
    ]);
    await pushArtifact(`oci://${registry.host}/org/evil:v1`, { layers: [{ mediaType: MediaType.fluxContent, bytes: evil }] });
    await assert.rejects(overlay(`resources:\n- oci://${registry.host}/org/evil:v1\n`), /unsafe or invalid archive: path .* contains '\.\.'/);
    assert.equal(existsSync(victim), false);
  });

  test('an artifact without a tar.gz layer says which layers it has', async () => {
    await pushArtifact(`oci://${registry.host}/org/not-a-tree:v1`, { layers: [{ mediaType: 'application/x-yaml', bytes: enc('a: b\n') }] });
    await assert.rejects(overlay(`resources:\n- oci://${registry.host}/org/not-a-tree:v1\n`), /no layer of media type application\/vnd.cncf.flux.content.v1.tar\+gzip or application\/vnd.oci.image.layer.v1.tar\+gzip \(its layers: application\/x-yaml\)/);
  });

  test('with the cache: stored by digest, --offline by tag and digest, a corrupted entry refetched', async () => {
    const remoteCache = mkdtempSync(join(tmpdir(), 'kts-cache-'));
    const text = `resources:\n- oci://${registry.host}/org/app-config:v1\n`;
    const online = await overlay(text, { remoteCache });
    const entry = join(remoteCache, 'oci', digest.replace(':', '-'));
    assert.ok(existsSync(join(entry, 'tree/base/deployment.yaml')));
    assert.equal((await overlay(text, { remoteCache, offline: true })).yaml, online.yaml);
    assert.equal((await overlay(`resources:\n- oci://${registry.host}/org/app-config@${digest}\n`, { remoteCache, offline: true })).yaml, online.yaml);
    await assert.rejects(overlay(`resources:\n- oci://${registry.host}/org/app-config:v2\n`, { remoteCache, offline: true }), /offline: 'oci:\/\/.*app-config:v2' is not in the remote cache/);

    writeFileSync(join(entry, 'tree/base/deployment.yaml'), 'kind: Tampered\n');
    const warnings: string[] = [];
    await assert.rejects(overlay(text, { remoteCache, offline: true, warn: (w) => warnings.push(w.message) }), /is not in the remote cache/);
    assert.deepEqual(warnings, [`remote cache: the entry for oci ${digest} was corrupted; fetching it again`]);
    assert.equal((await overlay(text, { remoteCache })).yaml, online.yaml);
    assert.deepEqual(readdirSync(join(remoteCache, 'tmp')), []);
  });
});
