import { KustomizeError } from '../errors.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import type { PluginContext, Transformer } from '../plugins/plugin.js';
import type { YMap } from '../yaml/value.js';
import { decodeConfig } from '../plugins/builtin-config.js';
import { applySmpTo, patchAsCopied, smpPatchesFromText, targetByPatchId, type PatchPlace } from '../filters/patch-targets.js';

/** A patch, and where it is among the step's. */
interface PlacedPatch {
  patch: Resource;
  place: PatchPlace;
}

/**
 * `patchesStrategicMerge`: each entry is a file of patches or, for historical reasons, the
 * patch text itself; every patch applies to the resource with its id.
 */
export class PatchStrategicMergeTransformer implements Transformer {
  static readonly kind = 'PatchStrategicMergeTransformer';

  private constructor(private readonly patches: PlacedPatch[]) {}

  static fromConfig(config: YMap, ctx: PluginContext): PatchStrategicMergeTransformer {
    const c = decodeConfig<{ paths?: string[]; patches?: string }>(
      config,
      { struct: 'PatchStrategicMergeTransformerPlugin', fields: { paths: { list: 'string' }, patches: 'string' } },
      PatchStrategicMergeTransformer.kind,
    );
    return PatchStrategicMergeTransformer.create(c.paths ?? [], c.patches ?? '', ctx);
  }

  private static create(paths: string[], inline: string, ctx: PluginContext): PatchStrategicMergeTransformer {
    if (paths.length === 0 && inline === '') throw new KustomizeError('KUSTOMIZATION_INVALID', 'empty file path and empty patch content');
    const patches: PlacedPatch[] = [];
    for (const entry of paths) patches.push(...patchesOf(entry, ctx));
    if (inline !== '') patches.push(...placed(smpPatchesFromText(inline, '', ctx.documents), undefined));
    if (patches.length === 0) {
      throw new KustomizeError('PATCH_FAILED', `patch appears to be empty; files=[${paths.join(' ')}], Patch=${inline}`);
    }
    return new PatchStrategicMergeTransformer(patches);
  }

  transform(resources: ResourceMap, ctx: PluginContext): void {
    for (const { patch, place } of this.patches) {
      applySmpTo(resources, [targetByPatchId(resources, patch)], patchAsCopied(patch.view), ctx, {}, place);
    }
  }
}

/** An entry that parses as patch objects is inline patch text; anything else is a file path. */
function patchesOf(entry: string, ctx: PluginContext): PlacedPatch[] {
  try {
    const inline = smpPatchesFromText(entry, '', ctx.documents);
    if (inline.length > 0) return placed(inline, undefined);
  } catch {
    // not patch text: a path
  }
  return placed(smpPatchesFromText(ctx.loader.loadText(entry), entry, ctx.documents), entry);
}

/** The patches of one text (the file `patchFile`, or inline), each with its place. */
function placed(patches: Resource[], patchFile: string | undefined): PlacedPatch[] {
  return patches.map((patch, document) => ({ patch, place: { ...(patchFile !== undefined && { patchFile }), document } }));
}
