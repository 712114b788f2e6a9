import { isDeepStrictEqual } from './equal.js';
import { KustomizeError } from '../../errors.js';
import type { Patch } from '../../kinds/kustomization.js';
import type { Selector } from '../../model/selector.js';
import type { EditContext } from '../context.js';

/** `edit add patch`: a patch file or inline patch, with an optional target; an identical entry is not added twice. */
export interface AddPatch {
  op: 'addPatch';
  patch: Pick<Patch, 'path' | 'patch' | 'target'>;
}

/** `edit remove patch`: removes the entries equal to this one (path or patch, and target). */
export interface RemovePatch {
  op: 'removePatch';
  patch: Pick<Patch, 'path' | 'patch' | 'target'>;
}

/** The patch as kustomize compares and writes it: empty strings and an empty target dropped. */
function normalizePatch(p: Patch): Patch {
  const out: Patch = {};
  if (p.path) out.path = p.path;
  if (p.patch) out.patch = p.patch;
  const target = Object.fromEntries(Object.entries(p.target ?? {}).filter(([, v]) => v !== '' && v !== undefined)) as Selector;
  if (Object.keys(target).length > 0) out.target = target;
  if (p.options && Object.keys(p.options).length > 0) out.options = p.options;
  return out;
}

function describe(p: Patch): string {
  return JSON.stringify(normalizePatch(p));
}

export function addPatch(ctx: EditContext, op: AddPatch): void {
  if (op.patch.patch && op.patch.path) throw new KustomizeError('EDIT_INVALID', "patch and path can't be set at the same time");
  if (!op.patch.patch && !op.patch.path) throw new KustomizeError('EDIT_INVALID', 'must provide either patch or path');
  const patch = normalizePatch(op.patch);
  const existing = (ctx.doc.value<Patch[]>('patches') ?? []).map(normalizePatch);
  if (existing.some((p) => isDeepStrictEqual(p, patch))) {
    ctx.notice(`patch ${describe(patch)} already in kustomization file`);
    return ctx.nothingToWrite();
  }
  ctx.doc.list('patches').add(ctx.doc.node(patch as never));
}

export function removePatch(ctx: EditContext, op: RemovePatch): void {
  if (op.patch.patch && op.patch.path) throw new KustomizeError('EDIT_INVALID', "patch and path can't be set at the same time");
  const patch = normalizePatch(op.patch);
  const seq = ctx.doc.seqNode('patches');
  const entries = (ctx.doc.value<Patch[]>('patches') ?? []).map(normalizePatch);
  const keep = entries.map((p) => !isDeepStrictEqual(p, patch));
  if (!seq || keep.every(Boolean)) {
    ctx.notice(`patch ${describe(patch)} doesn't exist in kustomization file`);
    return ctx.nothingToWrite();
  }
  seq.items = seq.items.filter((_, i) => keep[i]);
  if (seq.items.length === 0) ctx.doc.delete('patches');
}
