import { KustomizeError, withErrorPrefix } from '../errors.js';
import type { Patch } from '../kinds/kustomization.js';
import { PatchShape } from '../kinds/shapes.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import { jsonPatchIfList, type JsonPatchOp } from '../patch/json6902.js';
import type { PluginContext, Transformer } from '../plugins/plugin.js';
import { emitYaml } from '../yaml/emit.js';
import type { YMap } from '../yaml/value.js';
import { decodeConfig, marshalledConfig } from '../plugins/builtin-config.js';
import { applyJsonPatchTo, applySmpTo, patchAsCopied, selectTargets, smpPatchesIfObjects, targetByPatchId } from '../filters/patch-targets.js';
import { unmatchedTarget, type GiveNotice } from './step-notice.js';

/**
 * `patches`: a strategic-merge patch (one or several documents) or a JSON 6902 patch, from a
 * file or inline, applied to the resources its target selects; a strategic-merge patch
 * without a target applies to the resource with its own id.
 */
export class PatchTransformer implements Transformer {
  static readonly kind = 'PatchTransformer';

  private constructor(
    private readonly args: Patch,
    /** how kustomize names the patch in messages: `[path: "p.yaml"]`, `[patch: "…"]` */
    private readonly source: string,
    private readonly smp: Resource[] | undefined,
    private readonly json: JsonPatchOp[] | undefined,
    private readonly notice: GiveNotice,
  ) {}

  static fromConfig(config: YMap, ctx: PluginContext, notice: GiveNotice): PatchTransformer {
    return PatchTransformer.create(decodeConfig<Patch>(config, PatchShape, PatchTransformer.kind), ctx, config, notice);
  }

  /** `config` is shown in errors: the plugin's, or the one kustomize marshals from a `patches` entry. */
  private static create(args: Patch, ctx: PluginContext, config: YMap, notice: GiveNotice): PatchTransformer {
    let text = (args.patch ?? '').trim();
    if (text === '' && !args.path) throw new KustomizeError('KUSTOMIZATION_INVALID', `must specify one of patch and path in\n${emitYaml(config)}`);
    if (text !== '' && args.path) throw new KustomizeError('KUSTOMIZATION_INVALID', `patch and path can't be set at the same time\n${emitYaml(config)}`);
    const file = args.path ?? '';
    // kustomize trims an inline patch but reads a patch file as it is
    if (args.path) {
      const path = args.path;
      text = withErrorPrefix(`failed to get the patch file from path(${path})`, () => ctx.loader.loadText(path));
    }
    // kustomize tries the text both ways; what each said is kept as the cause when neither reads
    const smpRead = attempt(() => smpPatchesIfObjects(text, file, ctx.documents));
    const jsonRead = text === '' ? { value: undefined } : attempt(() => jsonPatchIfList(text, file, ctx.documents));
    const smp = smpRead.value;
    const json = jsonRead.value;
    const { patchReadAsBoth, emptyPatch } = ctx.profile;
    // kustomize names the patch by its file, or quotes it when inline
    const source = args.path ? `[path: ${JSON.stringify(args.path)}]` : `[patch: ${JSON.stringify(text)}]`;
    if (smp && json && (patchReadAsBoth === 'refused' || smp.length > 0 || json.length > 0)) throw new KustomizeError('PATCH_FAILED', `illegally qualifies as both an SM and JSON patch: ${source}`, { file });
    if (!smp && !json) {
      const cause = smpRead.error ?? jsonRead.error;
      throw new KustomizeError('PATCH_FAILED', `unable to parse SM or JSON patch from ${source}`, { file, ...(cause !== undefined && { cause }) });
    }
    if (json && !smp) return new PatchTransformer(args, source, undefined, json, notice);
    // a text of no documents: kustomize reads it as a JSON patch of no operations, or passes it over
    if (smp?.length === 0 && emptyPatch === 'empty-json-patch') return new PatchTransformer(args, source, undefined, [], notice);
    return new PatchTransformer(args, source, smp, undefined, notice);
  }

  private targetOf(resources: ResourceMap, patch: Resource): Resource {
    return withErrorPrefix(`no resource matches strategic merge patch "${patch.originalId}"`, () => targetByPatchId(resources, patch));
  }

  transform(resources: ResourceMap, ctx: PluginContext): void {
    const options = { allowNameChange: !!this.args.options?.['allowNameChange'], allowKindChange: !!this.args.options?.['allowKindChange'] };
    const target = this.args.target;
    if (this.json) {
      if (!target) throw new KustomizeError('PATCH_FAILED', `must specify a target for JSON patch ${this.source}`);
      const targets = selectTargets(resources, target);
      if (targets.length === 0) this.notice(unmatchedTarget(target));
      for (const r of targets) r.storePreviousId();
      applyJsonPatchTo(targets, this.json, `, in patch ${this.args.path ?? ''}`);
      return;
    }
    for (const [document, patch] of (this.smp ?? []).entries()) {
      const place = { ...(this.args.path && { patchFile: this.args.path }), document };
      if (!target) {
        applySmpTo(resources, [this.targetOf(resources, patch)], patch.view, ctx, options, place);
        continue;
      }
      const targets = selectTargets(resources, target);
      // what the first document's target selects, the others' does: one notice for the step
      if (document === 0 && targets.length === 0) this.notice(unmatchedTarget(target));
      applySmpTo(resources, targets, patchAsCopied(patch.view), ctx, options, place);
    }
  }
}

/** What `parse` read, or why it could not. */
function attempt<T>(parse: () => T | undefined): { value: T | undefined; error?: unknown } {
  try {
    return { value: parse() };
  } catch (error) {
    return { value: undefined, error };
  }
}

/** A `patches` entry as kustomize marshals it for the plugin. */
export function patchConfig(p: Patch): YMap {
  return marshalledConfig({ options: p.options, patch: p.patch, path: p.path, target: p.target && marshalledConfig({ ...p.target }) });
}

