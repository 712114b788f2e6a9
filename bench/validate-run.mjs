#!/usr/bin/env node
// What validating costs against the build it checks, in a process of its own (no other work has
// warmed the JIT up): builds DIR 40 times with the library (no cache), then checks the last
// build's output against the schemas (Kubernetes', the output's CRDs, its crds: files) 40 times,
// and prints, as JSON, the resources, each build's and each check's time in ms, how long reading
// the Kubernetes schemas took the first time, and the errors the check found.
//
//   node bench/validate-run.mjs DIR
//
// The check is what `validate` adds to a build whose output is valid: a build with problems is
// built once more to place them (as `explain` builds), which this does not time.
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = process.argv[2];
const dist = (file) => import(pathToFileURL(path.join(REPO, 'dist', 'src', file)).href);
const { recordedBuild } = await dist('build/build.js');
const { givenSchemas } = await dist('build/validate.js');
const { checkResources } = await dist('validate/check-resources.js');
const { customSchemasOf } = await dist('schema/custom-schemas.js');

/** enough for V8 to have optimised what a build and a check run: the report takes runs 31-40 */
const RUNS = 40;
const options = { reorder: 'legacy', warn: () => {} };
const builds = [];
let built;
for (let i = 0; i < RUNS; i++) {
  const t0 = process.hrtime.bigint();
  built = await recordedBuild(dir, options, 'validate-run');
  builds.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
const t0 = process.hrtime.bigint();
const given = await givenSchemas({});
const schemaLoad = Number(process.hrtime.bigint() - t0) / 1e6;
const objects = built.resources.map((r) => r.view);
const checks = [];
let errors = 0;
for (let i = 0; i < RUNS; i++) {
  const t1 = process.hrtime.bigint();
  // what validate does between the build and its report: the crds: files read, every object checked
  const set = given.with(built.crds.flatMap((c) => customSchemasOf(c.text, path.relative(built.buildDir, c.file))));
  const found = checkResources(objects, set, { strict: false, ignoreMissingSchemas: true });
  checks.push(Number(process.hrtime.bigint() - t1) / 1e6);
  errors = found.reduce((n, c) => n + c.problems.length, 0);
}
console.log(JSON.stringify({ resources: objects.length, builds, checks, schemaLoad, errors }));
