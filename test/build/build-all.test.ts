/**
 * buildAll: every root of a tree built in one process, each exactly as build() builds it, in
 * worker threads or in this one; files read once; an edit changes only the roots that read it.
 */
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { after, describe, test } from 'node:test';
import { build } from '../../src/build/build.js';
import type { RootResult } from '../../src/build/build-all.js';
import { KustomizeError } from '../../src/errors.js';
import { DiskFileSystem } from '../../src/fs/disk.js';
import { buildAll } from '../../src/node.js';

const CM = (name: string, data = 'v') => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  k: ${data}\n`;

/** A small GitOps repository: two apps with overlays on shared bases, a component, roots that fail. */
const TREE: Record<string, string> = {
  'kustomization.yaml': 'resources:\n- shared\n',
  'shared/kustomization.yaml': 'resources:\n- cm.yaml\n',
  'shared/cm.yaml': CM('shared'),
  'web/base/kustomization.yaml': 'resources:\n- cm.yaml\n- ../../shared\n',
  'web/base/cm.yaml': CM('web'),
  'web/overlays/dev/kustomization.yaml': 'resources:\n- ../../base\nnamePrefix: dev-\ncomponents:\n- ../../components/debug\n',
  'web/overlays/prod/kustomization.yaml': 'resources:\n- ../../base\nnamePrefix: prod-\nconfigMapGenerator:\n- name: settings\n  files:\n  - settings.env\n',
  'web/overlays/prod/settings.env': 'LEVEL=info\n',
  'web/components/debug/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ncommonLabels:\n  debug: "true"\n',
  'api/kustomization.yaml': 'resources:\n- cm.yaml\n',
  'api/cm.yaml': CM('api'),
  'broken/kustomization.yaml': 'resources: [unclosed\n',
  'missing/kustomization.yaml': 'resources:\n- gone.yaml\n',
};

function writeTree(files: Record<string, string>): string {
  const dir = nodeFs.realpathSync(nodeFs.mkdtempSync(nodePath.join(os.tmpdir(), 'kts-build-all-')));
  for (const [path, text] of Object.entries(files)) {
    nodeFs.mkdirSync(nodePath.dirname(nodePath.join(dir, path)), { recursive: true });
    nodeFs.writeFileSync(nodePath.join(dir, path), text);
  }
  return dir;
}

async function collect(results: AsyncIterable<RootResult>): Promise<RootResult[]> {
  const out: RootResult[] = [];
  for await (const r of results) out.push(r);
  return out;
}

/** Results without their timings, which differ run to run. */
function timeless(results: RootResult[]): Omit<RootResult, 'ms'>[] {
  return results.map(({ ms: _ms, ...rest }) => rest);
}

const dirs: string[] = [];
after(() => {
  for (const d of dirs) nodeFs.rmSync(d, { recursive: true, force: true });
});

describe('buildAll', () => {
  const top = writeTree(TREE);
  dirs.push(top);

  test('every root, in path order, each as build() builds it: its output, or its error with the same code and message', async () => {
    const results = await collect(buildAll(top, { jobs: 1 }));
    assert.deepEqual(
      results.map((r) => r.path),
      ['.', 'api', 'broken', 'missing', 'shared', 'web/base', 'web/overlays/dev', 'web/overlays/prod'],
    );
    for (const r of results) {
      const dir = nodePath.join(top, r.path);
      if (r.ok) {
        assert.equal(r.yaml, (await build(dir)).yaml, r.path);
        continue;
      }
      await assert.rejects(build(dir), (e: unknown) => {
        assert.ok(e instanceof KustomizeError);
        assert.equal(r.error.code, e.code, r.path);
        assert.equal(r.error.message, e.message, r.path);
        return true;
      });
    }
    assert.deepEqual(
      results.filter((r) => !r.ok).map((r) => r.path),
      ['broken', 'missing'],
      'a malformed or failing root is reported, and the others still build',
    );
  });

  test('worker threads give what this thread gives', async () => {
    const inThread = await collect(buildAll(top, { jobs: 1 }));
    const threads = await collect(buildAll(top, { jobs: 2 }));
    assert.deepEqual(timeless(threads), timeless(inThread));
  });

  test('inputs: the files each root read, relative to the top; errors and warnings name files relative to the top too', async () => {
    const results = await collect(buildAll(top, { jobs: 1 }));
    const byPath = new Map(results.map((r) => [r.path, r]));
    const prod = byPath.get('web/overlays/prod')!;
    assert.ok(prod.ok);
    assert.deepEqual(prod.inputs, [
      'shared/cm.yaml',
      'shared/kustomization.yaml',
      'web/base/cm.yaml',
      'web/base/kustomization.yaml',
      'web/overlays/prod/kustomization.yaml',
      'web/overlays/prod/settings.env',
    ]);
    const dev = byPath.get('web/overlays/dev')!;
    assert.ok(dev.ok);
    assert.ok(dev.inputs.includes('web/components/debug/kustomization.yaml'));
    assert.ok(dev.warnings.some((w) => w.code === 'FIELD_DEPRECATED' && w.file === 'web/components/debug/kustomization.yaml'));
    const missing = byPath.get('missing')!;
    assert.ok(!missing.ok);
    assert.equal(missing.error.file, 'missing/gone.yaml');
  });

  test('each file is read once for all the roots', async () => {
    const reads = new Map<string, number>();
    class CountingDisk extends DiskFileSystem {
      override readFile(path: string): Uint8Array {
        reads.set(path, (reads.get(path) ?? 0) + 1);
        return super.readFile(path);
      }
    }
    await collect(buildAll(top, { fs: new CountingDisk() }));
    assert.ok(reads.size > 0);
    assert.deepEqual([...reads].filter(([, n]) => n > 1), [], 'a file read more than once');
    assert.equal(reads.get(nodePath.join(top, 'shared/cm.yaml')), 1, 'the base five roots use');
  });

  test('an edit changes the results of the roots that read the file, and of no other', async () => {
    const tree = writeTree(TREE);
    dirs.push(tree);
    const before = await collect(buildAll(tree, { jobs: 1 }));
    nodeFs.writeFileSync(nodePath.join(tree, 'web/base/cm.yaml'), CM('web', 'edited'));
    const afterEdit = timeless(await collect(buildAll(tree, { jobs: 1 })));
    const changed = afterEdit.filter((r, i) => JSON.stringify(r) !== JSON.stringify(timeless(before)[i])).map((r) => r.path);
    const readers = before.filter((r) => r.ok && r.inputs.includes('web/base/cm.yaml')).map((r) => r.path);
    assert.deepEqual(changed, ['web/base', 'web/overlays/dev', 'web/overlays/prod']);
    assert.deepEqual(changed, readers);
  });

  test('roots, exclude and shard choose what builds', async () => {
    const paths = async (options: Parameters<typeof buildAll>[1]) => (await collect(buildAll(top, { jobs: 1, ...options }))).map((r) => r.path);
    assert.deepEqual(await paths({ roots: ['api', 'web/base'] }), ['api', 'web/base']);
    assert.deepEqual(await paths({ exclude: ['web', 'broken', 'missing'] }), ['.', 'api', 'shared']);
    const shards = [await paths({ shard: { index: 1, count: 2 } }), await paths({ shard: { index: 2, count: 2 } })];
    assert.deepEqual(shards.flat(), await paths({}));
    assert.deepEqual(shards.map((s) => s.length), [4, 4]);
  });

  test('an abort stops the threads and rejects with ABORTED', async () => {
    const controller = new AbortController();
    controller.abort('stop');
    await assert.rejects(collect(buildAll(top, { jobs: 2, signal: controller.signal })), (e: unknown) => e instanceof KustomizeError && e.code === 'ABORTED');
  });

  test('bad options are refused: jobs below 1, a top that is no directory', async () => {
    await assert.rejects(collect(buildAll(top, { jobs: 0 })), (e: unknown) => e instanceof KustomizeError && e.code === 'USAGE');
    await assert.rejects(collect(buildAll(nodePath.join(top, 'api/cm.yaml'))), (e: unknown) => e instanceof KustomizeError && e.code === 'USAGE');
  });
});
