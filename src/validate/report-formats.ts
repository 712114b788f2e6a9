/**
 * The printed forms of validation reports: text for people (`file:line:column: KIND/NAME:
 * /pointer: message`), JSON in a fixed shape, SARIF 2.1.0 for code scanning, JUnit XML for CI
 * test reports. A report of several roots (`validate --all`) names each root.
 */
import type { RootReport, ValidationIssue, ValidationWarning } from './report.js';

/** What a tool run says of itself in SARIF. */
interface ToolInfo {
  name: string;
  version: string;
}

function where(i: ValidationIssue): string {
  if (i.file === '') return '';
  return i.line > 0 ? `${i.file}:${i.line}:${i.column}: ` : `${i.file}: `;
}

function resourceName(i: ValidationIssue): string {
  return i.kind === '' ? '' : `${i.kind}/${i.name}: `;
}

/** The totals of reports, as one. */
function totals(reports: readonly RootReport[]): { resources: number; valid: number; skipped: number; errors: number; warnings: number; failedRoots: number } {
  let resources = 0;
  let valid = 0;
  let skipped = 0;
  let errors = 0;
  let warnings = 0;
  let failedRoots = 0;
  for (const r of reports) {
    resources += r.resources;
    valid += r.valid;
    skipped += r.skipped;
    errors += r.errors.length + (r.failed ? 1 : 0);
    warnings += r.warnings.length;
    if (r.failed) failedRoots++;
  }
  return { resources, valid, skipped, errors, warnings, failedRoots };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Text: an error a line, then the warnings (`warning:` after the place), then a summary line. */
export function textReport(reports: readonly RootReport[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    if (r.failed) lines.push(`${where(r.failed)}${r.failed.message}`);
    for (const e of r.errors) lines.push(`${where(e)}${resourceName(e)}${e.pointer === '' ? '' : `${e.pointer}: `}${e.message}`);
    for (const w of r.warnings) lines.push(`${where(w)}warning: ${resourceName(w)}${w.message} [${w.code}]`);
  }
  const t = totals(reports);
  const roots = reports.length > 1 ? `${plural(reports.length, 'root')}${t.failedRoots > 0 ? ` (${t.failedRoots} failed to build)` : ''}, ` : '';
  lines.push(`${roots}${plural(t.resources, 'resource')}: ${t.valid} valid, ${t.skipped} skipped; ${plural(t.errors, 'error')}, ${plural(t.warnings, 'warning')}`);
  return `${lines.join('\n')}\n`;
}

/** The issue as JSON prints it: the fixed fields, in a fixed order. */
function issueJson(i: ValidationIssue): ValidationIssue {
  return { apiVersion: i.apiVersion, kind: i.kind, namespace: i.namespace, name: i.name, pointer: i.pointer, message: i.message, file: i.file, line: i.line, column: i.column, step: i.step };
}

function warningJson(w: ValidationWarning): ValidationWarning {
  return { ...issueJson(w), code: w.code };
}

/**
 * JSON: `{"resources", "valid", "skipped", "errors": [{"apiVersion", "kind", "namespace", "name",
 * "pointer", "message", "file", "line", "column", "step"}], "warnings": [{…, "code"}]}`; for
 * several roots the same totals with each root's report under `roots` (`path` first).
 */
export function jsonReport(reports: readonly RootReport[]): string {
  const one = (r: RootReport) => ({
    resources: r.resources,
    valid: r.valid,
    skipped: r.skipped,
    errors: [...(r.failed ? [r.failed] : []), ...r.errors].map(issueJson),
    warnings: r.warnings.map(warningJson),
  });
  if (reports.length === 1) return `${JSON.stringify(one(reports[0]!), undefined, 2)}\n`;
  const all = reports.map(one);
  return `${JSON.stringify(
    {
      resources: all.reduce((n, r) => n + r.resources, 0),
      valid: all.reduce((n, r) => n + r.valid, 0),
      skipped: all.reduce((n, r) => n + r.skipped, 0),
      errors: all.flatMap((r) => r.errors),
      warnings: all.flatMap((r) => r.warnings),
      roots: reports.map((r, i) => ({ path: r.path, ...all[i] })),
    },
    undefined,
    2,
  )}\n`;
}

/** The rules SARIF results name: schema errors, builds that failed, and each notice. */
const RULES: readonly { id: string; text: string }[] = [
  { id: 'schema', text: "A value of the rendered output that its type's schema refuses" },
  { id: 'build', text: 'The kustomization does not build' },
  { id: 'PATCH_TARGET_UNMATCHED', text: 'A patch whose target selects no resource' },
  { id: 'REPLACEMENT_TARGET_UNMATCHED', text: 'A replacement target that selects no resource' },
  { id: 'SELECTOR_LABEL_CHANGED', text: 'A label step that rewrites an immutable workload selector' },
  { id: 'LIST_REPLACED', text: "A strategic-merge patch that replaced a custom resource's list its CRD merges by keys" },
];

/** SARIF 2.1.0: each problem located at its source, the rendered resource as a related (logical) location. */
export function sarifReport(reports: readonly RootReport[], tool: ToolInfo): string {
  const result = (i: ValidationIssue, ruleId: string, level: 'error' | 'warning') => {
    const resource = i.kind === '' ? undefined : [i.apiVersion, i.kind, i.namespace, i.name].filter((p) => p !== '').join('/');
    return {
      ruleId,
      level,
      message: { text: `${resourceName(i)}${i.pointer === '' ? '' : `${i.pointer}: `}${i.message}` },
      locations:
        i.file === ''
          ? []
          : [{ physicalLocation: { artifactLocation: { uri: encodeURI(i.file), ...(!/^https?:/.test(i.file) && { uriBaseId: '%SRCROOT%' }) }, ...(i.line > 0 && { region: { startLine: i.line, startColumn: Math.max(i.column, 1) } }) } }],
      ...(resource && {
        relatedLocations: [{ id: 1, message: { text: `the rendered ${i.kind} ${i.namespace === '' ? '' : `${i.namespace}/`}${i.name}${i.pointer === '' ? '' : ` at ${i.pointer}`}` }, logicalLocations: [{ fullyQualifiedName: `${resource}${i.pointer}`, kind: 'resource' }] }],
      }),
      properties: { step: i.step, pointer: i.pointer },
    };
  };
  const results = reports.flatMap((r) => [
    ...(r.failed ? [result(r.failed, 'build', 'error')] : []),
    ...r.errors.map((e) => result(e, 'schema', 'error')),
    ...r.warnings.map((w) => result(w, w.code, 'warning')),
  ]);
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: tool.name, version: tool.version, rules: RULES.map((r) => ({ id: r.id, shortDescription: { text: r.text } })) } }, results }],
  };
  return `${JSON.stringify(sarif, undefined, 2)}\n`;
}

