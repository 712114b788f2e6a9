import { KustomizeError, messageOf } from '../errors.js';
import type { FieldOptions } from '../kinds/kustomization.js';
import type { Selector } from '../model/selector.js';
import { compileGoRegexp, type GoRegexp } from '../model/go-regexp.js';
import { labelsMatch, parseLabelSelector, type LabelRequirement } from '../model/label-selector.js';
import { ResId } from '../model/resid.js';
import type { Resource } from '../model/resource.js';
import type { KustomizeProfile } from '../versions/profiles.js';

/**
 * How replacements pick resources. A resource answers to its current id and to every id it
 * had before (renamed by a prefix, suffix or namespace): the current one with the namespace as
 * written, earlier ones with the effective namespace kustomize recorded.
 *
 * - The source: group, version, kind, name and namespace compared exactly (namespaces by
 *   effective namespace, so "" and "default" are the same); exactly one resource must match.
 * - Targets: `select` and `reject` fields are compared exactly (before kustomize 5.8; the
 *   namespace by effective namespace) or as regular expressions matched against the whole value
 *   (5.8 on), as the build's profile says; a resource is rejected when any of its ids matches any reject entry that names an
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

/** How a target's `select` and `reject` compare a resource's id fields (see {@link KustomizeProfile.replacementTargetSelectors}). */
export type TargetIdMatching = KustomizeProfile['replacementTargetSelectors'];

/** A `select` or `reject` entry compiled: a test per id field it names, plus label/annotation selectors. */
class CompiledSelector {
  private readonly group: ((value: string) => boolean) | undefined;
  private readonly version: ((value: string) => boolean) | undefined;
  private readonly kind: ((value: string) => boolean) | undefined;
  private readonly name: ((value: string) => boolean) | undefined;
  /** tests the id's namespace as written (regular expressions) or its effective namespace (exact) */
  private readonly namespace: ((id: ResId) => boolean) | undefined;
  readonly hasId: boolean;
  readonly labels: LabelRequirement[] | undefined;
  readonly annotations: LabelRequirement[] | undefined;

  constructor(s: Selector, matching: TargetIdMatching) {
    const field = matching === 'exact' ? exact : anchored;
    this.group = field(s.group);
    this.version = field(s.version);
    this.kind = field(s.kind);
    this.name = field(s.name);
    this.namespace = matching === 'exact' ? sameEffectiveNamespace(s.namespace) : regexNamespace(anchored(s.namespace));
    this.hasId = !!(s.group || s.version || s.kind || s.name || s.namespace);
    this.labels = s.labelSelector ? parseLabelSelector(s.labelSelector) : undefined;
    this.annotations = s.annotationSelector ? parseLabelSelector(s.annotationSelector) : undefined;
  }

  get hasLabelOrAnnotation(): boolean {
    return this.labels !== undefined || this.annotations !== undefined;
  }

  matchesId(id: ResId): boolean {
    return (
      (!this.group || this.group(id.group)) &&
      (!this.version || this.version(id.version)) &&
      (!this.kind || this.kind(id.kind)) &&
      (!this.name || this.name(id.name)) &&
      (!this.namespace || this.namespace(id))
    );
  }

  matchesLabelsAndAnnotations(r: Resource): boolean {
    if (this.annotations && !labelsMatch(this.annotations, r.stringMap('annotations'))) return false;
    if (this.labels && !labelsMatch(this.labels, r.stringMap('labels'))) return false;
    return true;
  }
}

/** A field compared exactly, as kustomize before 5.8 compares target selectors (an empty one matches anything). */
function exact(wanted: string | undefined): ((value: string) => boolean) | undefined {
  return wanted ? (value) => value === wanted : undefined;
}

/** A namespace compared by effective namespace before 5.8: `default` and none are one. */
function sameEffectiveNamespace(wanted: string | undefined): ((id: ResId) => boolean) | undefined {
  if (!wanted) return undefined;
  const effective = new ResId({ group: '', version: '', kind: '' }, '', wanted).effectiveNamespace;
  return (id) => id.effectiveNamespace === effective;
}

function regexNamespace(test: ((value: string) => boolean) | undefined): ((id: ResId) => boolean) | undefined {
  return test && ((id) => test(id.namespace));
}

/** A field as a regular expression that must match the whole value (5.8 on). */
function anchored(pattern: string | undefined): ((value: string) => boolean) | undefined {
  if (!pattern) return undefined;
  let re: GoRegexp;
  try {
    re = compileGoRegexp(pattern, true);
  } catch (e) {
    throw new KustomizeError('REPLACEMENT_FAILED', `error creating target selector: ${messageOf(e)}`, { cause: e });
  }
  return (value) => re.test(value);
}

/** A target's `select` and `reject`, compiled once per target. */
export class TargetSelector {
  private readonly select: CompiledSelector;
  private readonly rejects: CompiledSelector[];
  /** the id tests, made once: they run for every resource */
  private readonly selectsId: (id: ResId) => boolean;
  private readonly rejectsId: ((id: ResId) => boolean)[];

  constructor(select: Selector, reject: readonly (Selector | undefined)[], matching: TargetIdMatching) {
    const sel = (this.select = new CompiledSelector(select, matching));
    this.rejects = reject.filter((s): s is Selector => !!s).map((s) => new CompiledSelector(s, matching));
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
