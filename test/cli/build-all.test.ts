/**
 * `kustomize-ts build-all` and `build --inputs`, run as users run them (the launcher as a child
 * process): the formats, the output directory, exit codes, and bad command lines.
 */
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCommand, type Run } from './run-command.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = nodePath.join(REPO, 'bin', 'kustomize-ts.js');

const CM = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
const TREE: Record<string, string> = {
  'base/kustomization.yaml': 'resources:\n- cm.yaml\n',
  'base/cm.yaml': CM('base'),
  'overlays/a/kustomization.yaml': 'resources:\n- ../../base\nnamePrefix: a-\n',
  'overlays/b/kustomization.yaml': 'resources:\n- ../../base\nnamePrefix: b-\ncommonLabels:\n  team: b\n',
  'overlays/broken/kustomization.yaml': 'resources:\n- missing.yaml\n',
};

const tmpRoot = nodeFs.mkdtempSync(nodePath.join(os.tmpdir(), 'kts-cli-build-all-'));
after(() => nodeFs.rmSync(tmpRoot, { recursive: true, force: true }));
let count = 0;
function writeTree(files: Record<string, string>): string {
  const dir = nodePath.join(tmpRoot, String(count++));
  for (const [path, text] of Object.entries(files)) {
    nodeFs.mkdirSync(nodePath.dirname(nodePath.join(dir, path)), { recursive: true });
    nodeFs.writeFileSync(nodePath.join(dir, path), text);
  }
  return dir;
}

function cli(args: string[], cwd = REPO): Promise<Run> {
  return runCommand(process.execPath, [BIN, ...args], { cwd, env: process.env });
}

interface NdjsonLine {
  path: string;
  ok: boolean;
  yaml?: string;
  warnings?: { code: string; message: string; file?: string }[];
  inputs?: string[];
  remote?: unknown[];
  ms?: number;
  error?: { code: string; message: string; file?: string };
}

