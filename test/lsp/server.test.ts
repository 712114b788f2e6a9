/**
 * The language server as an editor drives it: `kustomize-ts lsp --stdio` in a process of its own,
 * spoken to over LSP (test/lsp/client.ts), on trees written to a temporary directory.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver/node';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { editKustomization } from '../../src/edit/edit.js';
import { LspClient } from './client.js';
import { applyEdits } from './text-edits.js';

const DEPLOYMENT = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.25\n';

const made: string[] = [];
const started: LspClient[] = [];
after(() => {
  // a test that failed before stopping its server leaves it running: it would keep the run from ending
  for (const c of started) if (c.process.exitCode === null) c.process.kill();
  made.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

async function start(folders: string[], settings?: unknown): Promise<LspClient> {
  const client = await LspClient.start(folders, settings);
  started.push(client);
  return client;
}

/** Writes `files` under a new temporary directory; returns it and a URI maker for its files. */
function tree(files: Record<string, string>): { dir: string; uri: (path?: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'kts-lsp-'));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return { dir, uri: (path = '') => pathToFileURL(join(dir, path)).href.replace(/\/$/, '') };
}

const codes = (d: Diagnostic[]) => d.map((x) => x.code);

describe('diagnostics', () => {
  test('a YAML syntax error, at its line', async () => {
    const t = tree({ 'app/kustomization.yaml': 'resources:\n- cm.yaml\n', 'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [x\n' });
    const client = await start([t.uri()]);
    const d = await client.waitFor(t.uri('app/cm.yaml'), (d) => d.length > 0);
    assert.equal(d[0]!.code, 'YAML_INVALID');
    assert.equal(d[0]!.range.start.line, 4);
    assert.equal(d[0]!.source, 'kustomize-ts');
    assert.equal(await client.stop(), 0);
  });

  test("a missing resources entry, at the entry's line; cleared by an unsaved fix", async () => {
    const text = 'resources:\n- deployment.yaml\n- missing.yaml\n';
    const t = tree({ 'app/kustomization.yaml': text, 'app/deployment.yaml': DEPLOYMENT });
    const client = await start([t.uri()]);
    const k = t.uri('app/kustomization.yaml');
    await client.open(k, text);
    const [d] = await client.waitFor(k, (d) => d.length === 1);
    assert.equal(d!.code, 'FILE_NOT_FOUND');
    assert.deepEqual(d!.range, { start: { line: 2, character: 2 }, end: { line: 2, character: 14 } });
    assert.equal(d!.severity, 1);
    await client.edit(k, { start: { line: 2, character: 0 }, end: { line: 3, character: 0 } }, '');
    await client.waitFor(k, (d) => d.length === 0);
    assert.equal(readFileSync(join(t.dir, 'app/kustomization.yaml'), 'utf8'), text, 'the disk is not written');
    await client.stop();
  });

  test('a patch that fails, at its entry; an unknown field at its key', async () => {
    const t = tree({
      'app/kustomization.yaml': 'resources:\n- deployment.yaml\npatches:\n- path: nothere-patch.yaml\n',
      'app/deployment.yaml': DEPLOYMENT,
      'app/nothere-patch.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nothere\nspec:\n  replicas: 3\n',
      'other/kustomization.yaml': 'resources:\n- ../app/deployment.yaml\nnamePrefx: x-\n',
    });
    const client = await start([t.uri()], { loadRestrictor: 'LoadRestrictionsNone' });
    const [patch] = await client.waitFor(t.uri('app/kustomization.yaml'), (d) => d.length === 1);
    assert.equal(patch!.code, 'PATCH_FAILED');
    assert.equal(patch!.range.start.line, 3);
    const [unknown] = await client.waitFor(t.uri('other/kustomization.yaml'), (d) => d.length === 1);
    assert.equal(unknown!.code, 'KUSTOMIZATION_INVALID');
    assert.deepEqual(unknown!.range, { start: { line: 2, character: 0 }, end: { line: 2, character: 9 } });
    await client.stop();
  });

  test("a deprecated field, at its key, with a quick fix that writes what edit fix writes", async () => {
    const text = '# the app\nbases:\n- ../base\ncommonLabels:\n  team: web # owners\n';
    const t = tree({ 'app/kustomization.yaml': text, 'base/kustomization.yaml': 'resources:\n- cm.yaml\n', 'base/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n' });
    const client = await start([t.uri()]);
    const k = t.uri('app/kustomization.yaml');
    await client.open(k, text);
    const d = await client.waitFor(k, (d) => d.length === 2);
    assert.deepEqual(codes(d), ['FIELD_DEPRECATED', 'FIELD_DEPRECATED']);
    assert.deepEqual(d.map((x) => x.range.start.line), [1, 3]);
    assert.equal(d[0]!.severity, 2);
    const actions = await client.codeActions(k, d[0]!.range, [d[0]!]);
    assert.equal(actions.length, 1);
    assert.equal(actions[0]!.title, 'Run kustomize-ts edit fix');
    const fixed = applyEdits(text, actions[0]!.edit!.changes![k]!);
    const expected = MemoryFileSystem.from({ 'app/kustomization.yaml': text });
    await editKustomization(expected, '/app', [{ op: 'fix' }]);
    assert.equal(fixed, new TextDecoder().decode(expected.readFile('/app/kustomization.yaml')));
    await client.change(k, fixed);
    await client.waitFor(k, (d) => d.length === 0);
    await client.stop();
  });

  test('a schema error at the patch line that wrote the value; a lint at the target', async () => {
    const t = tree({
      'base/kustomization.yaml': 'resources:\n- deployment.yaml\n',
      'base/deployment.yaml': DEPLOYMENT,
      'prod/kustomization.yaml': 'resources:\n- ../base\npatches:\n- path: replicas.yaml\n- target:\n    kind: Service\n  patch: |-\n    - op: add\n      path: /spec/x\n      value: 1\n',
      'prod/replicas.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: three\n',
    });
    const client = await start([t.uri()]);
    const [schema] = await client.waitFor(t.uri('prod/replicas.yaml'), (d) => d.length === 1);
    assert.equal(schema!.code, 'SCHEMA_VIOLATION');
    assert.match(String(schema!.message), /^Deployment\/web: \/spec\/replicas: expected an integer, got string "three"/);
    assert.deepEqual(schema!.range, { start: { line: 5, character: 12 }, end: { line: 5, character: 17 } });
    const [lint] = await client.waitFor(t.uri('prod/kustomization.yaml'), (d) => d.length === 1);
    assert.equal(lint!.code, 'PATCH_TARGET_UNMATCHED');
    assert.equal(lint!.severity, 2);
    assert.equal(lint!.range.start.line, 4);
    await client.stop();
  });

  test('a problem in a file several roots read is one diagnostic naming them all', async () => {
    const t = tree({
      'base/kustomization.yaml': 'resources:\n- deployment.yaml\n',
      'base/deployment.yaml': DEPLOYMENT.replace('replicas: 1', 'replicas: one'),
      'dev/kustomization.yaml': 'resources:\n- ../base\ncommonAnnotations:\n  env: dev\n',
      'prod/kustomization.yaml': 'resources:\n- ../base\nnamePrefix: prod-\n',
    });
    const client = await start([t.uri()]);
    const uri = t.uri('base/deployment.yaml');
    // each root's problems are published as it is built: the last publication has all three
    const d = await client.waitFor(uri, (d) => d.length === 2 && d.some((x) => x.data.roots.length === 2));
    // base and dev make the same resource: one diagnostic; prod's is named otherwise
    assert.deepEqual(d.map((x) => x.data.roots), [['prod'], ['base', 'dev']]);
    assert.equal(d[1]!.message, 'Deployment/web: /spec/replicas: expected an integer, got string "one"\n(roots base, dev)');
    assert.equal(d[0]!.message, 'Deployment/prod-web: /spec/replicas: expected an integer, got string "one"\n(root prod)');
    assert.deepEqual(d[1]!.relatedInformation?.map((r) => [r.location.uri, r.message]), [[t.uri('base/kustomization.yaml'), 'built as root base'], [t.uri('dev/kustomization.yaml'), 'built as root dev']]);
    assert.deepEqual(d[1]!.range, { start: { line: 5, character: 12 }, end: { line: 5, character: 15 } });
    await client.stop();
  });
});

