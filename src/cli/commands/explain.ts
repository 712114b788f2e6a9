import { build } from '../../build/build.js';
import { KustomizeError } from '../../errors.js';
import { BUILD_OPTION_FLAGS, optionsFromFlags } from '../build-options.js';
import type { Command } from '../command.js';
import { fieldExplanation, jsonExplanation, selected, textExplanation, type Explained } from '../explain-report.js';
import { interruptible } from '../interrupt.js';
import { outputDocuments } from '../../output/provenance-lines.js';

const FORMATS = ['text', 'json'];
const COLORS = ['auto', 'always', 'never'];

/** `explain [DIR]`: where each value of the output came from. */
export const explainCommand: Command = {
  name: 'explain',
  summary: 'Show where each value of the output came from',
  usage: 'explain [DIR] [--resource KIND/NAME] [--field PATH] [flags]',
  description: `Build the kustomization at DIR (default '.') as 'build' does and show, for every value
of the output, the step that last wrote it (a kustomization field such as namePrefix or
patches[2], a plugin's transformers[0] entry, or 'resource' for a value read from a resource
file), the file, line and column of the text the value came from, and the values before it.

Formats: text (the default) prints the output with a comment on each line naming who wrote its
value, like git blame (dim on a terminal); with --field, each field with its history. json:
{"resources": [{"apiVersion", "kind", "namespace", "name", "fields": [{"path", "value",
"by": {"file", "line", "column", "step"}, "history": [{"value", "by"}]}]}]}. Paths are keys
joined with '.', list items as [N], a key holding '.', '[', ']' or '"' as ["key"]; files are
relative to DIR. A tree that fails to build fails here as in 'build'.`,
  examples: `# The output, each line with who wrote it
  kustomize-ts explain overlays/prod

  # Where a Deployment's image came from, and what it was before
  kustomize-ts explain overlays/prod --resource Deployment/web --field spec.template.spec.containers[0].image`,
  flags: [
    { name: 'resource', type: 'string', help: 'only this resource: KIND/NAME or KIND/NAMESPACE/NAME' },
    { name: 'field', type: 'string', help: 'only this field and those below it (a path as explain prints it)' },
    { name: 'format', type: 'string', default: 'text', help: `how it is printed: ${FORMATS.join(' or ')}` },
    { name: 'color', type: 'string', default: 'auto', help: `color the text format: ${COLORS.join(', ')} (auto: when stdout is a terminal)` },
    ...BUILD_OPTION_FLAGS.map((f) => f.flag),
  ],
  async run({ flags, positional }, io) {
    if (positional.length > 1) throw new KustomizeError('USAGE', `specify one path to a kustomization directory; got ${positional.length}`);
    const format = (flags.get('format') as string | undefined) ?? 'text';
    if (!FORMATS.includes(format)) throw new KustomizeError('USAGE', `--format '${format}': expected ${FORMATS.join(' or ')}`);
    const color = (flags.get('color') as string | undefined) ?? 'auto';
    if (!COLORS.includes(color)) throw new KustomizeError('USAGE', `--color '${color}': expected ${COLORS.join(', ')}`);
    const options = optionsFromFlags(flags, process.env, io.program);
    const result = await interruptible((signal) => build(positional[0] ?? '.', { ...options, signal, provenance: true, warn: (w) => io.err(`${w.message}\n`) }));
    const texts = outputDocuments(result.yaml);
    const all: Explained[] = result.provenance!.map((resource, i) => ({ resource, yaml: texts[i]! }));
    const field = flags.get('field') as string | undefined;
    const chosen = selected(all, flags.get('resource') as string | undefined, field);
    const { isatty } = await import('node:tty');
    const colored = color === 'always' || (color === 'auto' && isatty(1) && !process.env['NO_COLOR']);
    io.out(format === 'json' ? jsonExplanation(chosen) : field !== undefined ? fieldExplanation(chosen, colored) : textExplanation(chosen, colored));
    return 0;
  },
};
