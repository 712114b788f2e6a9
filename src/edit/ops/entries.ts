import { KustomizeError } from '../../errors.js';
import { join, resolve } from '../../fs/path.js';
import { isHttpUrl } from '../../load/remote/remote-source.js';
import { parseRepoSpec } from '../../load/remote/repo-spec.js';
import type { EditContext } from '../context.js';
import { glob, matchPattern } from '../../fs/glob.js';
import { checkBuildMetadataOptions } from '../validate.js';
import { stringItems } from './seq.js';

/** The kustomization fields that are lists of paths (or options) an edit adds to and removes from. */
export type EntryField = 'resources' | 'components' | 'configurations' | 'generators' | 'transformers' | 'validators' | 'crds' | 'buildMetadata';

export interface AddEntries {
  op: 'addEntries';
  field: EntryField;
  /**
   * paths or glob patterns relative to the kustomization's directory. For `resources` and
   * `components` a pattern that matches nothing must be a directory or a remote URL; for
   * other path fields it is skipped with a notice. `buildMetadata` takes option names.
   */
  entries: string[];
  /** take `resources`/`components` entries as written, without looking for them */
  noVerify?: boolean;
}

/** kustomize's `edit add base`: each path must exist and not be listed yet; added to `resources`. */
export interface AddBases {
  op: 'addBases';
  paths: string[];
}

export interface RemoveEntries {
  op: 'removeEntries';
  field: EntryField;
  /** entries or patterns (`filepath.Match` style) naming entries to remove; unmatched ones are ignored */
  patterns: string[];
}

export interface SetEntries {
  op: 'setEntries';
  field: EntryField;
  entries: string[];
}

/** the singular kustomize uses in its messages */
const ITEM: Record<EntryField, string> = {
  resources: 'resource',
  components: 'component',
  configurations: 'configuration',
  generators: 'generator',
  transformers: 'transformer',
  validators: 'validator',
  crds: 'crd',
  buildMetadata: 'buildMetadata option',
};

export function addEntries(ctx: EditContext, op: AddEntries): void {
  if (op.field === 'buildMetadata') checkBuildMetadataOptions(op.entries);
  const expanded = expand(ctx, op);
  // kustomize reads (and so rewrites) the file only when the patterns matched something
  if (expanded.length === 0) return ctx.nothingToWrite();
  const self = join(ctx.dir, ctx.fileName);
  const entries = op.field === 'resources' || op.field === 'components' ? expanded.filter((p) => resolve(ctx.dir, p) !== self) : expanded;
  const present = new Set(stringItems(ctx.doc.seqNode(op.field)));
  if (op.field === 'resources') for (const b of stringItems(ctx.doc.seqNode('bases'))) present.add(b);
  const added: string[] = [];
  for (const entry of entries) {
    if (present.has(entry)) {
      if (op.field === 'buildMetadata') throw new KustomizeError('EDIT_CONFLICT', `buildMetadata option ${entry} already in kustomization file`);
      ctx.notice(`${ITEM[op.field]} ${entry} already in kustomization file`);
      continue;
    }
    present.add(entry);
    added.push(entry);
  }
  if (added.length === 0) return;
  const seq = ctx.doc.list(op.field);
  for (const entry of added) seq.add(ctx.doc.node(entry));
}

/** The entries a pattern list names, as kustomize's `edit add` expands them. */
function expand(ctx: EditContext, op: AddEntries): string[] {
  if (op.field === 'buildMetadata') return op.entries;
  if (op.field !== 'resources' && op.field !== 'components') {
    return op.entries.flatMap((pattern) => {
      const found = glob(ctx.fs, ctx.dir, pattern);
      if (found.length === 0) ctx.notice(`${pattern} has no match`);
      return found;
    });
  }
  if (op.noVerify) return op.entries;
  return op.entries
    .flatMap((pattern) => {
      const found = glob(ctx.fs, ctx.dir, pattern);
      if (found.length > 0) return found;
      if (isHttpUrl(pattern) || parseRepoSpec(pattern)) return [pattern];
      throw new KustomizeError('FILE_NOT_FOUND', `${pattern} has no match: must build at directory: not a valid directory: '${pattern}' doesn't exist`, {
        file: resolve(ctx.dir, pattern),
      });
    });
}

export function addBases(ctx: EditContext, op: AddBases): void {
  const present = new Set([...stringItems(ctx.doc.seqNode('resources')), ...stringItems(ctx.doc.seqNode('bases'))]);
  for (const path of op.paths) {
    if (!ctx.fs.exists(resolve(ctx.dir, path))) throw new KustomizeError('FILE_NOT_FOUND', `${path} does not exist`, { file: resolve(ctx.dir, path) });
    if (present.has(path)) throw new KustomizeError('EDIT_CONFLICT', `base ${path} already in kustomization file`);
    present.add(path);
    ctx.doc.list('resources').add(ctx.doc.node(path));
  }
}

export function removeEntries(ctx: EditContext, op: RemoveEntries): void {
  if (op.field === 'buildMetadata') checkBuildMetadataOptions(op.patterns);
  const fields: EntryField[] | ['resources', 'bases'] = op.field === 'resources' ? ['resources', 'bases'] : [op.field];
  let matchedAny = false;
  for (const field of fields) {
    const seq = ctx.doc.seqNode(field);
    if (!seq) continue;
    const entries = stringItems(seq);
    for (let i = entries.length - 1; i >= 0; i--) {
      if (!op.patterns.some((p) => p === entries[i] || matchPattern(p, entries[i]!))) continue;
      seq.items.splice(i, 1);
      matchedAny = true;
    }
    if (seq.items.length === 0 && entries.length > 0) ctx.doc.delete(field);
  }
  // kustomize writes the file only when a pattern matched an entry
  if (!matchedAny) ctx.nothingToWrite();
}

export function setEntries(ctx: EditContext, op: SetEntries): void {
  if (op.field === 'buildMetadata') checkBuildMetadataOptions(op.entries);
  ctx.doc.set(op.field, op.entries);
}
