/**
 * The scenarios of test/edit/scenarios (kustomize's own `create`/`edit` tests as data, see its
 * README): reading one, and running it against a CLI entry. Kept apart from the test so that a
 * scenario can be run against any build of the CLI (`node scripts/edit-scenarios.mjs`).
 */
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { fileURLToPath } from 'node:url';

/** from dist/test/edit/ back to the repository's test/edit/scenarios */
export const SCENARIOS = fileURLToPath(new URL('../../../test/edit/scenarios/', import.meta.url));

export interface Scenario {
  name: string;
  /** the kustomize test it comes from: `add/addresource_test.go TestAddResourceHappyPath` (under kustomize/commands/edit, or create/) */
  from: string;
  /** command lines, run in order in the kustomization's directory; all but the last must succeed */
  run: string[][];
  /** the files of the directory before the first command */
  input: Record<string, string>;
  /** the kustomization file kustomize writes */
  expected?: string;
  /** what kustomize's error says (a part of it, as its test checks) */
  error?: string;
  /** the documented reason kustomize-ts writes another file (a key of the README's list) */
  diverges?: string;
  /** the file kustomize-ts writes, when it diverges */
  ours?: string;
  note?: string;
}

export type Outcome = { status: 'pass' } | { status: 'diverges'; reason: string } | { status: 'fail'; why: string };

/** The CLI entry a scenario runs: `main` of src/cli/main.ts, and a memory file system to run it on. */
export interface CliUnderTest {
  main(args: string[], io: { out(s: string): void; err(s: string): void; cwd: string; fs: unknown }): Promise<number>;
  memoryFs(files: Record<string, string>): { readFile(path: string): Uint8Array; exists(path: string): boolean };
}

export function readScenarios(dir = SCENARIOS): Scenario[] {
  return nodeFs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => readScenario(nodePath.join(dir, e.name)))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

function readScenario(dir: string): Scenario {
  const meta = JSON.parse(nodeFs.readFileSync(nodePath.join(dir, 'scenario.json'), 'utf8')) as Omit<Scenario, 'name' | 'input'>;
  const text = (name: string) => (nodeFs.existsSync(nodePath.join(dir, name)) ? nodeFs.readFileSync(nodePath.join(dir, name), 'utf8') : undefined);
  const inputDir = nodePath.join(dir, 'input');
  const error = text('expected-error.txt');
  return {
    ...meta,
    name: nodePath.basename(dir),
    input: nodeFs.existsSync(inputDir) ? readTree(inputDir) : {},
    expected: text('expected.yaml'),
    ours: text('ours.yaml'),
    ...(error !== undefined && { error: error.replace(/\n$/, '') }),
  };
}

/** A directory's files, by path relative to it. */
export function readTree(dir: string, into: Record<string, string> = {}, prefix = ''): Record<string, string> {
  for (const entry of nodeFs.readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix + entry.name;
    if (entry.isDirectory()) readTree(nodePath.join(dir, entry.name), into, `${rel}/`);
    else into[rel] = nodeFs.readFileSync(nodePath.join(dir, entry.name), 'utf8');
  }
  return into;
}

/**
 * Runs a scenario in a memory file system (its files under /app, the commands in /app) and
 * compares the kustomization file with kustomize's, or with ours where the scenario records a
 * documented divergence (which must still differ from kustomize's, or it is no divergence).
 */
export async function runScenario(s: Scenario, cli: CliUnderTest): Promise<Outcome> {
  const fs = cli.memoryFs(Object.fromEntries(Object.entries(s.input).map(([p, c]) => [`/app/${p}`, c])));
  const file = '/app/kustomization.yaml';
  const read = () => (fs.exists(file) ? new TextDecoder().decode(fs.readFile(file)) : undefined);
  for (const [i, args] of s.run.entries()) {
    let err = '';
    const before = read();
    const code = await cli.main(args, { out: () => {}, err: (t) => (err += t), cwd: '/app', fs });
    const last = i === s.run.length - 1;
    if (last && s.error !== undefined) {
      if (code === 0) return { status: 'fail', why: `${args.join(' ')} succeeded; kustomize fails with: ${s.error}` };
      if (!err.includes(s.error)) return { status: 'fail', why: `${args.join(' ')} failed with ${JSON.stringify(err)}; kustomize's error: ${s.error}` };
      if (read() !== before) return { status: 'fail', why: 'the failed command changed the file' };
      return { status: 'pass' };
    }
    if (code !== 0) return { status: 'fail', why: `${args.join(' ')} failed: ${err}` };
  }
  const written = read();
  if (written === s.expected) return s.diverges ? { status: 'fail', why: `no divergence left (${s.diverges}): the file is kustomize's` } : { status: 'pass' };
  if (s.diverges && written === s.ours) return { status: 'diverges', reason: s.diverges };
  return { status: 'fail', why: `wrote:\n${written}\nkustomize writes:\n${s.expected}${s.diverges ? `\nexpected ours (${s.diverges}):\n${s.ours}` : ''}` };
}
