import { KustomizeError, messageOf } from '../errors.js';
import { compileGoRegexp, isLiteral, type GoRegexp } from './go-regexp.js';
import { labelsMatch, parseLabelSelector, type LabelRequirement } from './label-selector.js';
import type { ResourceMap } from './resource-map.js';
import type { Resource } from './resource.js';

/** What a `target`/`select` of a kustomization names: each field a regular expression, or label and annotation selectors. */
export interface Selector {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
  annotationSelector?: string;
}

/** A selector as messages show it: its fields as written, in the order kustomize declares them (`kind: Deployment, name: web-.*`). */
export function describeSelector(s: Selector): string {
  const fields = (['group', 'version', 'kind', 'name', 'namespace', 'labelSelector', 'annotationSelector'] as const).filter((f) => s[f]);
  return fields.length === 0 ? 'any resource' : fields.map((f) => `${f}: ${s[f]}`).join(', ');
}

/**
 * A compiled `target`/`select` selector: group, version, kind, name and namespace are regular
 * expressions matched against the whole value (kustomize anchors them), plus label and
 * annotation selectors. Names and namespaces match the original or the current one.
 */
export class ResourceSelector {
  private readonly group?: GoRegexp;
  private readonly version?: GoRegexp;
  private readonly kind?: GoRegexp;
  private readonly name?: GoRegexp;
  private readonly namespace?: GoRegexp;
  private readonly labels?: LabelRequirement[];
  private readonly annotations?: LabelRequirement[];

  constructor(readonly selector: Selector) {
    this.group = anchored(selector.group);
    this.version = anchored(selector.version);
    this.kind = anchored(selector.kind);
    this.name = anchored(selector.name);
    this.namespace = anchored(selector.namespace);
    if (selector.labelSelector) this.labels = parseLabelSelector(selector.labelSelector);
    if (selector.annotationSelector) this.annotations = parseLabelSelector(selector.annotationSelector);
  }

  matches(r: Resource): boolean {
    const cur = r.id;
    const org = r.originalId;
    if (this.namespace && !this.namespace.test(org.effectiveNamespace) && !this.namespace.test(cur.effectiveNamespace)) return false;
    if (this.name && !this.name.test(org.name) && !this.name.test(cur.name)) return false;
    if (this.group && !this.group.test(cur.group)) return false;
    if (this.version && !this.version.test(cur.version)) return false;
    if (this.kind && !this.kind.test(cur.kind)) return false;
    if (this.labels && !labelsMatch(this.labels, r.stringMap('labels'))) return false;
    if (this.annotations && !labelsMatch(this.annotations, r.stringMap('annotations'))) return false;
    return true;
  }

  select(resources: ResourceMap): Resource[] {
    // a name without metacharacters is looked up: only resources that have had it can match
    const name = this.selector.name;
    const pool = name && isLiteral(name) ? resources.withName(name) : resources.resources();
    return pool.filter((r) => this.matches(r));
  }
}

function anchored(pattern: string | undefined): GoRegexp | undefined {
  if (!pattern) return undefined;
  try {
    return compileGoRegexp(pattern, true);
  } catch (e) {
    throw new KustomizeError('KUSTOMIZATION_INVALID', messageOf(e), { cause: e });
  }
}
