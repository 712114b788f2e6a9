import { KustomizeError, wrapError } from '../errors.js';
import { fieldSpecSelects, perGvk, visitField, type FieldSpec } from '../fieldspec/fieldspec.js';
import { decodeTransformerConfig, type NameBackReference } from '../fieldspec/transformer-config.js';
import { compareGvks } from '../model/kind-order.js';
import type { Gvk } from '../model/resid.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import type { Transformer } from '../plugins/plugin.js';
import { isMap, isSeq, type Value, type YMap } from '../yaml/value.js';

/**
 * Fixes references by name after renames: when a Deployment refers to ConfigMap `app` and
 * that ConfigMap became `prod-app-5h2k7`, the reference follows. Runs once, at the end of the
 * top-level build, using the ids each resource had before (kept as build state).
 *
 * A referral is chosen among the resources the referrer can see (same namespace,
 * cluster-scoped, or service accounts a RoleBinding names) that once had the referenced name
 * and the referenced kind; ties are broken by the name prefixes and suffixes both received.
 */
export class NameReferenceTransformer implements Transformer {
  static readonly kind = 'NameReferenceTransformer';

  /** kustomize sorts the back references by their GVK: the order fixes are made in, and the first field a failure names */
  private readonly backRefs: NameBackReference[];

  private constructor(backRefs: NameBackReference[]) {
    this.backRefs = [...backRefs].sort((a, b) => compareGvks(a.gvk, b.gvk));
  }

  /** `nameReference:`, written as in a `configurations:` file. */
  static fromConfig(config: YMap): NameReferenceTransformer {
    return new NameReferenceTransformer(decodeTransformerConfig({ nameReference: config['nameReference'] ?? [] }, NameReferenceTransformer.kind).nameReference);
  }

  transform(resources: ResourceMap): void {
    const all = resources.resources();
    const index = new ReferralIndex(all);
    // the (back reference, field spec) pairs that apply to a referrer's original GVK, in config order
    const fixesFor = perGvk((gvk) => this.backRefs.flatMap((backRef) => backRef.fieldSpecs.filter((fs) => fieldSpecSelects(fs, gvk)).map((fs) => ({ fs, target: backRef.gvk }))));
    for (const referrer of all) {
      const original = referrer.originalId;
      let visible: Visibility | undefined;
      // what a referrer may see is worked out once, when it turns out to hold a reference field
      const visibility = () => (visible ??= visibilityFrom(referrer));
      for (const { fs, target } of fixesFor(original)) new ReferenceFix(referrer, fs, target, visibility, index).apply();
    }
  }
}

/** Resources by every name they had before their current one, and by original namespace; in map order. */
class ReferralIndex {
  readonly byPreviousName = new Map<string, Resource[]>();
  readonly byOriginalNamespace = new Map<string, Resource[]>();

