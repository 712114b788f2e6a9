/**
 * The published package's types (its three entries: kustomize-ts, /node and /oci), as a TypeScript consumer sees them under each module
 * resolution: node16 (an ES module and a CommonJS file), bundler, and node10 (which TypeScript 7
 * has dropped, hence TypeScript 5.9 too). The consumer has no @types/node (as in a browser
 * project) and does not skip checking the package's declarations. Its code must type-check, and
 * a deliberate type error must be the only error reported (so the types are real, not `any`).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { installPacked, REPO, type Installed } from './packed.js';

const TSC = { 'typescript 7': join(REPO, 'node_modules/typescript/bin/tsc'), 'typescript 5.9': join(REPO, 'node_modules/typescript-5/bin/tsc') };

/** a consumer's code; `await` only where the module format allows it at the top */
function consumer(topLevelAwait: boolean): string {
  return [
    "import { build, BuildCache, editKustomization, MemoryFileSystem, KustomizeError, type BuildResult, type EditResult, type KubernetesObject } from 'kustomize-ts';",
    "import { DiskFileSystem, NodeRemoteSource } from 'kustomize-ts/node';",
    "import { parseOciReference, readTreeArchive, type OciReference } from 'kustomize-ts/oci';",
    "const registry: OciReference['registry'] = parseOciReference('oci://127.0.0.1:5000/org/app:v1').registry;",
    "const fs = MemoryFileSystem.from({ 'app/kustomization.yaml': 'resources: []\\n' });",
    topLevelAwait ? "const result: BuildResult = await build('/app', { fs, cache: new BuildCache({ builds: 4 }) });" : "const result: Promise<BuildResult> = build('/app', { fs, cache: new BuildCache() });",
    // kustomize's spelling of the load restrictor, a signal, the objects as plain data, edits as promises
    "const aborted: Promise<BuildResult> = build('/app', { fs, loadRestrictor: 'LoadRestrictionsNone', signal: new AbortController().signal });",
    "const names = (objects: KubernetesObject[]): string[] => objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`);",
    "const edited: Promise<EditResult> = editKustomization(fs, '/app', [{ op: 'setField', field: 'namespace', value: 'x' }]);",
    'const errorCode: KustomizeError["code"] = "ABORTED";',
    'export const used = [result, aborted, names, edited, errorCode, DiskFileSystem, NodeRemoteSource, registry, readTreeArchive];',
    '',
  ].join('\n');
}
const WRONG = "import { build } from 'kustomize-ts';\nexport const wrong: number = build('/app');\n";
const EXPECTED_ERROR = /^wrong\.[cm]?ts\(2,14\): error TS2322: Type 'Promise<BuildResult>' is not assignable to type 'number'\.\n$/;

interface Case {
  name: string;
  compilers: (keyof typeof TSC)[];
  options: { module: string; moduleResolution: string };
  /** consumer files: name → whether top-level await is allowed there */
  files: Record<string, boolean>;
}

const CASES: Case[] = [
  { name: 'node16', compilers: ['typescript 7', 'typescript 5.9'], options: { module: 'node16', moduleResolution: 'node16' }, files: { 'consumer.mts': true, 'consumer.cts': false, 'wrong.mts': false } },
  { name: 'node16 (CommonJS)', compilers: ['typescript 7', 'typescript 5.9'], options: { module: 'node16', moduleResolution: 'node16' }, files: { 'wrong.cts': false } },
  { name: 'bundler', compilers: ['typescript 7', 'typescript 5.9'], options: { module: 'esnext', moduleResolution: 'bundler' }, files: { 'consumer.ts': true, 'wrong.ts': false } },
  { name: 'node10', compilers: ['typescript 5.9'], options: { module: 'commonjs', moduleResolution: 'node10' }, files: { 'consumer.ts': false, 'wrong.ts': false } },
];

describe('types of the published package', () => {
  let packed: Installed;
  before(() => {
    packed = installPacked();
  });
  after(() => packed.remove());

  for (const c of CASES) {
    for (const compiler of c.compilers) {
      test(`${c.name}, ${compiler}`, () => {
        const project = join(packed.dir, `${c.name}-${compiler}`.replace(/\W+/g, '-'));
        mkdirSync(project);
        for (const [file, topLevelAwait] of Object.entries(c.files)) writeFileSync(join(project, file), file.startsWith('wrong') ? WRONG : consumer(topLevelAwait));
        const compilerOptions = { ...c.options, noEmit: true, strict: true, target: 'es2022', lib: ['es2022', 'dom'], types: [] };
        writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: Object.keys(c.files) }));
        const run = spawnSync(process.execPath, [TSC[compiler], '-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
        assert.match(run.stdout + run.stderr, EXPECTED_ERROR);
      });
    }
  }
});
