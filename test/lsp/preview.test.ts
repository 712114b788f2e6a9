/**
 * `kustomize/preview` and `kustomize/previewChanged` through the real server over stdio
 * (test/lsp/client.ts): a root's output as `kustomize-ts build` prints it over the editor's
 * unsaved texts, where each line's value was written, and which roots an edit re-renders.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { PreviewOrigin, PreviewResult } from '../../src/lsp/protocol.js';
import { build } from '../../src/index.js';
import { LAUNCHER, LspClient } from './client.js';

const DEPLOYMENT = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.25\n';

/** base, read by dev and prod; prod patches the replicas and lists a Namespace after the Deployment (legacy order puts it first); broken names a missing file */
const FILES: Record<string, string> = {
  'base/kustomization.yaml': 'resources:\n- deployment.yaml\n',
  'base/deployment.yaml': DEPLOYMENT,
  'dev/kustomization.yaml': 'resources:\n- ../base\nnamePrefix: dev-\n',
  'prod/kustomization.yaml': 'resources:\n- ../base\n- namespace.yaml\npatches:\n- path: replicas.yaml\n',
  'prod/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: prod\n',
  'prod/replicas.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n',
  'broken/kustomization.yaml': 'resources:\n- deployment.yaml\n- missing.yaml\n',
  'broken/deployment.yaml': DEPLOYMENT,
  'notes/readme.yaml': 'a: file no root reads\n',
};

const dir = mkdtempSync(join(tmpdir(), 'kts-lsp-preview-'));
const uri = (path: string) => pathToFileURL(join(dir, path)).href;
let client: LspClient;
/** every `kustomize/previewChanged`, in order */
const changed: string[][] = [];

before(async () => {
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  client = await LspClient.start([pathToFileURL(dir).href]);
  client.onNotification('kustomize/previewChanged', (p: { roots: string[] }) => changed.push(p.roots));
  await client.settled();
});
after(async () => {
  if (client.process.exitCode === null) await client.stop();
  rmSync(dir, { recursive: true, force: true });
});

const preview = (path: string, root?: string) => client.request<PreviewResult>('kustomize/preview', { uri: uri(path), ...(root !== undefined && { root }) });

