/**
 * `edit fix --vars`: kustomize's own cases (test/edit/fix-vars-cases, from its convert_test.go),
 * then converted trees built and compared with what kubectl printed for their vars
 * (test/fixtures/vars-fix-overlay), what is written and when, and the library operation.
 */
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { editKustomization } from '../../src/edit/edit.js';
import type { FileSystem } from '../../src/fs/filesystem.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { build } from '../../src/build/build.js';
import { project } from './helpers.js';
import { readTree } from './scenario-corpus.js';

/** from dist/test/edit/ back to the repository's test/ */
const TEST = fileURLToPath(new URL('../../../test/', import.meta.url));
const CASES = nodePath.join(TEST, 'edit', 'fix-vars-cases');


/** the project built as the CLI builds it (legacy order), as `edit fix` compares and kubectl printed */
async function cliBuilt(p: ReturnType<typeof project>): Promise<string> {
  return (await build('/app', { fs: p.fs, reorder: 'unspecified' })).yaml;
}

const FIXED_WITH_VARS = '\nFixed fields:\n  patchesJson6902 -> patches\n  patchesStrategicMerge -> patches\n  commonLabels -> labels\n  vars -> replacements\n';

describe("edit fix --vars: kustomize's convert_test cases", () => {
  for (const name of nodeFs.readdirSync(CASES).filter((n) => n.startsWith('Test'))) {
    test(name, async () => {
      const dir = nodePath.join(CASES, name);
      const input = readTree(nodePath.join(dir, 'input'));
      const p = project(input);
      const errorFile = nodePath.join(dir, 'expected-error.txt');
      if (nodeFs.existsSync(errorFile)) {
        await p.fails(nodeFs.readFileSync(errorFile, 'utf8').trim(), 'edit', 'fix', '--vars');
        for (const [path, text] of Object.entries(input)) assert.equal(p.read(path), text, `${path} is left as it was`);
        return;
      }
      const r = await p.ok('edit', 'fix', '--vars');
      assert.ok(r.out.startsWith(FIXED_WITH_VARS), r.out);
      const expected = readTree(nodePath.join(dir, 'expected'));
      for (const [path, text] of Object.entries(expected)) {
        if (path.startsWith('kustomize-ts/')) continue;
        if (path !== 'kustomization.yaml') assert.equal(p.read(path), text, path);
        else {
          // kustomize re-marshals every field; we keep a field the fix left alone as written (kustomize-ts/)
          assert.deepEqual(parse(p.read()), parse(text));
          assert.equal(p.read(), expected['kustomize-ts/kustomization.yaml'] ?? text);
        }
      }
    });
  }
});