describe('hover', () => {
  test("on a base's value: each root's output value, and the step and line that last wrote it", async () => {
    const t = tree({
      'base/kustomization.yaml': 'resources:\n- deployment.yaml\n',
      'base/deployment.yaml': DEPLOYMENT,
      'dev/kustomization.yaml': 'resources:\n- ../base\nnamePrefix: dev-\n',
      'prod/kustomization.yaml': 'resources:\n- ../base\nreplicas:\n- name: web\n  count: 5\n',
    });
    const client = await start([t.uri()]);
    await client.settled();
    const hover = await client.hover(t.uri('base/deployment.yaml'), { line: 5, character: 13 });
    const text = (hover?.contents as { value: string }).value;
    assert.equal(
      text,
      [
        '**base**\n- `Deployment/web` `spec.replicas` = `1` (`resource`)',
        '**dev**\n- `Deployment/dev-web` `spec.replicas` = `1` (`resource`)',
        '**prod**\n- `Deployment/web` `spec.replicas` = `5`, by `replicas[0]` at prod/kustomization.yaml:5:10; here `1` (`resource`)',
      ].join('\n\n'),
    );
    await client.stop();
  });

  test('on a kustomization key: what the field does', async () => {
    const t = tree({ 'app/kustomization.yaml': 'namePrefix: x-\nresources:\n- cm.yaml\n', 'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n' });
    const client = await start([t.uri()]);
    const hover = await client.hover(t.uri('app/kustomization.yaml'), { line: 0, character: 4 });
    assert.match((hover?.contents as { value: string }).value, /^\*\*namePrefix\*\*\n\nA prefix added to the name of every resource/);
    assert.deepEqual(hover?.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 10 } });
    await client.stop();
  });
});

