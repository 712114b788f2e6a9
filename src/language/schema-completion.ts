/**
 * What the schema of a resource's type offers at a place of a resource or a patch: the fields of
 * the object there (with their types, and descriptions where the schema has them), or the values
 * it allows.
 */
import { CompletionItemKind } from 'vscode-languageserver-types';
import { follow, type SchemaLink, type SchemaNode } from '../schema/node.js';
import type { Step } from './yaml-cursor.js';

/** Something completion offers at the cursor, before it is made an LSP item (completion.ts makes it one). */
export interface Offer {
  label: string;
  kind: CompletionItemKind;
  /** the text put in place of the word (the label when unset) */
  insert?: string;
  detail?: string;
  /** markdown */
  documentation?: string;
  /** how far into the typed word the replaced text starts (a path's last segment) */
  from?: number;
}

/** The schema at `path` below `node` (list indexes step into items, keys into properties or the schema of other keys). */
export function schemaAt(node: SchemaNode, path: readonly Step[]): SchemaNode | undefined {
  let at: SchemaNode | undefined = node;
  for (const step of path) {
    if (!at) return undefined;
    at = childOf(at, step);
  }
  return at;
}

/** The fields the object schema `node` declares (with those of its `allOf`, `anyOf`, `oneOf`), but those already written. */
export function fieldOffers(node: SchemaNode, present: ReadonlySet<string>): Offer[] {
  const out: Offer[] = [];
  for (const [name, link] of propertiesOf(node)) {
    if (present.has(name)) continue;
    const field = follow(link);
    const type = field && typeOf(field);
    const nested = type !== undefined && (type.startsWith('[]') || type.startsWith('map[') || type === 'object');
    out.push({ label: name, kind: CompletionItemKind.Field, insert: nested ? `${name}:` : `${name}: `, ...(type && { detail: type }), ...(field?.description && { documentation: field.description }) });
  }
  return out;
}

/** The values the schema `node` allows, when it names them: its enum, its constant, or `true` and `false`. */
export function valueOffers(node: SchemaNode): Offer[] {
  const values = [...alternatives(node)].flatMap((n) => n.enum ?? (n.const ? [n.const.value] : n.types?.includes('boolean') ? [true, false] : []));
  return [...new Set(values.filter((v) => v !== null && typeof v !== 'object').map(String))].map((label) => ({ label, kind: CompletionItemKind.EnumMember }));
}

/** The schema's properties, with those of the schemas it combines (the first declaration of a name wins). */
function propertiesOf(node: SchemaNode): Map<string, SchemaLink> {
  const out = new Map<string, SchemaLink>();
  for (const n of alternatives(node)) for (const [k, v] of n.properties ?? []) if (!out.has(k)) out.set(k, v);
  return out;
}

/** The schema and those it combines (`allOf`, `anyOf`, `oneOf`), followed, each once. */
function alternatives(node: SchemaNode, seen = new Set<SchemaNode>()): Set<SchemaNode> {
  if (seen.has(node)) return seen;
  seen.add(node);
  for (const link of [...(node.allOf ?? []), ...(node.anyOf ?? []), ...(node.oneOf ?? [])]) {
    const n = follow(link);
    if (n) alternatives(n, seen);
  }
  return seen;
}

function childOf(node: SchemaNode, step: Step): SchemaNode | undefined {
  for (const n of alternatives(node)) {
    if (typeof step === 'number') {
      if (n.items) return follow(n.items);
      continue;
    }
    const property = n.properties?.get(step);
    if (property) return follow(property);
    const pattern = n.patternProperties?.find(([p]) => safeTest(p, step));
    if (pattern) return follow(pattern[1]);
    if (n.additionalProperties) return follow(n.additionalProperties);
  }
  return undefined;
}

function safeTest(pattern: string, s: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(s);
  } catch {
    return false;
  }
}

/** A schema's type as a reader says it: `string`, `integer (int32)`, `[]object`, `map[string]string`. */
function typeOf(node: SchemaNode): string | undefined {
  const all = [...alternatives(node)];
  const n = all.find((x) => x.types?.length || x.items || x.properties || x.intOrString) ?? node;
  if (n.intOrString) return 'integer or string';
  const type = n.types?.find((t) => t !== 'null') ?? (n.items ? 'array' : n.properties ? 'object' : undefined);
  if (type === 'array') {
    const item = n.items && follow(n.items);
    return `[]${(item && typeOf(item)) ?? 'any'}`;
  }
  if (type === 'object' && !n.properties && n.additionalProperties) {
    const value = follow(n.additionalProperties);
    return `map[string]${(value && typeOf(value)) ?? 'any'}`;
  }
  return type && (n.format ? `${type} (${n.format})` : type);
}
