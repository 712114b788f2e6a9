/**
 * The program's advice names it as it was called: started through a link named `kustomize` (as
 * it is when it stands in for kustomize, under Argo CD), a warning says "Run 'kustomize edit
 * fix'", word for word what kustomize prints; started as itself, "kustomize-ts edit fix". The
 * real launcher runs in a child process, through a real symbolic link.
 */
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from '../../src/build/build.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { programName } from '../../src/cli/main.js';
import { runCommand, type Run } from './run-command.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = nodePath.join(REPO, 'bin', 'kustomize-ts.js');
const tmp = nodeFs.mkdtempSync(nodePath.join(os.tmpdir(), 'kts-program-name-'));
after(() => nodeFs.rmSync(tmp, { recursive: true, force: true }));

// kustomize v5.5.0's warning for commonLabels, as `kubectl kustomize` prints it
const KUSTOMIZE_WARNING = "# Warning: 'commonLabels' is deprecated. Please use 'labels' instead. Run 'kustomize edit fix' to update your Kustomization automatically.\n";

/** A directory holding one link to the launcher, named `name`. */
function linkNamed(name: string): string {
  const dir = nodeFs.mkdtempSync(nodePath.join(tmp, 'bin-'));
  nodeFs.symlinkSync(BIN, nodePath.join(dir, name));
  return nodePath.join(dir, name);
}

/** Runs `program` (a path) with `args` in `cwd`, node found on the PATH as the launcher's first line finds it. */
function run(program: string, args: string[], cwd: string): Promise<Run> {
  const env = { ...process.env, PATH: `${nodePath.dirname(process.execPath)}${nodePath.delimiter}${process.env['PATH'] ?? ''}` };
  return runCommand(program, args, { cwd, env });
}

function tree(files: Record<string, string>): string {
  const dir = nodeFs.mkdtempSync(nodePath.join(tmp, 'tree-'));
  for (const [path, text] of Object.entries(files)) {
    nodeFs.mkdirSync(nodePath.dirname(nodePath.join(dir, path)), { recursive: true });
    nodeFs.writeFileSync(nodePath.join(dir, path), text);
  }
  return dir;
}

const CONFIG_MAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n';
const DEPRECATED = { 'kustomization.yaml': 'resources:\n- cm.yaml\ncommonLabels:\n  app: a\n', 'cm.yaml': CONFIG_MAP };

describe('advice names the program as it was called', () => {
  const kustomize = linkNamed('kustomize');

  test("through a link named kustomize, build's deprecation warning is kustomize's, word for word", async () => {
    const r = await run(kustomize, ['build', tree(DEPRECATED)], tmp);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, KUSTOMIZE_WARNING);
  });

  test('started as itself (the launcher, or a link named kustomize-ts), it advises kustomize-ts', async () => {
    const dir = tree(DEPRECATED);
    const expected = KUSTOMIZE_WARNING.replace("'kustomize edit fix'", "'kustomize-ts edit fix'");
    assert.equal((await run(process.execPath, [BIN, 'build', dir], tmp)).stderr, expected);
    assert.equal((await run(linkNamed('kustomize-ts'), ['build', dir], tmp)).stderr, expected);
  });

  test("a link naming a release (kustomize-v5.7.1, as Argo CD's kustomize.path.v5.7.1) stands in for kustomize: its advice is kustomize's", async () => {
    const r = await run(linkNamed('kustomize-v5.7.1'), ['build', tree(DEPRECATED)], tmp);
    assert.equal(r.stderr, KUSTOMIZE_WARNING);
  });

  test('any other name is the name given', async () => {
    const r = await run(linkNamed('kustomize_5_7_1'), ['build', tree(DEPRECATED)], tmp);
    assert.match(r.stderr, /Run 'kustomize_5_7_1 edit fix' to update/);
  });

  test("build-all's worker threads advise by the same name", async () => {
    const top = tree({ 'a/kustomization.yaml': DEPRECATED['kustomization.yaml'], 'a/cm.yaml': CONFIG_MAP, 'b/kustomization.yaml': 'resources:\n- ../a\n' });
    const r = await run(kustomize, ['build-all', top, '--format', 'ndjson', '--jobs', '2'], tmp);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { path: string; warnings: { message: string }[] });
    assert.deepEqual(
      lines.map((l) => [l.path, l.warnings.map((w) => `${w.message}\n`)]),
      [
        ['a', [KUSTOMIZE_WARNING]],
        ['b', [KUSTOMIZE_WARNING]],
      ],
    );
  });

  test("edit fix's advice and warning name kustomize", async () => {
    const dir = tree({ 'kustomization.yaml': 'resources:\n- cm.yaml\nvars:\n- name: NAME\n  objref: {kind: ConfigMap, name: c, apiVersion: v1}\n', 'cm.yaml': CONFIG_MAP });
    const r = await run(kustomize, ['edit', 'fix'], dir);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /run the command `kustomize edit fix --vars`/);
    assert.match(r.stdout, /when `kustomize build` is run/);
    assert.doesNotMatch(r.stdout, /kustomize-ts/);
  });

  test('usage errors name the program so', async () => {
    const r = await run(kustomize, ['nothing'], tmp);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^Error: unknown command "nothing" for "kustomize"\n/);
    assert.match(r.stderr, /Usage:\n {2}kustomize \[command\]/);
  });
});

describe('programName: the name of the path the launcher was called by', () => {
  test("a link's name, or the launcher's without .js", () => {
    assert.equal(programName('/usr/local/bin/kustomize'), 'kustomize');
    assert.equal(programName('/opt/kustomize-ts/bin/kustomize-ts.js'), 'kustomize-ts');
    assert.equal(programName('/custom-tools/kustomize_5_7_1'), 'kustomize_5_7_1');
    assert.equal(programName('C:\\Users\\me\\AppData\\Roaming\\npm\\node_modules\\kustomize-ts\\bin\\kustomize-ts.js'), 'kustomize-ts');
  });
});

describe('the library option programName', () => {
  test("names the program in a build's warnings; kustomize-ts by default", async () => {
    const fs = MemoryFileSystem.from(Object.fromEntries(Object.entries(DEPRECATED).map(([p, t]) => [`/app/${p}`, t])));
    const heard = async (options: { programName?: string }): Promise<string[]> => {
      const messages: string[] = [];
      await build('/app', { fs, ...options, warn: (w) => messages.push(`${w.message}\n`) });
      return messages;
    };
    assert.deepEqual(await heard({ programName: 'kustomize' }), [KUSTOMIZE_WARNING]);
    assert.deepEqual(await heard({}), [KUSTOMIZE_WARNING.replace("'kustomize edit fix'", "'kustomize-ts edit fix'")]);
  });
});
