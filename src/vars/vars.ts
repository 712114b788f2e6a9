import { KustomizeError } from '../errors.js';
import { specsSelecting, visitField, type FieldSpec } from '../fieldspec/fieldspec.js';
import type { Var } from '../kinds/kustomization.js';
import { ResId, gvkString, parseApiVersion } from '../model/resid.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import { isMap, isSeq, type Value, type YMap } from '../yaml/value.js';
import { expandVars } from './expand.js';
import { fieldValue } from './field-value.js';

/** A var with its defaults applied (`fieldref.fieldpath` defaults to `metadata.name`). */
interface ResolvedVar {
  name: string;
  target: ResId;
  fieldPath: string;
  /** its entry in the kustomization that declared it: `vars[2]` */
  entry: string;
}

function resolvedVar(v: Var, index: number): ResolvedVar {
  const ref = v.objref ?? {};
  const gv = ref.apiVersion ? parseApiVersion(ref.apiVersion) : { group: ref.group ?? '', version: ref.version ?? '' };
  return {
    name: v.name ?? '',
    target: new ResId({ ...gv, kind: ref.kind ?? '' }, ref.name ?? '', ref.namespace ?? ''),
    fieldPath: v.fieldref?.fieldpath || 'metadata.name',
    entry: `vars[${index}]`,
  };
}

/** kustomize's rendering of a var in messages (Go prints the objref as its GVK only). */
function varString(v: ResolvedVar): string {
  return `{${v.name} ${gvkString(v.target)} {${v.fieldPath}}}`;
}

/**
 * Vars declared so far in a build: each names the resource it reads, which is marked at
 * declaration time (by its ids then) so later renames do not lose it.
 */
export class VarSet {
  private readonly vars = new Map<string, ResolvedVar>();

  /** Declares vars of a kustomization against its resources. */
  declare(incoming: Var[], resources: ResourceMap): void {
    for (const [i, raw] of incoming.entries()) {
      const v = resolvedVar(raw, i);
      const t = v.target;
      const exactNamespace = t.namespace !== '' || t.isClusterScoped;
      const matched = resources
        .resources()
        .filter((r) => r.allIds.some((id) => id.sameGvk(t) && id.name === t.name && (!exactNamespace || id.effectiveNamespace === t.effectiveNamespace)));
      if (matched.length > 1) {
        throw new KustomizeError('VAR_FAILED', `found ${matched.length} resId matches for var ${varString(v)} (unable to disambiguate)`);
      }
      if (matched.length === 1) matched[0]!.refVarNames.push(v.name);
    }
    this.add(incoming.map((v, i) => resolvedVar(v, i)));
  }

  /** Adds vars another accumulation declared (a base's). */
  absorb(other: VarSet): void {
    this.add([...other.vars.values()]);
  }

  private add(vars: ResolvedVar[]): void {
    for (const v of vars) {
      if (this.vars.has(v.name)) throw new KustomizeError('VAR_FAILED', `var '${v.name}' already encountered`);
      this.vars.set(v.name, v);
    }
  }

  /** Where the var `name` reads its value: the resource holding it and the field's path, and the var's entry. */
  source(name: string, resources: ResourceMap): { holder: Resource; fieldPath: string; entry: string } | undefined {
    const v = this.vars.get(name);
    const holder = v && resources.resources().find((r) => r.refVarNames.includes(v.name));
    return holder && { holder, fieldPath: v.fieldPath, entry: v.entry };
  }

  get size(): number {
    return this.vars.size;
  }

  /**
   * Replaces `$(VAR)` in the fields the varReference field specs name, with the value each var
   * reads from its resource. Returns the names of vars never used.
   */
  resolve(resources: ResourceMap, fieldSpecs: FieldSpec[]): string[] {
    if (this.vars.size === 0) return [];
    const values = new Map<string, Value>();
    for (const v of [...this.vars.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const holder = resources.resources().find((r) => r.refVarNames.includes(v.name));
      if (!holder) throw new KustomizeError('VAR_FAILED', `var '${varString(v)}' cannot be mapped to a field in the set of known resources`);
      const value = fieldValue(holder.view, v.fieldPath);
      if (value === undefined) throw new KustomizeError('VAR_FAILED', `field specified in var '${varString(v)}' not found in corresponding resource`);
      values.set(v.name, value);
    }
    const used = new Set<string>();
    const lookup = (name: string): Value | undefined => {
      const v = values.get(name);
      if (v !== undefined) used.add(name);
      return v;
    };
    const specsFor = specsSelecting(fieldSpecs);
    for (const r of resources) {
      for (const fs of specsFor(r.gvk)) visitField(r.view, fs, 'lenient', (holder, key) => expandAt(holder, key, lookup));
    }
    return [...values.keys()].filter((n) => !used.has(n));
  }
}

/** Expands vars in the field: a string, a list of strings, or a map's string values. */
function expandAt(node: YMap, key: string, lookup: (name: string) => Value | undefined): void {
  const v = node[key]!;
  if (typeof v === 'string') node[key] = expandVars(v, lookup);
  else if (isSeq(v)) {
    v.forEach((item, i) => {
      if (typeof item !== 'string') throw new KustomizeError('VAR_FAILED', 'invalid value type expect a string');
      v[i] = expandVars(item, lookup);
    });
  } else if (isMap(v)) {
    for (const k of Object.keys(v)) if (typeof v[k] === 'string') v[k] = expandVars(v[k] as string, lookup);
  }
}
