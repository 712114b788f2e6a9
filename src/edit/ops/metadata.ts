import { isMap, type YAMLMap } from 'yaml';
import { KustomizeError } from '../../errors.js';
import type { EditContext } from '../context.js';
import { metadataWarnings } from '../validate.js';
import { mapItems, setSorted } from './seq.js';

export type MetadataKind = 'label' | 'annotation';

/** `edit add label|annotation`: into `commonLabels`/`commonAnnotations`, or with `withoutSelector` into `labels`. */
export interface AddMetadata {
  op: 'addMetadata';
  kind: MetadataKind;
  pairs: Record<string, string>;
  /** overwrite keys already present */
  force?: boolean;
  /** labels only: add to a `labels` entry that leaves selectors alone */
  withoutSelector?: boolean;
  /** labels with `withoutSelector` only: the entry also labels templates */
  includeTemplates?: boolean;
}

/** `edit set label|annotation`: sets (or overwrites) keys of `commonLabels`/`commonAnnotations`. */
export interface SetMetadata {
  op: 'setMetadata';
  kind: MetadataKind;
  pairs: Record<string, string>;
}

export interface RemoveMetadata {
  op: 'removeMetadata';
  kind: MetadataKind;
  keys: string[];
  /** no error for keys (or a field) that are not there */
  ignoreMissing?: boolean;
}

const FIELD = { label: 'commonLabels', annotation: 'commonAnnotations' } as const;

function check(ctx: EditContext, kind: MetadataKind, pairs: Record<string, string>): void {
  if (Object.keys(pairs).length === 0) throw new KustomizeError('EDIT_INVALID', `must specify ${kind}`);
  for (const warning of metadataWarnings(kind, pairs)) ctx.notice(warning);
}

export function addMetadata(ctx: EditContext, op: AddMetadata): void {
  check(ctx, op.kind, op.pairs);
  if (op.includeTemplates && !op.withoutSelector) {
    throw new KustomizeError('EDIT_INVALID', '--without-selector flag must be specified for --include-templates to work');
  }
  const target = op.kind === 'label' && op.withoutSelector ? labelEntry(ctx, op.includeTemplates ?? false) : ctx.doc.map(FIELD[op.kind]);
  for (const [key, value] of Object.entries(op.pairs)) {
    if (target.has(key) && !op.force) throw new KustomizeError('EDIT_CONFLICT', `${op.kind} ${key} already in kustomization file. Use --force to override.`);
    setSorted(target, key, ctx.doc.node(value));
  }
}

/** The `pairs` of the `labels` entry without selectors and with the given template setting, created if none. */
function labelEntry(ctx: EditContext, includeTemplates: boolean): YAMLMap {
  const seq = ctx.doc.list('labels');
  const entry = mapItems(seq).find((m) => m.get('includeSelectors') !== true && (m.get('includeTemplates') === true) === includeTemplates);
  if (entry) {
    const pairs = entry.get('pairs', true);
    if (isMap(pairs)) return pairs;
    const created = ctx.doc.node({}) as YAMLMap;
    setSorted(entry, 'pairs', created);
    return created;
  }
  const pairs = ctx.doc.node({}) as YAMLMap;
  const created = ctx.doc.node(includeTemplates ? { includeTemplates: true } : {}) as YAMLMap;
  setSorted(created, 'pairs', pairs);
  seq.add(created);
  return pairs;
}

export function setMetadata(ctx: EditContext, op: SetMetadata): void {
  check(ctx, op.kind, op.pairs);
  const map = ctx.doc.map(FIELD[op.kind]);
  for (const [key, value] of Object.entries(op.pairs)) setSorted(map, key, ctx.doc.node(value));
}

export function removeMetadata(ctx: EditContext, op: RemoveMetadata): void {
  if (op.keys.length === 0) throw new KustomizeError('EDIT_INVALID', `must specify ${op.kind}`);
  for (const key of op.keys) if (key === '') throw new KustomizeError('EDIT_INVALID', `invalid ${op.kind}: '' (name is empty)`);
  const field = FIELD[op.kind];
  const map = ctx.doc.mapNode(field);
  if (!map) {
    if (op.ignoreMissing) return;
    throw new KustomizeError('EDIT_CONFLICT', `${field} is not defined in kustomization file`);
  }
  for (const key of op.keys) {
    if (!map.has(key) && !op.ignoreMissing) throw new KustomizeError('EDIT_CONFLICT', `${op.kind} ${key} is not defined in kustomization file`);
    map.delete(key);
  }
  if (map.items.length === 0) ctx.doc.delete(field);
}
