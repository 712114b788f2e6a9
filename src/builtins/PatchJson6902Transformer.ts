import { KustomizeError } from '../errors.js';
import type { Selector } from '../model/selector.js';
import { SelectorShape } from '../kinds/shapes.js';
import type { ResourceMap } from '../model/resource-map.js';
import { parseJsonPatch, type JsonPatchOp } from '../patch/json6902.js';
import type { PluginContext, Transformer } from '../plugins/plugin.js';
import type { YMap } from '../yaml/value.js';
import { decodeConfig } from '../plugins/builtin-config.js';
import { applyJsonPatchTo, selectTargets } from '../filters/patch-targets.js';
import { unmatchedTarget, type GiveNotice } from './step-notice.js';

interface Json6902Config {
  target?: Selector;
  path?: string;
  jsonOp?: string;
}

/** `patchesJson6902`: JSON patch operations (JSON or YAML) applied to the resources the target selects. */
export class PatchJson6902Transformer implements Transformer {
  static readonly kind = 'PatchJson6902Transformer';

  private constructor(
    private readonly target: Selector,
    private readonly ops: JsonPatchOp[],
    private readonly notice: GiveNotice,
  ) {}

  static fromConfig(config: YMap, ctx: PluginContext, notice: GiveNotice): PatchJson6902Transformer {
    const c = decodeConfig<Json6902Config>(
      config,
      { struct: 'PatchJson6902TransformerPlugin', fields: { target: SelectorShape, path: 'string', jsonOp: 'string' } },
      PatchJson6902Transformer.kind,
    );
    return PatchJson6902Transformer.create(c, ctx, notice);
  }

  private static create(c: Json6902Config, ctx: PluginContext, notice: GiveNotice): PatchJson6902Transformer {
    if (!c.target?.name) throw new KustomizeError('KUSTOMIZATION_INVALID', 'must specify the target name');
    if (!c.path && !c.jsonOp) throw new KustomizeError('KUSTOMIZATION_INVALID', 'empty file path and empty jsonOp');
    let text = c.jsonOp ?? '';
    if (c.path) {
      if (c.jsonOp) throw new KustomizeError('KUSTOMIZATION_INVALID', 'must specify a file path or jsonOp, not both');
      text = ctx.loader.loadText(c.path);
      if (text === '') throw new KustomizeError('PATCH_FAILED', `patch file '${c.path}' empty seems to be empty`, { file: c.path });
    }
    const ops = parseJsonPatch(text, c.path ?? '', ctx.documents);
    if (ops.length === 0) throw new KustomizeError('PATCH_FAILED', `patch appears to be empty; file=${c.path ?? ''}, JsonOp=${text}`);
    return new PatchJson6902Transformer(c.target, ops, notice);
  }

  transform(resources: ResourceMap): void {
    const targets = selectTargets(resources, this.target);
    if (targets.length === 0) this.notice(unmatchedTarget(this.target));
    applyJsonPatchTo(targets, this.ops, '');
  }
}
