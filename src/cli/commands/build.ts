import { KustomizeError, type Warning } from '../../errors.js';
import { namedFromHere, passes, VALIDATION_FLAGS, validationFromFlags } from '../validation-flags.js';
import { build, type BuildResult } from '../../build/build.js';
import { BUILD_OPTION_FLAGS, optionsFromFlags } from '../build-options.js';
import { interruptible } from '../interrupt.js';
import type { Command } from '../command.js';
import { writeBuildOutput, writeTextFile } from '../write-output.js';

/** `build [DIR]`: prints (or writes) what the kustomization at DIR describes. */
export const buildCommand: Command = {
  name: 'build',
  summary: 'Build a kustomization target from a directory or URL',
  usage: 'build DIR [flags]',
  description: `Build a set of KRM resources using a 'kustomization.yaml' file.
The DIR argument must be a path to a directory containing
'kustomization.yaml', or a git repository URL with a path suffix
specifying same with respect to the repository root.
If DIR is omitted, '.' is assumed.`,
  examples: `# Build the current working directory
  kustomize-ts build

  # Build some shared configuration directory
  kustomize-ts build /home/config/production

  # Build from github
  kustomize-ts build https://github.com/kubernetes-sigs/kustomize.git/examples/helloWorld?ref=v1.0.6`,
  flags: [
    { name: 'output', short: 'o', type: 'string', help: 'If specified, write output to this path (a file, or an existing directory for one file per resource).' },
    {
      name: 'inputs',
      type: 'string',
      help: "write what the build read to this file ('-': stdout, with -o): JSON, the local files relative to DIR, the remote references with what each resolved to, and whether they are complete (false when a plugin ran that may read files of its own)",
    },
    { name: 'validate', type: 'bool', help: "check the output as 'validate' does: print it only when it is valid, else the errors on stderr (exit 1)" },
    ...VALIDATION_FLAGS,
    ...BUILD_OPTION_FLAGS.map((f) => f.flag),
  ],
  async run({ flags, positional }, io) {
    if (positional.length > 1) throw new KustomizeError('USAGE', `specify one path to a kustomization directory; got ${positional.length}`);
    const options = optionsFromFlags(flags, process.env, io.program);
    const output = flags.get('output') as string | undefined;
    const inputs = flags.get('inputs') as string | undefined;
    if (inputs === '-' && output === undefined) throw new KustomizeError('USAGE', '--inputs - writes to stdout, where the output goes: give -o too');
    const dir = positional[0] ?? '.';
    const warn = (w: Warning) => io.err(`${w.message}\n`);
    let result: BuildResult;
    if (flags.get('validate') === true) {
      const { options: validation, failOn } = validationFromFlags(flags);
      const { validate } = await import('../../build/validate.js');
      const { build: built, ...report } = await interruptible((signal) => validate(dir, { ...options, ...validation, signal, warn }));
      const reports = [namedFromHere({ path: dir, ...report }, dir)];
      // an invalid output is not printed: the errors are
      if (!passes(reports, failOn)) {
        const { textReport } = await import('../../validate/report-formats.js');
        io.err(textReport(reports));
        return 1;
      }
      result = built;
    } else {
      for (const f of VALIDATION_FLAGS) if (flags.has(f.name)) throw new KustomizeError('USAGE', `--${f.name} goes with --validate`);
      result = await interruptible((signal) => build(dir, { ...options, signal, warn }));
    }
    if (output === undefined) io.out(result.yaml);
    else writeBuildOutput(output, result);
    if (inputs !== undefined) {
      const text = `${JSON.stringify({ inputs: result.inputs, remote: result.remote, complete: result.inputsComplete }, undefined, 2)}\n`;
      if (inputs === '-') io.out(text);
      else writeTextFile(inputs, text);
    }
    return 0;
  },
};
