import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RootResult } from '../../build/build-all.js';
import type { CliIO, Command } from '../command.js';
import { interruptible } from '../interrupt.js';
import { readRootsRequest, ROOTS_FLAGS, threadsOf } from '../roots-request.js';
import { writeTextFile } from '../write-output.js';

/** The file each root's output is written to under `--output-dir`, in the root's own directory there. */
const OUTPUT_FILE = 'manifests.yaml';

/** `build-all [ROOT]`: builds every kustomization root under ROOT, in one process. */
export const buildAllCommand: Command = {
  name: 'build-all',
  summary: 'Build every kustomization root under a directory, in one process',
  usage: 'build-all [ROOT] [flags]',
  description: `Build every kustomization root under ROOT (default '.'): every directory holding a
kustomization file whose kind is not Component, .git and node_modules left out. Each root
builds as 'kustomize-ts build ROOT/<root>' would with the same flags, in one process: the files
the roots share are read and parsed once per worker thread.

Output: with --format ndjson one JSON object per root and line, in path order; with
--output-dir DIR each root's output in DIR/<root>/${OUTPUT_FILE}; otherwise (text) a line per
failed root and the totals on stderr, with a progress bar when stderr is a terminal.
Exit status: 0 when every root built, 1 when a root failed (the others still built), 2 when
the command line is wrong.`,
  examples: `# Check every overlay of a repository
  kustomize-ts build-all .

  # Render them for another tool, a JSON line each
  kustomize-ts build-all clusters --format ndjson > rendered.ndjson

  # The second of four CI jobs
  kustomize-ts build-all . --shard 2/4 --output-dir rendered`,
  usageExit: 2,
  flags: [
    ...ROOTS_FLAGS,
    { name: 'output-dir', type: 'string', help: `write each root's output to DIR/<root>/${OUTPUT_FILE} (created; a failed root's old output is removed)` },
  ],
  async run(args, io) {
    const request = readRootsRequest(args, io);
    const outputDir = args.flags.get('output-dir') as string | undefined;
    const into = outputDir === undefined ? undefined : resolve(outputDir);
    // loaded only by this command: worker threads are nothing any other command needs
    const { buildAll } = await import('../../build/build-all.js');
    const { findRoots, shardOf } = await import('../../build/roots.js');
    const { DiskFileSystem } = await import('../../fs/disk.js');
    const roots = findRoots(new DiskFileSystem(), request.top, request.exclude);
    const mine = request.shard ? shardOf(roots, request.shard) : roots;
    const progress = request.format === 'text' ? await Progress.onStderr(io, mine.length) : undefined;
    let failed = 0;
    await interruptible(async (signal) => {
      const results = buildAll(request.top, { ...request.options, ...threadsOf(request, io), roots: mine, signal });
      for await (const r of results) {
        if (!r.ok) failed++;
        if (into !== undefined) writeRootOutput(into, r);
        if (request.format === 'ndjson') io.out(`${JSON.stringify(r)}\n`);
        else progress!.done(r, failed);
      }
    });
    progress?.finish(failed);
    return failed > 0 ? 1 : 0;
  },
};

/**
 * `--output-dir`: a root's output to DIR/<root>/manifests.yaml, through a temporary file renamed
 * into place; a root that failed leaves no file there (one from an earlier run is removed).
 */
function writeRootOutput(dir: string, r: RootResult): void {
  const file = join(dir, r.path, OUTPUT_FILE);
  if (r.ok) writeTextFile(file, r.yaml);
  else rmSync(file, { force: true });
}

/** The text format's report on stderr: each failed root as it comes, a progress bar on a terminal, the totals. */
class Progress {
  private count = 0;
  private readonly started = performance.now();

  private constructor(
    private readonly io: CliIO,
    private readonly total: number,
    private readonly terminal: boolean,
  ) {}

  static async onStderr(io: CliIO, total: number): Promise<Progress> {
    const { isatty } = await import('node:tty');
    return new Progress(io, total, io.terminal ?? isatty(2));
  }

  done(r: RootResult, failed: number): void {
    this.count++;
    if (this.terminal) this.io.err('\r\x1b[K');
    if (!r.ok) this.io.err(`${r.path}: Error: ${r.error.message}\n`);
    if (this.terminal) this.io.err(this.bar(failed, r.path));
  }

  finish(failed: number): void {
    if (this.terminal) this.io.err('\r\x1b[K');
    const seconds = ((performance.now() - this.started) / 1000).toFixed(1);
    this.io.err(`built ${this.total - failed} of ${this.total} roots${failed ? `, ${failed} failed` : ''} in ${seconds} s\n`);
  }

  private bar(failed: number, current: string): string {
    const width = 30;
    const filled = this.total === 0 ? width : Math.round((this.count / this.total) * width);
    return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.count}/${this.total}${failed ? `, ${failed} failed` : ''} ${current}`;
  }
}