/** What `kustomize-ts build` prints for a root of `dir` on disk. */
function cliBuild(root: string): string {
  const run = spawnSync(process.execPath, [LAUNCHER, 'build', join(dir, root)], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

/** The roots named by the previewChanged notifications that `act` brings, once the server has built what it changed. */
async function changedBy(act: () => Promise<void>): Promise<string[]> {
  const from = changed.length;
  await act();
  await client.settled();
  return [...new Set(changed.slice(from).flat())].sort();
}

function yamlOf(result: PreviewResult): string {
  assert.ok('yaml' in result, JSON.stringify(result));
  return result.yaml;
}

/** The origin of the output line that is `text` exactly (the only such line). */
function originOf(result: PreviewResult, text: string): PreviewOrigin | undefined {
  const lines = yamlOf(result).split('\n');
  assert.equal(lines.filter((l) => l === text).length, 1, `one line ${JSON.stringify(text)}`);
  return 'origins' in result ? result.origins.find((o) => o.outputLine === lines.indexOf(text)) : undefined;
}

describe('kustomize/preview', () => {
  test("a root's preview is what kustomize-ts build prints, in its order, and what the library's build gives", async () => {
    for (const root of ['base', 'dev', 'prod']) {
      const result = await preview(`${root}/kustomization.yaml`);
      assert.equal(result.root, root);
      assert.equal(yamlOf(result), cliBuild(root), root);
      assert.equal(yamlOf(result), (await build(join(dir, root), { reorder: 'unspecified' })).yaml, root);
    }
    assert.match(yamlOf(await preview('prod/kustomization.yaml')), /^apiVersion: v1\nkind: Namespace\n/);
  });

  test('origins: a patched value points at the patch line, a prefixed name at the prefix, a value of the base at the base', async () => {
    const prod = await preview('prod/replicas.yaml');
    assert.equal(prod.root, 'prod');
    assert.deepEqual(originOf(prod, '  replicas: 3'), { outputLine: yamlOf(prod).split('\n').indexOf('  replicas: 3'), uri: uri('prod/replicas.yaml'), line: 5, character: 12, step: 'patches[0]' });
    const image = originOf(prod, '      - image: nginx:1.25');
    assert.deepEqual([image?.uri, image?.line, image?.character, image?.step], [uri('base/deployment.yaml'), 16, 15, 'resource']);
    const dev = await preview('dev/kustomization.yaml');
    const name = originOf(dev, '  name: dev-web');
    assert.deepEqual([name?.uri, name?.line, name?.step], [uri('dev/kustomization.yaml'), 2, 'namePrefix']);
    // a line that holds no value (a key above a map) has none
    const lines = yamlOf(dev).split('\n');
    assert.ok('origins' in dev && !dev.origins.some((o) => o.outputLine === lines.indexOf('metadata:')));
  });

  test('a file of several roots: the nearest, the others named; a root asked for by name', async () => {
    const nearest = await preview('base/deployment.yaml');
    assert.deepEqual([nearest.root, nearest.roots], ['base', ['dev', 'prod']]);
    assert.equal(yamlOf(nearest), cliBuild('base'));
    const dev = await preview('base/deployment.yaml', 'dev');
    assert.deepEqual([dev.root, dev.roots], ['dev', ['base', 'prod']]);
    assert.equal(yamlOf(dev), cliBuild('dev'));
  });

  test('a root whose build fails answers with its error, where its diagnostic is; a file no root has is a ResponseError', async () => {
    const broken = await preview('broken/deployment.yaml');
    assert.equal(broken.root, 'broken');
    assert.ok('error' in broken, JSON.stringify(broken));
    assert.equal(broken.error.code, 'FILE_NOT_FOUND');
    assert.equal(broken.error.uri, uri('broken/kustomization.yaml'));
    assert.equal(broken.error.range.start.line, 2);
    assert.match(broken.error.message, /missing\.yaml/);
    await assert.rejects(preview('notes/readme.yaml'), /no kustomization root reads .*notes\/readme\.yaml/);
    await assert.rejects(preview('base/deployment.yaml', 'nowhere'), /no root is named nowhere/);
    await assert.rejects(client.request('kustomize/preview', { uri: 3 }), /takes \{uri: string/);
  });
});

describe('kustomize/previewChanged', () => {
  test('an unsaved edit re-renders exactly the roots whose output changed; the preview shows the edit', async () => {
    const k = uri('dev/kustomization.yaml');
    await client.open(k, FILES['dev/kustomization.yaml']!);
    assert.deepEqual(await changedBy(() => client.change(k, 'resources:\n- ../base\nnamePrefix: live-\n')), ['dev']);
    assert.match(yamlOf(await preview('dev/kustomization.yaml')), /name: live-web/);
    const d = uri('base/deployment.yaml');
    await client.open(d, DEPLOYMENT);
    assert.deepEqual(await changedBy(() => client.change(d, DEPLOYMENT.replace('nginx:1.25', 'nginx:1.27'))), ['base', 'dev', 'prod']);
    assert.match(yamlOf(await preview('prod/kustomization.yaml')), /image: nginx:1\.27/);
  });

  test('an edit that changes no output sends none', async () => {
    const d = uri('base/deployment.yaml');
    const before = yamlOf(await preview('base/deployment.yaml'));
    assert.deepEqual(await changedBy(() => client.change(d, `# a comment\n${DEPLOYMENT.replace('nginx:1.25', 'nginx:1.27')}`)), []);
    const after = await preview('base/deployment.yaml');
    assert.equal(yamlOf(after), before);
    // the origins follow the lines the comment moved
    assert.equal(originOf(after, '  replicas: 1')?.line, 6);
  });

  test('a failing root mended, and broken again on disk, is told each time', async () => {
    const k = uri('broken/kustomization.yaml');
    await client.open(k, FILES['broken/kustomization.yaml']!);
    assert.deepEqual(await changedBy(() => client.change(k, 'resources:\n- deployment.yaml\n')), ['broken']);
    assert.equal(yamlOf(await preview('broken/kustomization.yaml')), (await build(join(dir, 'base'))).yaml);
    await client.close(k);
    // closed: the disk's text, still broken, counts again
    await client.settled();
    writeFileSync(join(dir, 'broken/missing.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: found\n');
    assert.deepEqual(await changedBy(() => client.watched([{ uri: uri('broken/missing.yaml'), type: 1 }])), ['broken']);
    assert.match(yamlOf(await preview('broken/kustomization.yaml')), /name: found/);
  });
});
