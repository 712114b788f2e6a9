import { isMap, type YMap } from '../yaml/value.js';
import { yamlPrinter } from '../yaml/emit.js';
import { DOCUMENT_SEPARATOR } from './render.js';
import { unifiedDiff } from './unified-diff.js';

/** One resource of a printed build: its id and the YAML it was printed as. */
export interface PrintedResource {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  yaml: string;
  /** the object, for what must be hidden of it (a Secret's values) */
  object: YMap;
}

/** How one resource differs between two builds. */
export interface ResourceChange {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  change: 'added' | 'removed' | 'changed';
  /** the unified diff of its YAML, base to head (hunks only: `@@ … @@`, then the lines) */
  diff: string;
}

/** A build's output cut into its resources: `yaml` is what the build printed, `objects` its objects in the same order. */
export function printedResources(yaml: string, objects: readonly YMap[]): PrintedResource[] {
  const texts = yaml === '' ? [] : yaml.split(new RegExp(`(?<=\\n)${DOCUMENT_SEPARATOR.replace('\n', '\\n')}`));
  if (texts.length !== objects.length) throw new Error(`printed ${texts.length} documents for ${objects.length} resources`);
  return objects.map((object, i) => {
    const meta = isMap(object['metadata']) ? object['metadata'] : {};
    return { apiVersion: text(object['apiVersion']), kind: text(object['kind']), namespace: text(meta['namespace']), name: text(meta['name']), yaml: texts[i]!, object };
  });
}

/**
 * The resources that differ between two builds, matched by id (apiVersion, kind, namespace,
 * name): added, removed, or changed with the diff of their YAML. A resource that only moved
 * in the output is no change. The values of a Secret's `data` and `stringData` are not shown
 * (see {@link hiddenSecrets}) unless `showSecrets`.
 */
export function resourceChanges(base: readonly PrintedResource[], head: readonly PrintedResource[], showSecrets: boolean): ResourceChange[] {
  const before = new Map(base.map((r) => [key(r), r] as const));
  const after = new Map(head.map((r) => [key(r), r] as const));
  const changes: ResourceChange[] = [];
  for (const k of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const [b, h] = [before.get(k), after.get(k)];
    if (b && h && b.yaml === h.yaml) continue;
    const [bText, hText] = showSecrets ? [b?.yaml ?? '', h?.yaml ?? ''] : hiddenSecrets(b, h);
    const id = (b ?? h)!;
    changes.push({
      apiVersion: id.apiVersion,
      kind: id.kind,
      namespace: id.namespace,
      name: id.name,
      change: !b ? 'added' : !h ? 'removed' : 'changed',
      diff: unifiedDiff(bText, hText),
    });
  }
  return changes;
}

/** The fields of a Secret whose values are never shown. */
const SECRET_FIELDS = ['data', 'stringData'];

/**
 * The texts to compare of two sides of a resource: as printed, but a Secret's values replaced
 * by a marker that says only whether each key's value changed: `<hidden>`, but
 * `<hidden, changed>` at the head for a key whose value differs from the base's.
 */
function hiddenSecrets(base: PrintedResource | undefined, head: PrintedResource | undefined): [string, string] {
  const isSecret = (r: PrintedResource | undefined) => r?.kind === 'Secret' && r.apiVersion === 'v1';
  if (!isSecret(base) && !isSecret(head)) return [base?.yaml ?? '', head?.yaml ?? ''];
  const print = yamlPrinter();
  const hide = (r: PrintedResource | undefined, other: PrintedResource | undefined, isHead: boolean): string => {
    if (!r) return '';
    const copy: YMap = { ...r.object };
    for (const field of SECRET_FIELDS) {
      const values = r.object[field];
      if (!isMap(values)) continue;
      const others = other?.object[field];
      const hidden: YMap = {};
      for (const [k, v] of Object.entries(values)) {
        const theirs = isMap(others) ? others[k] : undefined;
        hidden[k] = isHead && theirs !== undefined && theirs !== v ? '<hidden, changed>' : '<hidden>';
      }
      copy[field] = hidden;
    }
    return print(copy);
  };
  return [hide(base, head, false), hide(head, base, true)];
}

function key(r: PrintedResource): string {
  return JSON.stringify([r.apiVersion, r.kind, r.namespace, r.name]);
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}
