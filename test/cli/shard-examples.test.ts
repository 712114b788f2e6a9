/**
 * The two ways docs/repositories.md spreads a repository over machines, run here: the Kubernetes
 * Indexed Job of examples/shards/kubernetes (its kustomizations built by kustomize-ts as kubectl
 * builds them, then each pod's script run as its pod would run it) and the CI matrix of
 * examples/ci/render-shards.yml (its render step run for each matrix entry). The shards
 * together must render every root of a repository once, as one build-all does.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { build } from '../../src/build/build.js';
import { workDir, write } from '../git-repos.js';
import { requireTool } from '../require-tool.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const EXAMPLES = join(REPO, 'examples', 'shards');
const kubectl = requireTool('kubectl');
const work = workDir('kts-shards-');

/** A repository of eleven roots to render. */
const top = join(work, 'repo');
const CM = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
write(top, {
  'base/kustomization.yaml': 'resources:\n- cm.yaml\n',
  'base/cm.yaml': CM('base'),
  ...Object.fromEntries(['dev', 'qa', 'stage', 'prod'].flatMap((env) => ['web', 'api'].map((app) => [`${app}/${env}/kustomization.yaml`, `resources:\n- ../../base\nnamePrefix: ${app}-${env}-\n`]))),
  'jobs/kustomization.yaml': 'resources:\n- ../base\nnameSuffix: -job\n',
  'tools/kustomization.yaml': 'resources:\n- cm.yaml\n',
  'tools/cm.yaml': CM('tools'),
});

/** A directory on the PATH whose `kustomize-ts` is this checkout's launcher, as the image's is the package's. */
const bin = join(work, 'bin');
mkdirSync(bin);
writeFileSync(join(bin, 'kustomize-ts'), `#!/bin/sh\nexec '${process.execPath}' '${join(REPO, 'bin', 'kustomize-ts.js')}' "$@"\n`);
chmodSync(join(bin, 'kustomize-ts'), 0o755);
const PATH = `${bin}:${process.env['PATH']}`;

/** The files under `dir`, relative to it, with their contents. */
function filesUnder(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) visit(p);
      else out.set(relative(dir, p), readFileSync(p, 'utf8'));
    }
  };
  visit(dir);
  return out;
}

/** What one build-all of the whole repository writes: what the shards together must write. */
function wholeRun(): Map<string, string> {
  const out = join(work, 'whole');
  execFileSync('kustomize-ts', ['build-all', top, '--output-dir', out], { env: { ...process.env, PATH } });
  const files = filesUnder(out);
  assert.equal(files.size, 11);
  return files;
}

/** The shards' outputs as one: each root must be in exactly one shard, and each shard must hold some. */
function together(shards: Map<string, string>[]): Map<string, string> {
  const all = new Map<string, string>();
  for (const shard of shards) {
    assert.ok(shard.size > 0 && shard.size < 11, `a shard of ${shard.size} roots`);
    for (const [file, text] of shard) {
      assert.ok(!all.has(file), `${file} in two shards`);
      all.set(file, text);
    }
  }
  return all;
}

/** Runs `script` with sh, `env` added to the environment; fails the test with its stderr when it fails. */
function sh(script: string, env: Record<string, string>, cwd = work): void {
  execFileSync('/bin/sh', ['-c', script], { cwd, env: { ...process.env, PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

interface Job {
  kind: string;
  spec: {
    completionMode: string;
    completions: number;
    parallelism: number;
    template: { spec: { containers: { name: string; args: string[]; env: { name: string; value: string }[] }[]; initContainers: { envFrom: { configMapRef: { name: string } }[] }[] } };
  };
}

describe('the Kubernetes Indexed Job of examples/shards/kubernetes', () => {
  for (const [overlay, shards] of [
    ['base', 4],
    ['eight-shards', 8],
  ] as const) {
    test(`${overlay}: built as kubectl builds it; its ${shards} pods render every root once`, { skip: kubectl.skip }, async () => {
      const dir = join(EXAMPLES, 'kubernetes', overlay);
      const { yaml, objects } = await build(dir, { reorder: 'legacy' });
      assert.equal(yaml, execFileSync(kubectl.path, ['kustomize', dir]).toString());
      const job = parse(yaml.split('\n---\n').find((doc) => doc.includes('kind: Job'))!) as Job;
      const configMap = objects.find((o) => o.kind === 'ConfigMap')!;
      assert.equal(job.spec.completionMode, 'Indexed');
      assert.equal(job.spec.completions, shards);
      assert.equal(job.spec.parallelism, shards);
      assert.equal(job.spec.template.spec.initContainers[0]!.envFrom[0]!.configMapRef.name, configMap.metadata.name, 'the generated ConfigMap, by its hashed name');
      const render = job.spec.template.spec.containers.find((c) => c.name === 'render')!;
      const env = Object.fromEntries(render.env.map((e) => [e.name, e.value]));
      assert.equal(env['SHARDS'], String(shards));
      // each pod, as the Job runs it: its index, the container's environment, the repository cloned to REPO_DIR
      const pods = Array.from({ length: shards }, (_, index) => {
        const out = join(work, `job-${overlay}-${index}`);
        sh(render.args[0]!, { ...env, JOB_COMPLETION_INDEX: String(index), REPO_DIR: top, OUT_DIR: out });
        return filesUnder(out);
      });
      assert.deepEqual(together(pods), wholeRun());
    });
  }
});

describe('the CI matrix of examples/ci/render-shards.yml', () => {
  test('its jobs, one per matrix entry, render every root once', () => {
    const workflow = parse(readFileSync(join(REPO, 'examples', 'ci', 'render-shards.yml'), 'utf8')) as {
      jobs: { render: { strategy: { matrix: { shard: number[] } }; steps: { name?: string; run?: string }[] } };
    };
    const { strategy, steps } = workflow.jobs.render;
    const step = steps.find((s) => s.run?.includes('build-all'))!;
    assert.deepEqual(strategy.matrix.shard, [1, 2, 3, 4]);
    const jobs = strategy.matrix.shard.map((shard) => {
      // what the runner does: the expression replaced, the script run in a checkout of its own
      sh(step.run!.replaceAll('${{ matrix.shard }}', String(shard)), {}, top);
      const rendered = filesUnder(join(top, 'rendered'));
      rmSync(join(top, 'rendered'), { recursive: true });
      return rendered;
    });
    assert.deepEqual(together(jobs), wholeRun());
  });
});
