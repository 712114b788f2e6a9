import { KustomizeError } from '../../errors.js';
import type { Command } from '../command.js';
import { interruptible } from '../interrupt.js';
import { readRootsRequest, ROOTS_FLAGS, threadsOf } from '../roots-request.js';

/** `affected [ROOT] --since REV`: the roots whose output a change may have changed. */
export const affectedCommand: Command = {
  name: 'affected',
  summary: 'List the kustomization roots whose output may differ between two revisions',
  usage: 'affected [ROOT] --since REV [--until REV] [flags]',
  description: `List the kustomization roots under ROOT (default '.', in a git work tree) whose
output may differ between revision --since and revision --until (default: the work tree, with
its uncommitted and untracked files), one path per line, relative to ROOT.

Each root is built at --until, noting every question its build asks of the files: what a file
holds, whether a path exists, what a directory lists. A root is listed when --since answers one
of them differently, when only one of the revisions has it, or when its build runs a plugin
that reads files of its own (exec, container, legacy) and anything changed. A build is decided
by the answers it gets, so no root whose output changed is missed; a root may be listed whose
output did not change after all. Files git ignores are read from the disk at both revisions.

With --format ndjson, one JSON object per listed root: {"path", "reason", "files"}, reason
being added, removed, inputs (files: the paths that read differently) or unknown.
Exit status: 0 when the roots were listed (none or some), 1 when git failed,
2 when the command line is wrong, ROOT is not in a git work tree or a revision is unknown.`,
  examples: `# The overlays a pull request touches
  kustomize-ts affected . --since origin/main

  # Between two commits, with the files that changed for each root
  kustomize-ts affected clusters --since v1.4.0 --until v1.5.0 --format ndjson

  # Build only what changed
  kustomize-ts affected . --since origin/main | xargs -r -n1 kustomize-ts build`,
  usageExit: 2,
  flags: [
    { name: 'since', type: 'string', help: 'the earlier revision (required): a commit, branch or tag' },
    { name: 'until', type: 'string', help: 'the later revision (default: the work tree)' },
    ...ROOTS_FLAGS,
  ],
  async run(args, io) {
    const request = readRootsRequest(args, io);
    const since = args.flags.get('since') as string | undefined;
    const until = args.flags.get('until') as string | undefined;
    if (since === undefined) throw new KustomizeError('USAGE', '--since is required: the revision to compare with');
    // loaded only by this command: git and worker threads are nothing any other command needs
    const { affected } = await import('../../build/affected.js');
    let count = 0;
    await interruptible(async (signal) => {
      const options = { ...request.options, ...threadsOf(request, io), since, ...(until !== undefined && { until }), exclude: request.exclude, signal };
      for await (const root of affected(request.top, request.shard ? { ...options, shard: request.shard } : options)) {
        count++;
        io.out(request.format === 'ndjson' ? `${JSON.stringify(root)}\n` : `${root.path}\n`);
      }
    });
    if (request.format === 'text') io.err(`${count} root${count === 1 ? '' : 's'} affected\n`);
    return 0;
  },
};