  constructor(all: readonly Resource[]) {
    for (const r of all) {
      for (const name of new Set(r.previous.map((p) => p.name))) push(this.byPreviousName, name, r);
      const original = r.originalId;
      if (!original.isClusterScoped) push(this.byOriginalNamespace, original.effectiveNamespace, r);
    }
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

/** Whether the referrer may refer to a resource: cluster-scoped ones, its namespace's, and service accounts its RoleBinding names. */
type Visibility = (r: Resource) => boolean;

function visibilityFrom(referrer: Resource): Visibility {
  const id = referrer.id;
  if (id.isClusterScoped) return () => true;
  const bindingNamespaces = roleBindingNamespaces(referrer);
  const ns = id.effectiveNamespace;
  return (r) => {
    const rid = r.id;
    return rid.isClusterScoped || rid.effectiveNamespace === ns || bindingNamespaces.has(r.namespace);
  };
}

function roleBindingNamespaces(r: Resource): Set<string> {
  const out = new Set<string>();
  if (r.kind !== 'RoleBinding') return out;
  const subjects = r.view['subjects'];
  if (!isSeq(subjects)) return out;
  for (const s of subjects) {
    if (!isMap(s) || !('namespace' in s) || s['kind'] !== 'ServiceAccount') continue;
    const ns = s['namespace'];
    if (typeof ns !== 'string') {
      throw new KustomizeError('RESOURCE_INVALID', `Invalid Input: namespace is blank for resource "${r.id}"\n`);
    }
    out.add(ns);
  }
  return out;
}

/** One field spec of one referrer: updates every name found at its path. */
class ReferenceFix {
  constructor(
    private readonly referrer: Resource,
    private readonly fs: FieldSpec,
    private readonly target: Partial<Gvk>,
    private readonly visibility: () => Visibility,
    private readonly index: ReferralIndex,
  ) {}

  apply(): void {
    // the message is made only on failure: this runs for every reference field of every resource
    try {
      visitField(this.referrer.view, this.fs, 'lenient', (holder, key) => this.fix(holder, key));
    } catch (e) {
      throw wrapError(e, `updating name reference in '${this.fs.path ?? ''}' field of '${this.referrer.id}'`);
    }
  }

  private get visible(): Visibility {
    return this.visibility();
  }

  private fix(node: YMap, key: string): void {
    // kustomize works out what the referrer may see (and refuses blank subject namespaces) as soon as it holds the field
    this.visibility();
    const v = node[key]!;
    if (v === null) return;
    if (isSeq(v)) {
      v.forEach((item, i) => {
        if (isMap(item)) this.setMapping(item);
        else if (item !== null) v[i] = this.newName(item);
      });
    } else if (isMap(v)) this.setMapping(v);
    else node[key] = this.newName(v);
  }

  /** A plain name field. */
  private newName(v: Value): Value {
    const old = typeof v === 'string' ? v : String(v);
    const referral = this.select(old, this.visible, false);
    if (!referral) return v;
    referral.refBy.push(this.referrer.id);
    return referral.name === old ? v : referral.name;
  }

  /** A `{name, namespace}` map (RoleBinding subjects, webhook services). */
  private setMapping(m: YMap): void {
    if (!('name' in m)) throw new KustomizeError('TRANSFORMER_FAILED', `path config error; no 'name' field in node`);
    const old = m['name'];
    const oldName = typeof old === 'string' ? old : String(old);
    const referral = this.select(oldName, this.candidatesInNamespaceOf(m), true);
    if (!referral) return;
    referral.refBy.push(this.referrer.id);
    if (referral.name === oldName && referral.namespace === '') return;
    m['name'] = referral.name;
    if (referral.namespace !== '') m['namespace'] = referral.namespace;
  }

  /** Candidates narrowed to the namespace a `{name, namespace}` reference names: by original namespace if any has it, else by current one. */
  private candidatesInNamespaceOf(m: YMap): Visibility {
    if (!('namespace' in m)) return this.visible;
    const ns = m['namespace'];
    const wanted = typeof ns === 'string' ? ns : String(ns);
    const hasOriginal = (this.index.byOriginalNamespace.get(wanted) ?? []).some(this.visible);
    if (hasOriginal) return (r) => this.visible(r) && !r.originalId.isClusterScoped && r.originalId.effectiveNamespace === wanted;
    return (r) => this.visible(r) && !r.id.isClusterScoped && r.id.effectiveNamespace === wanted;
  }

  private select(oldName: string, pool: Visibility, compareNamespaces: boolean): Resource | undefined {
    const named = this.index.byPreviousName.get(oldName);
    if (!named) return undefined;
    let c = named.filter((r) => pool(r) && r.previousIds.some((id) => fieldSpecSelects(this.target, id)));
    c = c.filter(this.roleRefSieve());
    c = c.filter(this.sameNamespaceSieve());
    if (c.length === 1) return c[0];
    c = c.filter((r) => affixesMatch(r, this.referrer, true));
    if (c.length === 1) return c[0];
    c = c.filter((r) => affixesMatch(r, this.referrer, false));
    if (c.length === 1) return c[0];
    if (c.length === 0) return undefined;
    const first = c[0]!;
    if (c.every((r) => r.name === first.name && (!compareNamespaces || r.namespace === first.namespace))) return first;
    throw new KustomizeError('TRANSFORMER_FAILED', ` found multiple possible referrals: ${c.map((r) => r.id.toString()).join(', ')}`);
  }

  /** A `roleRef/name` refers to the kind and group written beside it. */
  private roleRefSieve(): (r: Resource) => boolean {
    if (!this.fs.path?.endsWith('roleRef/name')) return () => true;
    const roleRef = this.referrer.view['roleRef'];
    if (!isMap(roleRef) || typeof roleRef['apiGroup'] !== 'string' || typeof roleRef['kind'] !== 'string') return () => true;
    const gvk = { group: roleRef['apiGroup'], kind: roleRef['kind'] };
    return (r) => r.previousIds.some((id) => fieldSpecSelects(gvk, id));
  }

  private sameNamespaceSieve(): (r: Resource) => boolean {
    const rid = this.referrer.id;
    if (rid.isClusterScoped) return () => true;
    return (r) => r.id.isClusterScoped || r.kind === 'ServiceAccount' || r.id.effectiveNamespace === rid.effectiveNamespace;
  }
}

/** Whether two resources got the same outermost prefixes and suffixes (`allowEmpty`: none counts as a match). */
function affixesMatch(a: Resource, b: Resource, allowEmpty: boolean): boolean {
  const check = (x: string[], y: string[]) => (allowEmpty && (x.length === 0 || y.length === 0)) || sameEnding(x, y);
  return check(a.namePrefixes, b.namePrefixes) && check(a.nameSuffixes, b.nameSuffixes);
}

function sameEnding(a: string[], b: string[]): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const diff = long.length - short.length;
  if (short.length === 0) return diff === 0;
  for (let i = short.length - 1; i >= 0; i--) if (long[i + diff] !== short[i]) return false;
  return true;
}
