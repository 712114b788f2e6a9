import type { Gvk } from './resid.js';

/** kustomize's fixed "legacy" order: kinds with no dependencies first, webhooks last. */
export const DEFAULT_ORDER_FIRST: readonly string[] = [
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
export const DEFAULT_ORDER_LAST: readonly string[] = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];

/** Kinds listed first rank below every other kind, in their order; kinds listed last above. */
export function kindRanks(first: readonly string[], last: readonly string[]): Map<string, number> {
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

/** A GVK as kustomize's legacy order compares it, empty parts last. */
export function gvkSortKey(g: Partial<Gvk>): string {
  return `${g.group || '~G'}_${g.version || '~V'}_${g.kind || '~K'}`;
}
