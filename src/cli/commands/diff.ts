import { KustomizeError } from '../../errors.js';
import type { Command } from '../command.js';
import { interruptible } from '../interrupt.js';
import { readRootsRequest, ROOTS_FLAGS, threadsOf } from '../roots-request.js';

const FORMATS = ['text', 'markdown', 'json'] as const;
const COLORS = ['auto', 'always', 'never'] as const;

/** `diff [ROOT] --base REV`: how the rendered manifests differ between two revisions. */
export const diffCommand: Command = {
  name: 'diff',
  summary: 'Show how the rendered manifests differ between two revisions',
  usage: 'diff [ROOT] --base REV [--head REV] [flags]',
  description: `Show how the output of the kustomization roots under ROOT (default '.', in a git
work tree) differs between revision --base and revision --head (default: the work tree, with its
uncommitted and untracked files). Both revisions are read from git's objects, with no checkout;
only the roots whose files may differ are built (see 'affected'), at both revisions, in one
process. Resources are compared by id (apiVersion, kind, namespace, name): one that only moved
in the output is no change. The values of a Secret's data and stringData are not shown, only
whether each key changed, unless --show-secrets.

Formats: text (git diff's look, colored on a terminal), markdown (a pull-request comment: a
summary table, then a collapsible section per root, kept under GitHub's size limit), json
({"base", "head", "roots": [{"path", "status", "resources": [{"apiVersion", "kind",
"namespace", "name", "change", "diff"}], "error"}]}).
Exit status, as diff's: 0 when nothing differs, 1 when something does, 2 on an error.`,
  examples: `# What this branch does to the manifests
  kustomize-ts diff . --base origin/main

  # A pull-request comment
  kustomize-ts diff . --base origin/main --format markdown > diff.md

  # Between two tags, as JSON
  kustomize-ts diff clusters --base v1.4.0 --head v1.5.0 --format json`,
  usageExit: 2,
  errorExit: 2,
  flags: [
    { name: 'base', type: 'string', help: 'the revision to compare with (required): a commit, branch or tag' },
    { name: 'head', type: 'string', help: 'the revision compared (default: the work tree)' },
    { name: 'show-secrets', type: 'bool', help: "show the values of Secrets' data and stringData" },
    { name: 'color', type: 'string', default: 'auto', help: `color the text format: ${COLORS.join(', ')} (auto: when stdout is a terminal)` },
    ...ROOTS_FLAGS.map((f) => (f.name === 'format' ? { ...f, help: `how the differences are printed: ${FORMATS.join(', ')}` } : f)),
  ],
  async run(args, io) {
    const request = readRootsRequest(args, io, FORMATS);
    const color = (args.flags.get('color') as string | undefined) ?? 'auto';
    if (!(COLORS as readonly string[]).includes(color)) throw new KustomizeError('USAGE', `--color '${color}': expected ${COLORS.join(', ')}`);
    const base = args.flags.get('base') as string | undefined;
    const head = args.flags.get('head') as string | undefined;
    if (base === undefined) throw new KustomizeError('USAGE', '--base is required: the revision to compare with');
    const { diffRevisions } = await import('../../build/diff.js');
    const report = await import('../diff-report.js');
    const diff = await interruptible((signal) =>
      diffRevisions(request.top, {
        ...request.options,
        ...threadsOf(request, io),
        base,
        ...(head !== undefined && { head }),
        exclude: request.exclude,
        ...(request.shard && { shard: request.shard }),
        showSecrets: args.flags.get('show-secrets') === true,
        signal,
      }),
    );
    if (diff.base === diff.head) io.err(`--base and --head are the same commit (${diff.base.slice(0, 12)}): no difference\n`);
    const { isatty } = await import('node:tty');
    const colored = color === 'always' || (color === 'auto' && isatty(1) && !process.env['NO_COLOR']);
    io.out(request.format === 'json' ? report.jsonReport(diff) : request.format === 'markdown' ? report.markdownReport(diff) : report.textReport(diff, colored));
    return diff.roots.length > 0 ? 1 : 0;
  },
};
