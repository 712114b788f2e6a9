import type { EditContext } from './context.js';
import { addBases, addEntries, removeEntries, setEntries, type AddBases, type AddEntries, type RemoveEntries, type SetEntries } from './ops/entries.js';
import { setField, type SetField } from './ops/fields.js';
import { fix, type Fix } from './ops/fix.js';
import { addGenerator, removeGenerators, setGenerator, type AddGenerator, type RemoveGenerators, type SetGenerator } from './ops/generators.js';
import { setImages, type SetImages } from './ops/images.js';
import { addMetadata, removeMetadata, setMetadata, type AddMetadata, type RemoveMetadata, type SetMetadata } from './ops/metadata.js';
import { addPatch, removePatch, type AddPatch, type RemovePatch } from './ops/patches.js';
import { setReplicas, type SetReplicas } from './ops/replicas.js';

/** One change to a kustomization file: what `kustomize edit add|set|remove|fix` does, as data. */
export type EditOp =
  | AddEntries
  | AddBases
  | RemoveEntries
  | SetEntries
  | AddPatch
  | RemovePatch
  | AddGenerator
  | SetGenerator
  | RemoveGenerators
  | AddMetadata
  | SetMetadata
  | RemoveMetadata
  | SetImages
  | SetReplicas
  | SetField
  | Fix;

export function applyEditOp(ctx: EditContext, op: EditOp): void {
  switch (op.op) {
    case 'addEntries':
      return addEntries(ctx, op);
    case 'addBases':
      return addBases(ctx, op);
    case 'removeEntries':
      return removeEntries(ctx, op);
    case 'setEntries':
      return setEntries(ctx, op);
    case 'addPatch':
      return addPatch(ctx, op);
    case 'removePatch':
      return removePatch(ctx, op);
    case 'addGenerator':
      return addGenerator(ctx, op);
    case 'setGenerator':
      return setGenerator(ctx, op);
    case 'removeGenerators':
      return removeGenerators(ctx, op);
    case 'addMetadata':
      return addMetadata(ctx, op);
    case 'setMetadata':
      return setMetadata(ctx, op);
    case 'removeMetadata':
      return removeMetadata(ctx, op);
    case 'setImages':
      return setImages(ctx, op);
    case 'setReplicas':
      return setReplicas(ctx, op);
    case 'setField':
      return setField(ctx, op);
    case 'fix':
      return fix(ctx, op);
  }
}
