import { KustomizeError } from '../errors.js';
import type { SortOptions } from '../kinds/kustomization.js';
import { DEFAULT_ORDER_FIRST, DEFAULT_ORDER_LAST, gvkSortKey, kindRanks } from '../model/kind-order.js';
import { gvkString } from '../model/resid.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import type { Transformer } from '../plugins/plugin.js';
import { decodeConfig } from '../plugins/builtin-config.js';
import { SortOptionsShape } from '../kinds/shapes.js';
import type { YMap } from '../yaml/value.js';
import type { KustomizeProfile } from '../versions/profiles.js';

/**
 * `sortOptions` (and `--reorder`): `fifo` keeps the accumulation order; `legacy` sorts by
 * kind priority, then GVK, then namespace and name. Applied to the top-level build only.
 */
export class SortOrderTransformer implements Transformer {
  static readonly kind = 'SortOrderTransformer';

  private constructor(
    readonly options: SortOptions,
    private readonly namespaceKinds: NamespaceKinds,
  ) {}

  /** `sortOptions:` as in a kustomization; without it, the legacy order. Kinds named `Namespace` are ordered as `namespaceKinds` says (the build's profile). */
  static fromConfig(config: YMap, namespaceKinds: NamespaceKinds): SortOrderTransformer {
    const c = decodeConfig<{ sortOptions?: SortOptions }>(config, { struct: 'SortOrderTransformerPlugin', fields: { sortOptions: SortOptionsShape } }, SortOrderTransformer.kind);
    return new SortOrderTransformer(c.sortOptions ?? { order: 'legacy' }, namespaceKinds);
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
    resources.setAll(sortLegacy(resources.resources(), first, last, this.namespaceKinds));
  }
}

type NamespaceKinds = KustomizeProfile['namespaceKinds'];

function reversedNamespaces(a: Resource, b: Resource): boolean {
  return a.id.kind === 'Namespace' && b.id.kind === 'Namespace' && (a.id.group === '' || b.id.group === '');
}

function sortLegacy(list: readonly Resource[], first: readonly string[], last: readonly string[], namespaceKinds: NamespaceKinds): Resource[] {
  const rank = kindRanks(first, last);
  const keyed = list.map((r) => {
    const id = r.id;
    return { r, rank: rank.get(id.kind) ?? 0, gvk: gvkSortKey(id), rest: `${gvkString(id)}|${id.namespace || '~X'}|${id.name || '~N'}` };
  });
  keyed.sort((a, b) => {
    if (a.gvk !== b.gvk) {
      if (a.rank !== b.rank) return a.rank - b.rank;
      // two Namespace kinds, one of the core group: kustomize reverses their order, so the core Namespace comes before a custom one
      if (namespaceKinds === 'core-first' && reversedNamespaces(a.r, b.r)) return a.gvk > b.gvk ? -1 : 1;
      return a.gvk < b.gvk ? -1 : 1;
    }
    return a.rest < b.rest ? -1 : a.rest > b.rest ? 1 : 0;
  });
  return keyed.map((k) => k.r);
}
