#!/usr/bin/env node
// Why validation has its own checker (src/schema/check.ts) rather than ajv (issue 37 asked for a
// maintained validator library if one can meet the speed goal: the check at most 0.3x the build,
// at least 5,000 resources a second on one core). This compiles, with ajv 8, the embedded
// Kubernetes schemas of the kinds in the real-world trees' outputs and validates those outputs:
//   - per tree, as a CLI process does it (a fresh ajv, the tree's kinds compiled, then checked);
//   - all trees on one ajv, compiled once, checked three times (as a server would, warm).
// ajv is not a dependency: `npm i --no-save ajv@8` first.
//
//   npm run build && npm i --no-save ajv@8 && node bench/ajv-compare.mjs --real-world trees.tar.gz

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const archive = args.includes('--real-world') ? path.resolve(args[args.indexOf('--real-world') + 1]) : path.join(REPO, 'bench', 'real-world', 'trees.tar.gz');
const { default: Ajv } = await import('ajv').catch(() => {
  console.error('ajv is not installed: npm i --no-save ajv@8');
  process.exit(2);
});
const { KUBERNETES_V1_36 } = await import(path.join(REPO, 'dist/src/schema/kubernetes-v1.36.generated.js'));
const { build } = await import(path.join(REPO, 'dist/src/build/build.js'));

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ajv-compare-'));
try {
  const tar = spawnSync('tar', ['-xzf', archive, '-C', work], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`tar: ${tar.stderr}`);
  const { trees } = JSON.parse(fs.readFileSync(path.join(work, 'trees.json'), 'utf8'));
  const outputs = [];
  for (const tree of trees) {
    const result = await build(path.join(work, tree.project, tree.path)).catch(() => undefined);
    if (result) outputs.push(result.resources.map((r) => r.toJSON()));
  }
  const definitions = Object.fromEntries(Object.entries(KUBERNETES_V1_36.definitions).map(([name, text]) => [name, JSON.parse(text)]));
  const schemaOf = new Map(KUBERNETES_V1_36.types.map(([apiVersion, kind, name]) => [`${apiVersion} ${kind}`, name]));
  const newAjv = () => {
    // Kubernetes' x-kubernetes-* keywords are unknown to ajv; formats are left out (ajv's are not Kubernetes')
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ $id: 'k8s', components: { schemas: definitions } });
    return ajv;
  };
  const compile = (ajv, resources, into) => {
    for (const r of resources) {
      const key = `${r.apiVersion} ${r.kind}`;
      const name = schemaOf.get(key);
      if (name && !into.has(key)) into.set(key, ajv.getSchema(`k8s#/components/schemas/${name}`));
    }
  };
  const check = (resources, fns) => resources.forEach((r) => fns.get(`${r.apiVersion} ${r.kind}`)?.(r));
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

  const perTree = outputs.map((resources) => {
    const fns = new Map();
    const start = performance.now();
    compile(newAjv(), resources, fns);
    const compiled = performance.now();
    check(resources, fns);
    return { compile: compiled - start, check: performance.now() - compiled };
  });
  const all = outputs.flat();
  const shared = new Map();
  const start = performance.now();
  compile(newAjv(), all, shared);
  const compiled = performance.now() - start;
  const rates = [0, 1, 2].map(() => {
    const t = performance.now();
    check(all, shared);
    return all.length / ((performance.now() - t) / 1000);
  });
  console.log(`${outputs.length} trees, ${all.length} resources, ${shared.size} built-in kinds`);
  console.log(`| ajv 8, a fresh instance per tree | compile: median ${median(perTree.map((p) => p.compile)).toFixed(0)} ms, highest ${Math.max(...perTree.map((p) => p.compile)).toFixed(0)} ms | check: median ${median(perTree.map((p) => p.check)).toFixed(1)} ms |`);
  console.log(`| ajv 8, one instance, warm | compile of every kind once: ${compiled.toFixed(0)} ms | ${rates.map((r) => r.toFixed(0)).join(', ')} resources a second |`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
