import { KustomizeError, messageOf } from '../errors.js';
import type { FieldOptions } from '../kinds/kustomization.js';
import type { Selector } from '../model/selector.js';
import { compileGoRegexp, type GoRegexp } from '../model/go-regexp.js';
import { labelsMatch, parseLabelSelector, type LabelRequirement } from '../model/label-selector.js';
import { ResId } from '../model/resid.js';
import type { Resource } from '../model/resource.js';

/**
 * How replacements pick resources. A resource answers to its current id and to every id it
 * had before (renamed by a prefix, suffix or namespace): the current one with the namespace as
 * written, earlier ones with the effective namespace kustomize recorded.
 *
 * - The source: group, version, kind, name and namespace compared exactly (namespaces by
 *   effective namespace, so "" and "default" are the same); exactly one resource must match.
 * - Targets: `select` and `reject` fields are regular expressions matched against the whole
 *   value; a resource is rejected when any of its ids matches any reject entry that names an
 *   id field, or when it matches a reject entry's label/annotation selector.
 */

export type SourceSelector = Selector & { fieldPath?: string; options?: FieldOptions };

/** Whether the current id or an earlier one satisfies `test` (without an array of the ids: this runs for every resource). */
function someId(r: Resource, test: (id: ResId) => boolean): boolean {
  return test(r.id) || (r.previous.length > 0 && r.previousIds.some(test));
}

function selectorId(s: Selector): ResId {
  return new ResId({ group: s.group ?? '', version: s.version ?? '', kind: s.kind ?? '' }, s.name ?? '', s.namespace ?? '');
}

/** kustomize's rendering of a source selector in messages: `Kind.version.group/name.ns[:fieldPath][:options]`. */
function describeSource(s: SourceSelector): string {
  const parts = [selectorId(s).toString()];
  if (s.fieldPath) parts.push(s.fieldPath);
  const o = s.options;
  if (o && (o.delimiter || o.create)) parts.push(`${o.delimiter ?? ''}(${o.index ?? 0}), create=${o.create ? 'true' : 'false'}`);
  return parts.join(':');
}

/** The id a source selector names, as kustomize prints it. */
export function sourceIdString(s: SourceSelector): string {
  return selectorId(s).toString();
}

/** The one resource the source selects; kustomize's errors for none or several. */
export function selectSource(resources: readonly Resource[], s: SourceSelector): Resource {
  const sel = selectorId(s);
  const selNs = sel.namespace === '' ? '' : sel.effectiveNamespace;
  const selects = (id: ResId) => isSelectedBy(id, sel, selNs);
  let found: Resource | undefined;
  for (const r of resources) {
    if (!someId(r, selects)) continue;
    if (found) throw new KustomizeError('REPLACEMENT_FAILED', `multiple matches for selector ${describeSource(s)}`);
    found = r;
  }
  if (!found) throw new KustomizeError('REPLACEMENT_FAILED', `nothing selected by ${describeSource(s)}`);
  return found;
}

function isSelectedBy(id: ResId, sel: ResId, selEffectiveNs: string): boolean {
  return (
    (sel.name === '' || sel.name === id.name) &&
    (sel.namespace === '' || selEffectiveNs === id.effectiveNamespace) &&
    (sel.group === '' || sel.group === id.group) &&
    (sel.version === '' || sel.version === id.version) &&
    (sel.kind === '' || sel.kind === id.kind)
  );
}

/** A `select` or `reject` entry compiled: anchored regular expressions plus label/annotation selectors. */
class RegexSelector {
  private readonly group: GoRegexp | undefined;
  private readonly version: GoRegexp | undefined;
  private readonly kind: GoRegexp | undefined;
  private readonly name: GoRegexp | undefined;
  private readonly namespace: GoRegexp | undefined;
  readonly hasId: boolean;
  readonly labels: LabelRequirement[] | undefined;
  readonly annotations: LabelRequirement[] | undefined;

  constructor(s: Selector) {
    this.group = anchored(s.group);
    this.version = anchored(s.version);
    this.kind = anchored(s.kind);
    this.name = anchored(s.name);
    this.namespace = anchored(s.namespace);
    this.hasId = !!(s.group || s.version || s.kind || s.name || s.namespace);
    this.labels = s.labelSelector ? parseLabelSelector(s.labelSelector) : undefined;
    this.annotations = s.annotationSelector ? parseLabelSelector(s.annotationSelector) : undefined;
  }

  get hasLabelOrAnnotation(): boolean {
    return this.labels !== undefined || this.annotations !== undefined;
  }

  matchesId(id: ResId): boolean {
    return (
      (!this.group || this.group.test(id.group)) &&
      (!this.version || this.version.test(id.version)) &&
      (!this.kind || this.kind.test(id.kind)) &&
      (!this.name || this.name.test(id.name)) &&
      (!this.namespace || this.namespace.test(id.namespace))
    );
  }

  matchesLabelsAndAnnotations(r: Resource): boolean {
    if (this.annotations && !labelsMatch(this.annotations, r.stringMap('annotations'))) return false;
    if (this.labels && !labelsMatch(this.labels, r.stringMap('labels'))) return false;
    return true;
  }
}

function anchored(pattern: string | undefined): GoRegexp | undefined {
  if (!pattern) return undefined;
  try {
    return compileGoRegexp(pattern, true);
  } catch (e) {
    throw new KustomizeError('REPLACEMENT_FAILED', `error creating target selector: ${messageOf(e)}`, { cause: e });
  }
}

/** A target's `select` and `reject`, compiled once per target. */
export class TargetSelector {
  private readonly select: RegexSelector;
  private readonly rejects: RegexSelector[];
  /** the id tests, made once: they run for every resource */
  private readonly selectsId: (id: ResId) => boolean;
  private readonly rejectsId: ((id: ResId) => boolean)[];

  constructor(select: Selector, reject: readonly (Selector | undefined)[] = []) {
    const sel = (this.select = new RegexSelector(select));
    this.rejects = reject.filter((s): s is Selector => !!s).map((s) => new RegexSelector(s));
    this.selectsId = (id) => sel.matchesId(id);
    this.rejectsId = this.rejects.filter((rej) => rej.hasId).map((rej) => (id: ResId) => rej.matchesId(id));
  }

  matches(r: Resource): boolean {
    if (!this.select.matchesLabelsAndAnnotations(r)) return false;
    for (const rej of this.rejects) if (rej.hasLabelOrAnnotation && rej.matchesLabelsAndAnnotations(r)) return false;
    for (const rejects of this.rejectsId) if (someId(r, rejects)) return false;
    return someId(r, this.selectsId);
  }
}