describe('edit fix --vars: the converted tree builds as the vars did', () => {
  const fixture = nodePath.join(TEST, 'fixtures', 'vars-fix-overlay');
  const input = readTree(nodePath.join(fixture, 'input'));
  /** what kubectl printed for the tree with its vars */
  const kubectlOutput = nodeFs.readFileSync(nodePath.join(fixture, 'expected.yaml'), 'utf8');

  test('an overlay with a base, a generated ConfigMap and a patch: same output, comments kept', async () => {
    const p = project(input);
    const r = await p.ok('edit', 'fix', '--vars');
    assert.equal(r.out, FIXED_WITH_VARS, 'no warning: the output did not change');
    assert.equal(await cliBuilt(p), kubectlOutput);
    const k = p.read();
    assert.match(k, /^# An overlay whose vars/);
    assert.match(k, /\n# values the workloads need\nreplacements:\n- source:\n {4}kind: Secret\n/);
    assert.doesNotMatch(k, /vars:|patchesStrategicMerge/);
    assert.equal(
      p.read('base/deployment.yaml'),
      input['base/deployment.yaml']!.replaceAll('$(SECRET_NAME)', 'SECRET_NAME_PLACEHOLDER').replaceAll('$(DB_HOST)', 'DB_HOST_PLACEHOLDER'),
    );
    assert.equal(p.read('base/kustomization.yaml'), input['base/kustomization.yaml']);
    // the patch's uses are selected by the patch's target
    assert.deepEqual(parse(k).replacements[0].targets[2], {
      fieldPaths: ['spec.template.spec.containers.0.args.1'],
      options: { delimiter: '/', index: 2 },
      select: { kind: 'Deployment' },
    });
  });

  test('a var whose value a replacement cannot give (a generated name, hashed after replacements run) is converted with a warning', async () => {
    const p = project({
      ...input,
      'kustomization.yaml': `${input['kustomization.yaml']}- name: CONFIG_NAME\n  objref:\n    kind: ConfigMap\n    name: app-config\n    apiVersion: v1\n`,
      'args-patch.yaml': `${input['args-patch.yaml']}        - $(CONFIG_NAME)\n`,
    });
    const before = await cliBuilt(p);
    assert.match(before, /\n {8}- app-config-8g6hb5mbgc\n/);
    const r = await p.ok('edit', 'fix', '--vars');
    const after = await cliBuilt(p);
    assert.equal(after, before.replace('- app-config-8g6hb5mbgc\n        command', '- app-config\n        command'));
    assert.equal(r.out, `${FIXED_WITH_VARS}Warning: 'Fixed' kustomization now produces different output when running \`kustomize-ts build\`:\n...${after}...\n`);
  });

  test('a var used where vars do not reach (an image) is replaced there too, with a warning', async () => {
    const p = project({
      'kustomization.yaml': 'resources:\n- pod.yaml\n- secret.yaml\nvars:\n- name: S\n  objref:\n    kind: Secret\n    name: my-secret\n    apiVersion: v1\n',
      'pod.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: $(S)\n    env:\n    - name: S\n      value: $(S)\n',
      'secret.yaml': input['secret.yaml']!,
    });
    assert.match(await cliBuilt(p), /image: \$\(S\)\n/);
    const r = await p.ok('edit', 'fix', '--vars');
    assert.match(r.out, /Warning: 'Fixed' kustomization now produces different output/);
    const after = await cliBuilt(p);
    assert.match(after, /image: my-secret\n/);
    assert.match(after, /value: my-secret\n/);
  });

  test('uses below a base of a base are found (kustomize looks one directory deep)', async () => {
    const p = project({
      'kustomization.yaml': 'resources:\n- ../mid\nvars:\n- name: S\n  objref:\n    kind: Secret\n    name: my-secret\n    apiVersion: v1\n',
      '../mid/kustomization.yaml': 'resources:\n- ../base\n- secret.yaml\n',
      '../mid/secret.yaml': input['secret.yaml']!,
      '../base/kustomization.yaml': 'resources:\n- pod.yaml\n',
      '../base/pod.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: i\n    args:\n    - --secret=$(S)\n',
    });
    const before = await cliBuilt(p);
    await p.ok('edit', 'fix', '--vars');
    assert.equal(p.read('../base/pod.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: i\n    args:\n    - --secret=S_PLACEHOLDER\n');
    assert.equal(await cliBuilt(p), before);
  });
});

describe('edit fix --vars: what is written', () => {
  const POD = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: i\n    args:\n    - $(A)\n    - x$(B)/y\n';
  const KUSTOMIZATION = 'resources:\n- pod.yaml\nvars:\n- name: A\n  objref:\n    kind: Secret\n    name: a\n    apiVersion: v1\n- name: B\n  objref:\n    kind: Secret\n    name: b\n    apiVersion: v1\n';

  test('a var that cannot be converted leaves every file as it was, also those of the vars before it', async () => {
    const p = project({ 'kustomization.yaml': KUSTOMIZATION, 'pod.yaml': POD });
    await p.fails('error with pod.yaml: cannot convert all vars to replacements; $(B) is not delimited', 'edit', 'fix', '--vars');
    assert.equal(p.read('pod.yaml'), POD);
  });

  test('every changed file is written to a temporary file first; a failed write changes nothing and leaves no temporary file', async () => {
    const pod = POD.replace('x$(B)/y', '$(B)/y');
    const memory = MemoryFileSystem.from({ 'app/kustomization.yaml': KUSTOMIZATION, 'app/pod.yaml': pod });
    const log: string[] = [];
    let failWrite = 0;
    const recording: FileSystem = Object.assign(Object.create(memory) as MemoryFileSystem, {
      writeFile: (path: string, data: string | Uint8Array) => {
        log.push(`write ${path}`);
        if (log.length === failWrite) throw new Error('disk full');
        memory.writeFile(path, data);
      },
      rename: (from: string, to: string) => {
        log.push(`rename ${from} -> ${to}`);
        memory.rename(from, to);
      },
    });
    failWrite = 2;
    await assert.rejects(editKustomization(recording, '/app', [{ op: 'fix', vars: true }]), /disk full/);
    assert.deepEqual(memory.readDir('/app'), ['kustomization.yaml', 'pod.yaml']);
    assert.equal(new TextDecoder().decode(memory.readFile('/app/pod.yaml')), pod);
    assert.equal(new TextDecoder().decode(memory.readFile('/app/kustomization.yaml')), KUSTOMIZATION);

    log.length = 0;
    failWrite = 0;
    const result = await editKustomization(recording, '/app', [{ op: 'fix', vars: true }]);
    assert.deepEqual(result.rewritten, ['/app/pod.yaml']);
    assert.deepEqual(
      log.map((l) => l.replace(/\/\.[\w.]+\.tmp/g, '/TEMP')),
      ['write /app/TEMP', 'write /app/TEMP', 'rename /app/TEMP -> /app/pod.yaml', 'rename /app/TEMP -> /app/kustomization.yaml'],
    );
    assert.deepEqual(memory.readDir('/app'), ['kustomization.yaml', 'pod.yaml']);
    assert.equal(new TextDecoder().decode(memory.readFile('/app/pod.yaml')), pod.replace('$(A)', 'A_PLACEHOLDER').replace('$(B)', 'B_PLACEHOLDER'));
  });

  test('replacements already there are kept, the converted ones follow', async () => {
    const p = project({
      'kustomization.yaml': `${KUSTOMIZATION}replacements:\n- path: r.yaml\n`,
      'pod.yaml': POD.replace('    - x$(B)/y\n', ''),
      'r.yaml': 'source:\n  kind: Secret\n  name: a\ntargets:\n- select:\n    kind: Pod\n  fieldPaths:\n  - spec.containers.0.image\n',
    });
    await p.ok('edit', 'fix', '--vars');
    const k = parse(p.read());
    assert.equal(k.vars, undefined);
    assert.deepEqual(k.replacements[0], { path: 'r.yaml' });
    assert.deepEqual(k.replacements[1].source, { kind: 'Secret', name: 'a', version: 'v1' });
    assert.deepEqual(k.replacements[2], { source: { kind: 'Secret', name: 'b', version: 'v1' } }, 'a var nothing uses becomes a replacement without targets');
  });

  test('without --vars, vars stay and the hint is printed as kustomize prints it, naming our command', async () => {
    const p = project({ 'kustomization.yaml': KUSTOMIZATION, 'pod.yaml': POD });
    const r = await p.ok('edit', 'fix');
    assert.ok(
      r.out.startsWith(
        '\nFixed fields:\n  patchesJson6902 -> patches\n  patchesStrategicMerge -> patches\n  commonLabels -> labels\n\n' +
          'To convert vars -> replacements, run the command `kustomize-ts edit fix --vars`\n\n' +
          'WARNING: Converting vars to replacements will potentially overwrite many resource files \n',
      ),
      r.out,
    );
    assert.equal(p.read('pod.yaml'), POD);
    assert.match(p.read(), /\nvars:\n- name: A\n/);
  });

  test('the library operation: { op: "fix", vars: true } on a MemoryFileSystem', async () => {
    const fs = MemoryFileSystem.from({ 'app/kustomization.yaml': KUSTOMIZATION.replace(/- name: B[^]*$/, ''), 'app/pod.yaml': POD });
    const result = await editKustomization(fs, '/app', [{ op: 'fix', vars: true }]);
    assert.deepEqual(result.rewritten, ['/app/pod.yaml']);
    assert.deepEqual(parse(result.text).replacements, [
      { source: { kind: 'Secret', name: 'a', version: 'v1' }, targets: [{ fieldPaths: ['spec.containers.0.args.0'], select: { kind: 'Pod', name: 'p', version: 'v1' } }] },
    ]);
  });
});
