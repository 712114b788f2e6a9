/** The library entry `editKustomization`: what a rewrite keeps, validation, and atomic replacement. */
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { describe, test } from 'node:test';
import { build, editKustomization, KustomizeError, MemoryFileSystem, type FileSystem } from '../../src/index.js';
import { DiskFileSystem } from '../../src/fs/disk.js';
import { DEPLOYMENT } from './helpers.js';

/** what kustomize's edit adds to a file without them, at its end */
const TYPE = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';

const COMMENTED = `# Top of file: who owns this
# and why.

apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
# the app's resources
resources:
- web.yaml # the deployment

sortOptions:
  order: fifo
openapi:
  path: schema.json # unknown to every edit
images:
- name: nginx # pinned
  newTag: "1.0"
`;

describe('editKustomization', () => {
  test('keeps comments (top of file, on fields and items), blank lines, the author’s order and fields no edit changes; new fields go at the end, in kustomize’s order', async () => {
    const fs = MemoryFileSystem.from({ 'app/kustomization.yaml': COMMENTED, 'app/web.yaml': DEPLOYMENT, 'app/schema.json': '{"definitions":{}}' });
    const result = await editKustomization(fs, '/app', [
      { op: 'setImages', images: [{ name: 'nginx', newTag: '1.1' }] },
      { op: 'setField', field: 'namePrefix', value: 'dev-' },
      { op: 'addMetadata', kind: 'label', pairs: { team: 'a' } },
    ]);
    assert.equal(
      result.text,
      `# Top of file: who owns this
# and why.

apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
# the app's resources
resources:
- web.yaml # the deployment

sortOptions:
  order: fifo
openapi:
  path: schema.json # unknown to every edit
images:
- name: nginx # pinned
  newTag: "1.1"
namePrefix: dev-
commonLabels:
  team: a
`,
    );
    assert.equal(new TextDecoder().decode(fs.readFile('/app/kustomization.yaml')), result.text);
    assert.match((await build('/app', { fs })).yaml, /image: nginx:1.1/);
  });

  test('a field the edit changes is written as kustomize writes it; one it does not change stays as written; apiVersion and kind are added at the end', async () => {
    const fs = MemoryFileSystem.from({ 'app/kustomization.yaml': 'resources:\n  - a.yaml\ncomponents: [c]\n', 'app/a.yaml': DEPLOYMENT, 'app/b.yaml': DEPLOYMENT });
    assert.equal(
      (await editKustomization(fs, '/app', [{ op: 'addEntries', field: 'resources', entries: ['b.yaml'] }])).text,
      'resources:\n- a.yaml\n- b.yaml\ncomponents: [c]\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n',
    );
  });

  test('refuses a file the build would refuse, and a result it would refuse; nothing is written', async () => {
    const fs = MemoryFileSystem.from({ 'app/kustomization.yaml': 'foo: bar\n' });
    await assert.rejects(editKustomization(fs, '/app', [{ op: 'setField', field: 'namespace', value: 'x' }]), (e: unknown) => {
      assert.ok(e instanceof KustomizeError);
      assert.equal(e.code, 'KUSTOMIZATION_INVALID');
      assert.equal(e.message, 'invalid Kustomization: json: unknown field "foo" (in /app/kustomization.yaml)');
      return true;
    });
    assert.equal(new TextDecoder().decode(fs.readFile('/app/kustomization.yaml')), 'foo: bar\n');
  });

  test('a failing operation among several leaves the file as it was', async () => {
    const text = 'resources:\n- a.yaml\n';
    const fs = MemoryFileSystem.from({ 'app/kustomization.yaml': text, 'app/a.yaml': DEPLOYMENT, 'app/b.yaml': DEPLOYMENT });
    await assert.rejects(
      editKustomization(fs, '/app', [
        { op: 'addEntries', field: 'resources', entries: ['b.yaml'] },
        { op: 'setImages', images: [] },
      ]),
      /no image specified/,
    );
    assert.equal(new TextDecoder().decode(fs.readFile('/app/kustomization.yaml')), text);
  });

  test('the new text goes to a temporary file that is renamed over the kustomization', async () => {
    const memory = MemoryFileSystem.from({ 'app/kustomization.yaml': 'namespace: a\n' });
    const log: string[] = [];
    const recording: FileSystem = Object.assign(Object.create(memory) as MemoryFileSystem, {
      writeFile: (path: string, data: string | Uint8Array) => {
        log.push(`write ${path}`);
        memory.writeFile(path, data);
      },
      rename: (from: string, to: string) => {
        log.push(`rename ${from} -> ${to}`);
        memory.rename(from, to);
      },
    });
    await editKustomization(recording, '/app', [{ op: 'setField', field: 'namespace', value: 'b' }]);
    assert.equal(log.length, 2);
    assert.match(log[0]!, /^write \/app\/\.kustomization\.yaml\.\w+\.tmp$/);
    assert.equal(log[1], `rename ${log[0]!.slice('write '.length)} -> /app/kustomization.yaml`);
    assert.deepEqual(memory.readDir('/app'), ['kustomization.yaml']);
    assert.equal(new TextDecoder().decode(memory.readFile('/app/kustomization.yaml')), `namespace: b\n${TYPE}`);
  });

  test('on disk: replaced by rename (a new inode), no temporary file left', async () => {
    const dir = nodeFs.mkdtempSync(nodePath.join(os.tmpdir(), 'kts-edit-'));
    try {
      const file = nodePath.join(dir, 'kustomization.yaml');
      nodeFs.writeFileSync(file, 'namespace: a\n');
      const held = nodeFs.openSync(file, 'r');
      await editKustomization(new DiskFileSystem(), dir, [{ op: 'setField', field: 'namespace', value: 'b' }]);
      // a reader that opened the file before still sees the whole old file
      assert.equal(nodeFs.readFileSync(held, 'utf8'), 'namespace: a\n');
      nodeFs.closeSync(held);
      assert.equal(nodeFs.readFileSync(file, 'utf8'), `namespace: b\n${TYPE}`);
      assert.deepEqual(nodeFs.readdirSync(dir), ['kustomization.yaml']);
    } finally {
      nodeFs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('finds Kustomization and kustomization.yml; more than one is an error', async () => {
    const fs = MemoryFileSystem.from({ 'a/Kustomization': 'namespace: a\n', 'b/kustomization.yaml': 'namespace: a\n', 'b/kustomization.yml': 'namespace: a\n' });
    assert.equal((await editKustomization(fs, '/a', [{ op: 'setField', field: 'namespace', value: 'b' }])).file, '/a/Kustomization');
    await assert.rejects(editKustomization(fs, '/b', []), /^KustomizeError: Found multiple kustomization file: \[kustomization.yaml kustomization.yml\]$/);
  });
});
