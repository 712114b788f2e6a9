#!/usr/bin/env node
// One warm measurement, in a process of its own so that no other build has warmed the JIT up:
// builds DIR 40 times with the library and prints, as JSON, the resources, each build's time in
// ms, and the SHA-256 of the last build's YAML.
//
//   node bench/warm-run.mjs DIR plain|unchanged|edited|explain [FILE]
//   node bench/warm-run.mjs DIR find-base
//
// plain: no cache. unchanged: one BuildCache, nothing changed. edited: one BuildCache, and a
// comment appended to FILE (default: DIR's kustomization file) before each build, so each build
// runs; the file is put back as it was. find-base prints, as JSON, the kustomization file of the
// first base a build of DIR reads (components are no bases; null when it has none), for an edit
// in a base. explain: no cache, each build recording who wrote each value (`provenance`, as
// `kustomize-ts explain` builds).
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [dir, mode, editedFile] = process.argv.slice(2);
const dist = (file) => import(pathToFileURL(path.join(REPO, 'dist', 'src', file)).href);
const { build, BuildCache } = await dist('index.js');
const { KUSTOMIZATION_FILE_NAMES } = await dist('load/entry.js');
const options = { reorder: 'legacy', warn: () => {}, ...(mode === 'explain' ? { provenance: true } : mode !== 'plain' && { cache: new BuildCache() }) };
const isKustomizationFile = (f) => KUSTOMIZATION_FILE_NAMES.includes(path.basename(f));
if (mode === 'find-base') {
  const { DiskFileSystem } = await dist('node.js');
  const reads = [];
  class Reads extends DiskFileSystem {
    readFile(p) {
      reads.push(p);
      return super.readFile(p);
    }
  }
  await build(path.resolve(dir), { ...options, fs: new Reads() });
  const top = fs.realpathSync(dir);
  const isBase = (f) => isKustomizationFile(f) && path.dirname(f) !== top && !/^kind:\s*Component\s*$/m.test(fs.readFileSync(f, 'utf8'));
  console.log(JSON.stringify(reads.find(isBase) ?? null));
  process.exit(0);
}
const file = editedFile ?? KUSTOMIZATION_FILE_NAMES.map((name) => path.join(dir, name)).find((f) => fs.existsSync(f));
const original = fs.readFileSync(file, 'utf8');
/** enough for V8 to have optimised what a build runs: the report shows builds 2-12 and 31-40 */
const BUILDS = 40;
const times = [];
let result;
try {
  for (let i = 0; i < BUILDS; i++) {
    if (mode === 'edited') fs.writeFileSync(file, `${original}\n# edit ${i}\n`);
    const t0 = process.hrtime.bigint();
    result = await build(dir, options);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
} finally {
  if (mode === 'edited') fs.writeFileSync(file, original);
}
const sha256 = createHash('sha256').update(result.yaml).digest('hex');
console.log(JSON.stringify({ resources: result.resources.length, times, sha256 }));
