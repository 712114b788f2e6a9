import type { FieldSpec } from '../fieldspec/fieldspec.js';
import { FieldSpecsShape } from '../fieldspec/fieldspec.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import type { Transformer } from '../plugins/plugin.js';
import { isMap, type YMap } from '../yaml/value.js';
import { decodeConfig } from '../plugins/builtin-config.js';
import { setMapEntries } from '../filters/map-entries.js';
import { noticedResource, type GiveNotice } from './step-notice.js';

interface LabelConfig {
  labels: Record<string, string>;
  fieldSpecs: FieldSpec[];
}

/**
 * The workloads whose `spec.selector` the API server refuses to change, by kind, with the API
 * groups they are served in: `kubectl apply` fails for one already in the cluster. (A Service's
 * selector, a CronJob's job template, a PodDisruptionBudget's selector may change.)
 */
const IMMUTABLE_SELECTORS: ReadonlyMap<string, readonly string[]> = new Map([
  ['Deployment', ['apps', 'extensions']],
  ['ReplicaSet', ['apps', 'extensions']],
  ['DaemonSet', ['apps', 'extensions']],
  ['StatefulSet', ['apps']],
  ['Job', ['batch']],
]);

/** `labels` and `commonLabels`: sets labels in the fields its field specs list (metadata, selectors, templates). */
export class LabelTransformer implements Transformer {
  static readonly kind = 'LabelTransformer';

  private constructor(
    readonly config: LabelConfig,
    private readonly notice: GiveNotice,
  ) {}

  static fromConfig(config: YMap, notice: GiveNotice): LabelTransformer {
    const c = decodeConfig<Partial<LabelConfig>>(
      config,
      { struct: 'LabelTransformerPlugin', fields: { labels: { map: 'string' }, fieldSpecs: FieldSpecsShape } },
      LabelTransformer.kind,
    );
    return new LabelTransformer({ labels: c.labels ?? {}, fieldSpecs: c.fieldSpecs ?? [] }, notice);
  }

  transform(resources: ResourceMap): void {
    const before = new Map<Resource, YMap>();
    // (a step that writes no selector, a `labels` entry without includeSelectors, changes none)
    if (Object.keys(this.config.labels).length > 0 && this.config.fieldSpecs.some((fs) => fs.path?.startsWith('spec/selector'))) {
      for (const r of resources) {
        const selector = immutableSelector(r);
        if (selector) before.set(r, { ...selector });
      }
    }
    setMapEntries(resources, this.config.labels, this.config.fieldSpecs);
    for (const [r, was] of before) this.noticeChanged(r, was, immutableSelector(r) ?? {});
  }

  /** The notice of a workload whose immutable selector the step changed, at the first of its labels that did. */
  private noticeChanged(r: Resource, was: YMap, now: YMap): void {
    const changed = Object.keys(this.config.labels).filter((k) => k in now && (!(k in was) || String(was[k]) !== String(now[k])));
    if (changed.length === 0) return;
    const what = changed.map((k) => (k in was ? `changes ${k} (${String(was[k])} → ${String(now[k])})` : `adds ${k}`)).join(', ');
    this.notice({
      code: 'SELECTOR_LABEL_CHANGED',
      message: `${what} in the selector of ${r.kind} ${r.name}: a ${r.kind}'s selector is immutable, so applying it over the one in the cluster fails`,
      at: ['labels', changed[0]!],
      resource: noticedResource(r),
    });
  }
}

/** The `spec.selector.matchLabels` of a workload whose selector cannot change (empty when it selects by expressions only); undefined when it has no selector. */
function immutableSelector(r: Resource): YMap | undefined {
  if (!IMMUTABLE_SELECTORS.get(r.kind)?.includes(r.gvk.group)) return undefined;
  const spec = r.view['spec'];
  const selector = isMap(spec) ? spec['selector'] : undefined;
  if (!isMap(selector)) return undefined;
  const matchLabels = selector['matchLabels'];
  return isMap(matchLabels) ? matchLabels : {};
}
