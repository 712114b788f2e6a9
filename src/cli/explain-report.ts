import { KustomizeError } from '../errors.js';
import type { FieldProvenance, ResourceProvenance, WrittenBy } from '../pipeline/provenance.js';
import { lineOrigins } from '../output/provenance-lines.js';

/** What `explain` shows: the resources (all, or those `--resource` names), each with its printed YAML. */
export interface Explained {
  resource: ResourceProvenance;
  /** the resource's YAML as `build` prints it */
  yaml: string;
}

/** `--resource KIND/NAME` (or `KIND/NAMESPACE/NAME`) and `--field PATH`: what they select, or an error listing what there is. */
export function selected(all: readonly Explained[], resource: string | undefined, field: string | undefined): Explained[] {
  let chosen = [...all];
  if (resource !== undefined) {
    const parts = resource.split('/');
    chosen = all.filter(({ resource: r }) => parts.length === 2 ? r.kind === parts[0] && r.name === parts[1] : r.kind === parts[0] && r.namespace === parts[1] && r.name === parts[2]);
    if (chosen.length === 0) {
      const names = all.map(({ resource: r }) => `${r.kind}/${r.namespace ? `${r.namespace}/` : ''}${r.name}`);
      throw new KustomizeError('USAGE', `--resource '${resource}' matches no resource of the output; it has: ${names.join(', ') || 'none'}`);
    }
  }
  if (field === undefined) return chosen;
  const inField = (f: FieldProvenance) => f.path === field || f.path.startsWith(`${field}.`) || f.path.startsWith(`${field}[`);
  const withField = chosen.map((e) => ({ ...e, resource: { ...e.resource, fields: e.resource.fields.filter(inField) } })).filter((e) => e.resource.fields.length > 0);
  if (withField.length === 0) {
    const paths = [...new Set(chosen.flatMap((e) => e.resource.fields.map((f) => f.path)))];
    const shown = paths.slice(0, 40).join(', ') + (paths.length > 40 ? `, … (${paths.length - 40} more)` : '');
    throw new KustomizeError('USAGE', `--field '${field}' matches no field of ${resource === undefined ? 'the output' : `'${resource}'`}; its fields: ${shown}`);
  }
  return withField;
}

/** `--format json`: the fixed shape. */
export function jsonExplanation(explained: readonly Explained[]): string {
  return `${json({ resources: explained.map((e) => e.resource) }, 2)}\n`;
}

/** JSON, an integer past 2^53 (a bigint) written with all its digits, as JSON allows. */
function json(value: unknown, indent?: number): string {
  const marked = new Map<string, string>();
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    const mark = `\u0000bigint${marked.size}`;
    marked.set(mark, v.toString());
    return mark;
  }, indent);
  return marked.size === 0 ? text : text.replace(/"\\u0000bigint\d+"/g, (m) => marked.get(JSON.parse(m) as string)!);
}

function origin(by: WrittenBy): string {
  return `${by.step} ${by.file}:${by.line}:${by.column}`;
}

/**
 * `--format text`: the YAML `build` prints, each line that holds a value followed by where the
 * value came from, as `git blame` shows who wrote a line; dim on a terminal.
 */
export function textExplanation(explained: readonly Explained[], color: boolean): string {
  const comment = (text: string) => (color ? `\x1b[2m# ${text}\x1b[0m` : `# ${text}`);
  const docs = explained.map(({ resource, yaml }) => {
    const lines = yaml.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const byLine = lineOrigins(resource, yaml);
    const width = Math.min(72, Math.max(...lines.map((l) => l.length)));
    return lines.map((l, i) => (byLine.has(i + 1) ? `${l.padEnd(width)}  ${comment(origin(byLine.get(i + 1)!))}` : l)).join('\n') + '\n';
  });
  return docs.join('---\n');
}

/** `--format text` with `--field`: each field, its value and who wrote it, then the values before it. */
export function fieldExplanation(explained: readonly Explained[], color: boolean): string {
  const dim = (text: string) => (color ? `\x1b[2m${text}\x1b[0m` : text);
  let out = '';
  for (const { resource: r } of explained) {
    out += `${r.apiVersion} ${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}\n`;
    for (const f of r.fields) {
      out += `  ${f.path}: ${json(f.value)}  ${dim(`# ${origin(f.by)}`)}\n`;
      for (const h of [...f.history].reverse()) out += `    was ${json(h.value)}  ${dim(`# ${origin(h.by)}`)}\n`;
    }
  }
  return out;
}
