import { resolve } from 'node:path';
import { parseShard, type Shard } from '../build/roots.js';
import { KustomizeError } from '../errors.js';
import { BUILD_OPTION_FLAGS, optionsFromFlags } from './build-options.js';
import type { CliIO } from './command.js';
import type { FlagSpec, ParsedArgs } from './flags.js';

/** How the commands over many roots (`build-all`, `affected`) print their results. */
const FORMATS: readonly string[] = ['text', 'ndjson'];

/** The flags of the commands over many roots: which roots, how many threads, the format, and the build flags. */
export const ROOTS_FLAGS: readonly FlagSpec[] = [
  {
    name: 'exclude',
    type: 'list',
    help: "a directory not to search (repeatable): a name anywhere ('test', '*-old') or a path from ROOT ('apps/legacy', '**/staging')",
  },
  { name: 'jobs', short: 'j', type: 'string', help: 'worker threads building at the same time (default: the number of CPUs)' },
  { name: 'format', type: 'string', default: 'text', help: `how results are printed: ${FORMATS.join(' or ')}` },
  { name: 'shard', type: 'string', help: 'only the I-th of N parts of the roots (I/N, 1 <= I <= N): runs of consecutive roots in path order, balanced by count' },
  ...BUILD_OPTION_FLAGS.map((f) => f.flag),
];

/** A command line over many roots, checked before anything is built or written. */
interface RootsRequest {
  /** ROOT, absolute */
  top: string;
  exclude: string[];
  jobs: number | undefined;
  /** one of the formats the command takes */
  format: string;
  shard: Shard | undefined;
  options: ReturnType<typeof optionsFromFlags>;
}

export function readRootsRequest({ flags, positional }: ParsedArgs, io: CliIO, formats = FORMATS): RootsRequest {
  if (positional.length > 1) throw new KustomizeError('USAGE', `specify one directory to search; got ${positional.length}`);
  const jobsText = flags.get('jobs') as string | undefined;
  const jobs = jobsText === undefined ? undefined : Number(jobsText);
  if (jobs !== undefined && !(Number.isInteger(jobs) && jobs >= 1)) throw new KustomizeError('USAGE', `--jobs '${jobsText}': expected a whole number of at least 1`);
  const format = (flags.get('format') as string | undefined) ?? 'text';
  if (!formats.includes(format)) throw new KustomizeError('USAGE', `--format '${format}': expected ${formats.join(', ')}`);
  const shardText = flags.get('shard') as string | undefined;
  return {
    top: resolve(positional[0] ?? '.'),
    exclude: (flags.get('exclude') as string[] | undefined) ?? [],
    jobs,
    format,
    shard: shardText === undefined ? undefined : parseShard(shardText),
    options: optionsFromFlags(flags, process.env, io.program),
  };
}

/** The threads a command over many roots works in: worker threads run the CLI's launcher; without one (the CLI called in-process) every root is worked on in this thread. */
export function threadsOf(request: RootsRequest, io: CliIO): { jobs?: number; workerScript?: string } {
  return io.launcher ? { ...(request.jobs !== undefined && { jobs: request.jobs }), workerScript: io.launcher } : { jobs: 1 };
}
