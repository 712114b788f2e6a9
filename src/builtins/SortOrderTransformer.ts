import { KustomizeError } from '../errors.js';
import type { SortOptions } from '../kinds/kustomization.js';
import { gvkString, type Gvk } from '../model/resid.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import type { Transformer } from '../plugins/plugin.js';
import { decodeConfig } from '../plugins/builtin-config.js';
import { SortOptionsShape } from '../kinds/shapes.js';
import type { YMap } from '../yaml/value.js';

/** kustomize's fixed "legacy" order: kinds with no dependencies first, webhooks last. */
export const DEFAULT_ORDER_FIRST = [
  'Namespace',
  'ResourceQuota',
  'StorageClass',
  'CustomResourceDefinition',
  'ServiceAccount',
  'PodSecurityPolicy',
  'Role',
  'ClusterRole',
  'RoleBinding',
  'ClusterRoleBinding',
  'ConfigMap',
  'Secret',
  'Endpoints',
  'Service',
  'LimitRange',
  'PriorityClass',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'Deployment',
  'StatefulSet',
  'CronJob',
  'PodDisruptionBudget',
];
export const DEFAULT_ORDER_LAST = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];

/**
 * `sortOptions` (and `--reorder`): `fifo` keeps the accumulation order; `legacy` sorts by
 * kind priority, then GVK, then namespace and name. Applied to the top-level build only.
 */
export class SortOrderTransformer implements Transformer {
  static readonly kind = 'SortOrderTransformer';
  readonly copiesShared = true;

  private constructor(readonly options: SortOptions) {}

  /** `sortOptions:` as in a kustomization; without it, the legacy order. */
  static fromConfig(config: YMap): SortOrderTransformer {
    const c = decodeConfig<{ sortOptions?: SortOptions }>(config, { struct: 'SortOrderTransformerPlugin', fields: { sortOptions: SortOptionsShape } }, SortOrderTransformer.kind);
    return new SortOrderTransformer(c.sortOptions ?? { order: 'legacy' });
  }

  transform(resources: ResourceMap): void {
    const order = this.options.order;
    if (order !== 'fifo' && order !== 'legacy') {
      throw new KustomizeError('KUSTOMIZATION_INVALID', 'the field \'sortOptions.order\' must be one of [fifo, legacy]');
    }
    if (order === 'fifo') {
      if (this.options.legacySortOptions) {
        throw new KustomizeError(
          'KUSTOMIZATION_INVALID',
          "the field 'sortOptions.legacySortOptions' is set but the selected sort order is 'fifo', not 'legacy'",
        );
      }
      return;
    }
    const first = this.options.legacySortOptions ? this.options.legacySortOptions.orderFirst ?? [] : DEFAULT_ORDER_FIRST;
    const last = this.options.legacySortOptions ? this.options.legacySortOptions.orderLast ?? [] : DEFAULT_ORDER_LAST;
    resources.setAll(sortLegacy(resources.resources(), first, last));
  }
}

function sortLegacy(list: readonly Resource[], first: string[], last: string[]): Resource[] {
  const rank = kindRanks(first, last);
  const keyed = list.map((r) => {
    const id = r.id;
    return { r, rank: rank.get(id.kind) ?? 0, gvk: gvkSortKey(id), rest: `${gvkString(id)}|${id.namespace || '~X'}|${id.name || '~N'}` };
  });
  keyed.sort((a, b) => {
    if (a.gvk !== b.gvk) {
      if (a.rank !== b.rank) return a.rank - b.rank;
      return a.gvk < b.gvk ? -1 : 1;
    }
    return a.rest < b.rest ? -1 : a.rest > b.rest ? 1 : 0;
  });
  return keyed.map((k) => k.r);
}

/** Kinds listed first rank below every other kind, in their order; kinds listed last above. */
function kindRanks(first: readonly string[], last: readonly string[]): Map<string, number> {
  const rank = new Map<string, number>();
  first.forEach((k, i) => rank.set(k, i - first.length));
  last.forEach((k, i) => rank.set(k, i + 1));
  return rank;
}

const DEFAULT_RANKS = kindRanks(DEFAULT_ORDER_FIRST, DEFAULT_ORDER_LAST);

/** kustomize's order of GVKs (`Gvk.IsLessThan`): the legacy kind order, then group, version and kind. */
export function compareGvks(a: Partial<Gvk>, b: Partial<Gvk>): number {
  const ra = DEFAULT_RANKS.get(a.kind ?? '') ?? 0;
  const rb = DEFAULT_RANKS.get(b.kind ?? '') ?? 0;
  if (ra !== rb) return ra - rb;
  const ka = gvkSortKey(a);
  const kb = gvkSortKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

function gvkSortKey(g: Partial<Gvk>): string {
  return `${g.group || '~G'}_${g.version || '~V'}_${g.kind || '~K'}`;
}
