/**
 * Fixture cases: test/fixtures/<case>/input is a kustomization tree; expected.yaml is what the
 * real `kubectl kustomize` (kubectl v1.32.4, kustomize v5.5.0) printed for it, recorded by
 * test/fixtures/regen.mjs (which can re-check them: `node test/fixtures/regen.mjs --check`);
 * expected-error.txt holds substrings of kubectl's error message, one per line, checked against
 * kubectl by the same script. Never edit an expectation to match kustomize-ts.
 *
 * Every case is built twice: with the library's `build()` reading the disk, and reading a
 * MemoryFileSystem loaded with the same tree (mounted elsewhere, symlinks kept as links), and
 * both must give the expected output, so the in-memory and disk builds are proven identical.
 * A case with expected-crd-merge.yaml (kubectl's output for its built-in twin, see regen.mjs)
 * is built a third time with `crdMerge`, which must print that.
 */
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from '../../src/build/build.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import type { LoadRestriction } from '../../src/load/loader.js';
import type { ReorderOption } from '../../src/options.js';
import type { BuildOptions } from '../../src/build/build.js';
import { checkExplanation, checkKnownAnswers } from '../build/explain-checks.js';

/** from dist/test/pipeline/ back to the repository's test/fixtures/ */
const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));

interface CaseOptions {
  /** why kustomize-ts is known to differ from kubectl here: node:test reports the case as todo, not failed */
  todo?: string;
  build?: string;
  reorder?: ReorderOption;
  loadRestrictor?: LoadRestriction;
}

interface Case {
  name: string;
  dir: string;
  options: CaseOptions;
  expectedYaml?: string;
  expectedErrors?: string[];
  /** expected-crd-merge.yaml: what the build prints with `crdMerge` */
  expectedCrdMerge?: string;
  /** explain.yaml: who wrote some of the output's fields, known answers */
  explainAnswers?: string;
}

function loadCases(): Case[] {
  return nodeFs
    .readdirSync(FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory() && nodeFs.existsSync(nodePath.join(FIXTURES, d.name, 'input')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const dir = nodePath.join(FIXTURES, name);
      const read = (f: string): string | undefined =>
        nodeFs.existsSync(nodePath.join(dir, f)) ? nodeFs.readFileSync(nodePath.join(dir, f), 'utf8') : undefined;
      const options = JSON.parse(read('options.json') ?? '{}') as CaseOptions;
      const errors = read('expected-error.txt');
      const c: Case = { name, dir, options };
      const answers = read('explain.yaml');
      if (answers !== undefined) c.explainAnswers = answers;
      const crdMerge = read('expected-crd-merge.yaml');
      if (crdMerge !== undefined) c.expectedCrdMerge = crdMerge;
      if (errors !== undefined) c.expectedErrors = errors.split('\n').filter((l) => l !== '');
      else c.expectedYaml = read('expected.yaml');
      return c;
    });
}

/** Copies the tree at `diskDir` into `fs` under `memDir`; symlinks stay links (to the mounted target). */
function mount(fs: MemoryFileSystem, diskDir: string, memDir: string): void {
  for (const entry of nodeFs.readdirSync(diskDir, { withFileTypes: true })) {
    const disk = nodePath.join(diskDir, entry.name);
    const mem = `${memDir}/${entry.name}`;
    if (entry.isSymbolicLink()) {
      const target = nodeFs.readlinkSync(disk);
      fs.link(mem, target.startsWith('/') ? target : nodePath.posix.join(memDir, target));
    } else if (entry.isDirectory()) {
      fs.mkdirAll(mem);
      mount(fs, disk, mem);
    } else fs.writeFile(mem, nodeFs.readFileSync(disk));
  }
}

function buildOptions(c: Case): BuildOptions {
  return { reorder: c.options.reorder ?? 'legacy', loadRestrictor: c.options.loadRestrictor ?? 'rootOnly', warn: () => {} };
}

async function check(c: Case, run: () => Promise<{ yaml: string }>): Promise<void> {
  if (c.expectedErrors) {
    await assert.rejects(run, (e: unknown) => {
      const message = e instanceof Error ? e.message : String(e);
      for (const s of c.expectedErrors!) assert.ok(message.includes(s), `error message lacks ${JSON.stringify(s)}:\n${message}`);
      return true;
    });
    return;
  }
  assert.ok(c.expectedYaml !== undefined, `${c.name} has neither expected.yaml nor expected-error.txt`);
  const { yaml } = await run();
  assert.equal(yaml, c.expectedYaml);
}

const cases = loadCases();

describe('fixtures', () => {
  test('there are fixture cases', () => {
    assert.ok(cases.length >= 25, `found ${cases.length} cases in ${FIXTURES}`);
  });
  for (const c of cases) {
    const todo = c.options.todo;
    describe(c.name, todo ? { todo } : {}, () => {
      test('disk', todo ? { todo } : {}, () =>
        check(c, () => build(nodePath.join(c.dir, 'input', c.options.build ?? '.'), buildOptions(c))),
      );
      test('memory', todo ? { todo } : {}, () => {
        const fs = new MemoryFileSystem();
        const root = `/mem/${c.name}/input`;
        fs.mkdirAll(root);
        mount(fs, nodePath.join(c.dir, 'input'), root);
        // relative to cwd, as the CLI resolves DIR
        return check(c, () => build(c.options.build ?? '.', { ...buildOptions(c), fs, cwd: root }));
      });
      if (c.expectedCrdMerge !== undefined) {
        test('crd-merge: as kubectl merges the built-in twin', async () => {
          const { yaml } = await build(nodePath.join(c.dir, 'input', c.options.build ?? '.'), { ...buildOptions(c), crdMerge: true });
          assert.equal(yaml, c.expectedCrdMerge);
        });
      }
      // explain's records: a failing tree fails as build does; every printed value has its record
      test('explain', todo ? { todo } : {}, async () => {
        const dir = nodePath.join(c.dir, 'input', c.options.build ?? '.');
        const explained = () => build(dir, { ...buildOptions(c), provenance: true });
        if (c.expectedErrors) {
          const plainError = await build(dir, buildOptions(c)).then(() => undefined, (e: unknown) => e);
          await assert.rejects(explained, (e: unknown) => (assert.deepEqual(e, plainError), true));
          return;
        }
        const result = await explained();
        checkExplanation(await build(dir, buildOptions(c)), result, dir);
        if (c.explainAnswers !== undefined) checkKnownAnswers(result, c.explainAnswers);
      });
    });
  }
});