describe('build-all', () => {
  const top = writeTree(TREE);

  test('--format ndjson: one object per root and line, in path order; each output exactly what build prints, each error as build reports it; exit 1 for a failed root', async () => {
    const all = await cli(['build-all', top, '--format', 'ndjson', '--jobs', '2']);
    assert.equal(all.status, 1, all.stderr);
    const lines = all.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as NdjsonLine);
    assert.deepEqual(
      lines.map((l) => l.path),
      ['base', 'overlays/a', 'overlays/b', 'overlays/broken'],
    );
    for (const line of lines) {
      const alone = await cli(['build', nodePath.join(top, line.path)]);
      if (line.ok) {
        assert.equal(line.yaml, alone.stdout, line.path);
        assert.deepEqual(Object.keys(line), ['path', 'ok', 'yaml', 'warnings', 'inputs', 'remote', 'ms']);
        assert.ok(typeof line.ms === 'number');
      } else {
        assert.equal(alone.status, 1);
        assert.equal(`Error: ${line.error!.message}\n`, alone.stderr, line.path);
        assert.deepEqual(Object.keys(line), ['path', 'ok', 'error', 'ms']);
        assert.equal(line.error!.file, 'overlays/broken/missing.yaml');
      }
    }
    const b = lines.find((l) => l.path === 'overlays/b')!;
    assert.deepEqual(b.inputs, ['base/cm.yaml', 'base/kustomization.yaml', 'overlays/b/kustomization.yaml']);
    assert.deepEqual(b.warnings!.map((w) => [w.code, w.file]), [['FIELD_DEPRECATED', 'overlays/b/kustomization.yaml']]);
  });

  test('worker threads and one thread print the same lines', async () => {
    const strip = (r: Run) => r.stdout.replace(/,"ms":\d+/g, '');
    assert.equal(strip(await cli(['build-all', top, '--format', 'ndjson', '--jobs', '1'])), strip(await cli(['build-all', top, '--format', 'ndjson', '--jobs', '2'])));
  });

  test('text: a line per failed root and the totals on stderr, nothing on stdout; exit 0 when every root built', async () => {
    const failing = await cli(['build-all', top]);
    assert.equal(failing.status, 1);
    assert.equal(failing.stdout, '');
    assert.match(failing.stderr, /^overlays\/broken: Error: .*missing\.yaml.*\nbuilt 3 of 4 roots, 1 failed in \d+\.\d s\n$/);
    const passing = await cli(['build-all', top, '--exclude', 'broken']);
    assert.equal(passing.status, 0, passing.stderr);
    assert.match(passing.stderr, /^built 3 of 3 roots in \d+\.\d s\n$/);
  });

  test('--output-dir: each root in DIR/<root>/manifests.yaml; a failed root leaves no file, and its old one goes', async () => {
    const out = nodePath.join(writeTree({}), 'rendered');
    nodeFs.mkdirSync(nodePath.join(out, 'overlays', 'broken'), { recursive: true });
    nodeFs.writeFileSync(nodePath.join(out, 'overlays', 'broken', 'manifests.yaml'), 'from an earlier run\n');
    const r = await cli(['build-all', top, '--output-dir', out]);
    assert.equal(r.status, 1);
    const written = (p: string) => nodeFs.readFileSync(nodePath.join(out, p, 'manifests.yaml'), 'utf8');
    assert.equal(written('overlays/a'), (await cli(['build', nodePath.join(top, 'overlays/a')])).stdout);
    assert.equal(written('base'), (await cli(['build', nodePath.join(top, 'base')])).stdout);
    assert.equal(nodeFs.existsSync(nodePath.join(out, 'overlays', 'broken', 'manifests.yaml')), false);
    assert.deepEqual(nodeFs.readdirSync(nodePath.join(out, 'overlays')).sort(), ['a', 'b', 'broken']);
    assert.deepEqual(nodeFs.readdirSync(nodePath.join(out, 'overlays', 'a')), ['manifests.yaml'], 'no temporary file left');
  });

  test('--shard: the shards of a run together build every root once', async () => {
    const paths = async (shard: string) =>
      (await cli(['build-all', top, '--format', 'ndjson', '--shard', shard])).stdout
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as NdjsonLine).path);
    const shards = [await paths('1/2'), await paths('2/2')];
    assert.deepEqual(shards, [
      ['base', 'overlays/a'],
      ['overlays/b', 'overlays/broken'],
    ]);
  });

  test('a wrong command line: exit 2, a clear error, nothing written', async () => {
    const out = nodePath.join(writeTree({}), 'never');
    const cases: [string[], RegExp][] = [
      [[nodePath.join(top, 'nowhere')], /nowhere' is not a directory/],
      [[nodePath.join(top, 'base', 'cm.yaml')], /cm\.yaml' is not a directory/],
      [[top, '--shard', '0/3'], /--shard '0\/3'/],
      [[top, '--shard', '4/3'], /--shard '4\/3'/],
      [[top, '--shard', 'x'], /--shard 'x'/],
      [[top, '--jobs', '0'], /--jobs '0'/],
      [[top, '--format', 'xml'], /--format 'xml'/],
      [[top, '--no-such-flag'], /unknown flag: --no-such-flag/],
      [[top, top], /one directory/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(['build-all', ...args, '--output-dir', out]);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '');
      assert.equal(nodeFs.existsSync(out), false, `${args.join(' ')} wrote`);
    }
  });
});

describe('build --inputs', () => {
  const top = writeTree(TREE);

  test('writes what the build read: local files relative to the directory built, and the remote references', async () => {
    const file = nodePath.join(writeTree({}), 'inputs.json');
    const r = await cli(['build', nodePath.join(top, 'overlays/a'), '--inputs', file]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(nodeFs.readFileSync(file, 'utf8')), {
      inputs: ['../../base/cm.yaml', '../../base/kustomization.yaml', 'kustomization.yaml'],
      remote: [],
      complete: true,
    });
  });

  test("'-' is stdout, after the output, which must then go to a file", async () => {
    const out = nodePath.join(writeTree({}), 'out.yaml');
    const r = await cli(['build', nodePath.join(top, 'base'), '-o', out, '--inputs', '-']);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { inputs: ['cm.yaml', 'kustomization.yaml'], remote: [], complete: true });
    const refused = await cli(['build', nodePath.join(top, 'base'), '--inputs', '-']);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /give -o too/);
  });
});