describe('bad input never stops the server', () => {
  test('half-typed, a cycle, an exec plugin not allowed, a remote base offline, YAML that is not Kubernetes, a file outside the root', async () => {
    const t = tree({
      'half/kustomization.yaml': 'resources:\n- cm.yaml\nnamePre',
      'half/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n',
      'a/kustomization.yaml': 'resources:\n- ../b\n',
      'b/kustomization.yaml': 'resources:\n- ../a\n',
      'exec/kustomization.yaml': 'transformers:\n- fn.yaml\n',
      'exec/fn.yaml': 'apiVersion: example.com/v1\nkind: Fn\nmetadata:\n  name: fn\n  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: ./fn.sh\n',
      'exec/fn.sh': '#!/bin/sh\ntouch ran\ncat\n',
      'remote/kustomization.yaml': 'resources:\n- https://github.com/kubernetes-sigs/kustomize//examples/helloWorld?ref=v5.0.0\n',
      'notk8s/kustomization.yaml': 'resources:\n- hello.yaml\n',
      'notk8s/hello.yaml': 'hello: world\n',
      'outside/kustomization.yaml': 'resources:\n- ../half/cm.yaml\n',
    });
    const client = await start([t.uri()]);
    const roots = await client.settled();
    assert.equal(roots.length, 7);
    const first = async (path: string) => (await client.waitFor(t.uri(path), (d) => d.length > 0))[0]!;
    assert.equal((await first('half/kustomization.yaml')).code, 'YAML_INVALID');
    assert.equal((await first('b/kustomization.yaml')).code, 'CYCLE');
    const exec = await first('exec/kustomization.yaml');
    assert.equal(exec.code, 'PLUGIN_DISABLED');
    assert.deepEqual(exec.range.start, { line: 1, character: 2 });
    assert.match(String(exec.message), /The setting kustomize\.allow\.plugins allows it\.$/);
    const remote = await first('remote/kustomization.yaml');
    assert.equal(remote.code, 'REMOTE_UNSUPPORTED');
    assert.match(String(remote.message), /kustomize\.allow\.network/);
    assert.equal(remote.range.start.line, 1);
    assert.equal((await first('notk8s/hello.yaml')).code, 'RESOURCE_INVALID');
    const outside = await first('outside/kustomization.yaml');
    assert.equal(outside.code, 'LOAD_RESTRICTED');
    assert.equal(outside.range.start.line, 1);
    // typing through the half-typed file, a character at a time
    const k = t.uri('half/kustomization.yaml');
    let text = 'resources:\n- cm.yaml\n';
    await client.open(k, text);
    for (const c of 'namePrefix: p-\n') await client.change(k, (text += c));
    await client.waitFor(k, (d) => d.length === 0);
    // exec allowed: the function runs
    await client.configure({ allow: { plugins: true, exec: true } });
    await client.waitFor(t.uri('exec/kustomization.yaml'), (d) => d.every((x) => x.code !== 'PLUGIN_DISABLED'));
    assert.ok((await client.roots()).length === 7 && client.process.exitCode === null);
    await client.stop();
  });
});
