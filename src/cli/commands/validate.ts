import { KustomizeError } from '../../errors.js';
import { VERSION } from '../../options.js';
import { REPORT_FORMATS, type ReportFormat, type RootReport } from '../../validate/report.js';
import { BUILD_OPTION_FLAGS, optionsFromFlags } from '../build-options.js';
import type { Command } from '../command.js';
import { interruptible } from '../interrupt.js';
import { readRootsRequest, ROOTS_FLAGS, threadsOf } from '../roots-request.js';
import { namedFromHere, passes, VALIDATION_FLAGS, validationFromFlags } from '../validation-flags.js';

/** `validate [DIR]`: builds DIR and checks its output against the schemas of its types. */
export const validateCommand: Command = {
  name: 'validate',
  summary: 'Build a kustomization and check its output against Kubernetes and CRD schemas',
  usage: 'validate [DIR] [flags]\n  validate --all [ROOT] [flags]',
  description: `Build the kustomization at DIR (default '.') as 'build' does and check every resource of
its output against its type's schema: Kubernetes' own (embedded, offline: --kubernetes-version),
the CRDs among the output and those its kustomizations name in 'crds:', and the schemas given
with --schema. Each error is reported at the source file, line and column that wrote the value
(a patch's line, a base's, a generator's literal), with the output resource and the JSON pointer
of the value in it. Lints kustomize passes over in silence (a patch target that selects nothing, ...)
are warnings.

With --all, every kustomization root under ROOT is validated, as build-all builds them
(--exclude, --jobs, --shard).

Formats: text (file:line:column: KIND/NAME: /pointer: message), json, sarif (SARIF 2.1.0,
for code scanning), junit. Exit status: 0 valid, 1 invalid (or a build failed), 2 a wrong
command line.`,
  examples: `# Check an overlay
  kustomize-ts validate overlays/prod

  # Every root of a repository, with the CRDs of the operators it uses, for code scanning
  kustomize-ts validate --all . --schema crds/ --format sarif > validate.sarif`,
  usageExit: 2,
  flags: [
    { name: 'all', type: 'bool', help: 'validate every kustomization root under ROOT (default .)' },
    { name: 'format', type: 'string', default: 'text', help: `how the report is printed: ${REPORT_FORMATS.join(', ')}` },
    ...VALIDATION_FLAGS,
    ...ROOTS_FLAGS.filter((f) => f.name !== 'format' && !BUILD_OPTION_FLAGS.some((b) => b.flag.name === f.name)),
    ...BUILD_OPTION_FLAGS.map((f) => f.flag),
  ],
  async run(args, io) {
    const { flags, positional } = args;
    const format = (flags.get('format') as string | undefined) ?? 'text';
    if (!(REPORT_FORMATS as readonly string[]).includes(format)) throw new KustomizeError('USAGE', `--format '${format}': expected ${REPORT_FORMATS.join(', ')}`);
    const { options: validation, failOn } = validationFromFlags(flags);
    let reports: RootReport[];
    if (flags.get('all') === true) {
      const request = readRootsRequest(args, io, REPORT_FORMATS);
      const { validateAll } = await import('../../build/build-all.js');
      reports = await interruptible(async (signal) => {
        const out: RootReport[] = [];
        for await (const r of validateAll(request.top, { ...request.options, ...validation, ...threadsOf(request, io), ...(request.exclude.length > 0 && { exclude: request.exclude }), ...(request.shard && { shard: request.shard }), signal })) {
          out.push(namedFromHere(r, request.top));
        }
        return out;
      });
    } else {
      if (positional.length > 1) throw new KustomizeError('USAGE', `specify one path to a kustomization directory; got ${positional.length}`);
      for (const name of ['exclude', 'jobs', 'shard']) if (flags.has(name)) throw new KustomizeError('USAGE', `--${name} goes with --all`);
      const dir = positional[0] ?? '.';
      const { validate } = await import('../../build/validate.js');
      const options = optionsFromFlags(flags, process.env, io.program);
      try {
        const { build: _build, ...report } = await interruptible((signal) => validate(dir, { ...options, ...validation, signal, warn: (w) => io.err(`${w.message}\n`) }));
        reports = [namedFromHere({ path: dir, ...report }, dir)];
      } catch (e) {
        // text says so as build does; the other formats are documents a tool reads: the failure is one of their results
        if (format === 'text' || !(e instanceof KustomizeError) || e.code === 'USAGE' || e.code === 'VERSION_UNSUPPORTED' || e.code === 'ABORTED') throw e;
        const { buildFailure } = await import('../../build/root-validation.js');
        reports = [namedFromHere({ path: dir, resources: 0, valid: 0, skipped: 0, errors: [], warnings: [], checked: [], failed: buildFailure('.', e) }, dir)];
      }
    }
    io.out(await printed(format as ReportFormat, reports));
    return passes(reports, failOn) ? 0 : 1;
  },
};

/** The reports in a format. */
async function printed(format: ReportFormat, reports: readonly RootReport[]): Promise<string> {
  const { jsonReport, junitReport, sarifReport, textReport } = await import('../../validate/report-formats.js');
  const printers: Readonly<Record<ReportFormat, (reports: readonly RootReport[]) => string>> = {
    text: textReport,
    json: jsonReport,
    sarif: (all) => sarifReport(all, { name: 'kustomize-ts', version: VERSION }),
    junit: junitReport,
  };
  return printers[format](reports);
}
