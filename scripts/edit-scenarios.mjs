// Runs test/edit/scenarios (kustomize's create/edit tests as data) against a build of the CLI and
// counts what passes, what diverges on purpose, and what fails. `node scripts/edit-scenarios.mjs
// [DIST] [--verbose]`: DIST is a build's dist/ directory (default: this checkout's), so that an
// older build can be measured with the scenarios of this one.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const dist = resolve(args.find((a) => !a.startsWith('--')) ?? 'dist');
const here = resolve('dist');
const { readScenarios, runScenario } = await import(pathToFileURL(`${here}/test/edit/scenario-corpus.js`).href);
const { main } = await import(pathToFileURL(`${dist}/src/cli/main.js`).href);
const { MemoryFileSystem } = await import(pathToFileURL(`${dist}/src/fs/memory.js`).href);
const cli = { main, memoryFs: (files) => MemoryFileSystem.from(files) };
const counts = { pass: 0, diverges: 0, fail: 0 };
const reasons = {};
for (const s of readScenarios()) {
  const outcome = await runScenario(s, cli).catch((e) => ({ status: 'fail', why: String(e) }));
  counts[outcome.status]++;
  if (outcome.status === 'diverges') reasons[outcome.reason] = (reasons[outcome.reason] ?? 0) + 1;
  if (outcome.status === 'fail' || verbose) console.log(`${outcome.status}: ${s.name} (${s.from})${outcome.status === 'fail' && verbose ? `\n${outcome.why}` : ''}`);
}
const total = counts.pass + counts.diverges + counts.fail;
console.log(`${total} scenarios: ${counts.pass} as kustomize writes them, ${counts.diverges} diverging on purpose (${Object.entries(reasons).map(([r, n]) => `${r}: ${n}`).join(', ') || 'none'}), ${counts.fail} failing`);