function xml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** JUnit XML: a test suite per root, a test case per resource (failed by its errors, skipped without a schema); warnings in the suite's system-out. */
export function junitReport(reports: readonly RootReport[]): string {
  const suites = reports.map((r) => {
    const cases: string[] = [];
    if (r.failed) cases.push(`    <testcase classname="build" name="${xml(r.path)}">\n      <failure type="build" message="${xml(r.failed.message)}">${xml(`${where(r.failed)}${r.failed.message}`)}</failure>\n    </testcase>`);
    for (const c of r.checked) {
      const errors = r.errors.filter((e) => e.apiVersion === c.apiVersion && e.kind === c.kind && e.namespace === c.namespace && e.name === c.name);
      const name = `${c.kind}/${c.namespace === '' ? '' : `${c.namespace}/`}${c.name}`;
      const head = `    <testcase classname="${xml(`${r.path}: ${c.apiVersion}`)}" name="${xml(name)}"`;
      if (c.status === 'skipped') cases.push(`${head}>\n      <skipped message="no schema for ${xml(`${c.apiVersion} ${c.kind}`)}"/>\n    </testcase>`);
      else if (errors.length === 0) cases.push(`${head}/>`);
      else {
        const body = errors.map((e) => `${where(e)}${e.pointer === '' ? '' : `${e.pointer}: `}${e.message}`).join('\n');
        cases.push(`${head}>\n      <failure type="schema" message="${xml(`${plural(errors.length, 'error')}: ${errors[0]!.message}`)}">${xml(body)}</failure>\n    </testcase>`);
      }
    }
    const failures = r.checked.filter((c) => c.status === 'invalid').length + (r.failed ? 1 : 0);
    const out = r.warnings.length === 0 ? '' : `\n    <system-out>${xml(r.warnings.map((w) => `${where(w)}warning: ${w.message} [${w.code}]`).join('\n'))}</system-out>`;
    return `  <testsuite name="${xml(r.path)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${r.skipped}">\n${cases.join('\n')}${out}\n  </testsuite>`;
  });
  const t = totals(reports);
  const tests = reports.reduce((n, r) => n + r.checked.length + (r.failed ? 1 : 0), 0);
  const failures = reports.reduce((n, r) => n + r.checked.filter((c) => c.status === 'invalid').length + (r.failed ? 1 : 0), 0);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="kustomize-ts validate" tests="${tests}" failures="${failures}" errors="0" skipped="${t.skipped}">\n${suites.join('\n')}\n</testsuites>\n`;
}
