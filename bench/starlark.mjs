#!/usr/bin/env node
// Benchmark: a Starlark KRM function that edits labels, run in-process over N resources.
//
//   npx tsc -p . && node bench/starlark.mjs [--sizes 1000,5000] [--runs 5]
//
// Prints a markdown table of the median time per run (conversion in, execution, conversion out).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const { runStarlarkFunction } = await import(join(REPO, 'dist', 'src', 'starlark', 'index.js'));

const args = process.argv.slice(2);
const flag = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const sizes = flag('--sizes', '1000,5000').split(',').map(Number);
const runs = Number(flag('--runs', '5'));

const SCRIPT = `
def set_labels(items, labels):
    for r in items:
        meta = r["metadata"]
        meta.setdefault("labels", {}).update(labels)
        tmpl = r.get("spec", {}).get("template")
        if tmpl:
            tmpl.setdefault("metadata", {}).setdefault("labels", {}).update(labels)

set_labels(ctx.resource_list["items"], ctx.resource_list["functionConfig"]["data"])
`;

function deployment(i) {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: `app-${i}`, namespace: 'prod', labels: { app: `app-${i}` } },
    spec: { replicas: 2, selector: { matchLabels: { app: `app-${i}` } }, template: { metadata: { labels: { app: `app-${i}` } }, spec: { containers: [{ name: 'main', image: `registry/app-${i}:1.0`, ports: [{ containerPort: 8080 }] }] } } },
  };
}

console.log('| resources | median | runs |\n| ---: | ---: | ---: |');
for (const n of sizes) {
  const times = [];
  for (let r = 0; r < runs; r++) {
    const items = Array.from({ length: n }, (_, i) => deployment(i));
    const t0 = performance.now();
    const out = runStarlarkFunction({ source: SCRIPT, filename: 'set-labels.star', resourceList: { items, functionConfig: { data: { team: 'blue', tier: 'web' } } } });
    times.push(performance.now() - t0);
    if (out.items.length !== n || out.items[n - 1].metadata.labels.team !== 'blue') throw new Error('wrong output');
  }
  times.sort((a, b) => a - b);
  console.log(`| ${n} | ${(times[Math.floor(times.length / 2)] / 1000).toFixed(3)} s | ${runs} |`);
}
