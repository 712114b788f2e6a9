import { KustomizeError } from '../errors.js';
import { FieldPathError, specsSelecting, visitField, type FieldSpec, type FieldVisitor } from '../fieldspec/fieldspec.js';
import { FieldSpecsShape } from '../fieldspec/fieldspec.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import type { Transformer } from '../plugins/plugin.js';
import { isMap, isSeq, type YMap } from '../yaml/value.js';
import { decodeConfig } from '../plugins/builtin-config.js';
import { wrongKindMessage } from '../yaml/node.js';

/** Which subjects of (Cluster)RoleBindings get the namespace. */
type RoleBindingSubjects = 'defaultOnly' | 'allServiceAccounts' | 'none';

interface NamespaceConfig {
  namespace: string;
  fieldSpecs: FieldSpec[];
  /** only set namespaces that are empty */
  unsetOnly?: boolean;
  setRoleBindingSubjects?: RoleBindingSubjects;
}

/** Where a namespaced resource's namespace goes (created when missing). */
const METADATA_NAMESPACE: FieldSpec = { path: 'metadata/namespace', create: true };

/**
 * `namespace`: sets `metadata.namespace` of namespaced resources, and the other namespace
 * fields its field specs list (e.g. the namespace of the service an APIService points to).
 */
export class NamespaceTransformer implements Transformer {
  static readonly kind = 'NamespaceTransformer';

  private constructor(readonly config: NamespaceConfig) {}

  static fromConfig(config: YMap): NamespaceTransformer {
    const c = decodeConfig<Partial<NamespaceConfig>>(
      config,
      {
        struct: 'NamespaceTransformerPlugin',
        fields: { namespace: 'string', fieldSpecs: FieldSpecsShape, unsetOnly: 'bool', setRoleBindingSubjects: 'string' },
      },
      NamespaceTransformer.kind,
    );
    const mode = c.setRoleBindingSubjects || 'defaultOnly';
    if (mode !== 'defaultOnly' && mode !== 'allServiceAccounts' && mode !== 'none') {
      throw new KustomizeError(
        'KUSTOMIZATION_INVALID',
        `invalid value "${mode}" for setRoleBindingSubjects: must be one of "defaultOnly", "none" or "allServiceAccounts"`,
      );
    }
    return new NamespaceTransformer({ namespace: c.namespace ?? '', fieldSpecs: c.fieldSpecs ?? [], unsetOnly: c.unsetOnly ?? false, setRoleBindingSubjects: mode });
  }

  transform(resources: ResourceMap): void {
    this.transformSome(resources, resources.resources());
  }

  /** Sets the namespace of `selected`, a subset of `resources`. */
  transformSome(resources: ResourceMap, selected: readonly Resource[]): void {
    const ns = this.config.namespace;
    if (!ns) return;
    const specsFor = specsSelecting(this.config.fieldSpecs.filter((fs) => fs.path !== 'metadata/namespace'));
    const visit: FieldVisitor = (holder, key) => this.setNamespace(holder, key);
    for (const r of selected) {
      // what Helm rendered keeps the namespace Helm gave it (the resource is marked so only by kustomize 5.8 on)
      if (Object.keys(r.view).length === 0 || r.helmGenerated) continue;
      r.storePreviousId();
      const gvk = r.gvk;
      if (!r.id.isClusterScoped) visitField(r.view, METADATA_NAMESPACE, 'scalar', visit);
      const isBinding = gvk.kind === 'RoleBinding' || gvk.kind === 'ClusterRoleBinding';
      if (isBinding) this.setSubjects(r);
      for (const fs of specsFor(gvk)) {
        if (isBinding && fs.path === 'subjects') continue;
        // renaming a Namespace object to the namespace is for the core kind only, not a namespaced CRD of that name
        if (fs.path === 'metadata/name' && !r.id.isClusterScoped) continue;
        visitField(r.view, fs, 'scalar', visit);
      }
    }
    const seen = new Set<string>();
    for (const r of resources) {
      const key = r.id.key;
      if (seen.has(key)) throw new KustomizeError('TRANSFORMER_FAILED', `namespace transformation produces ID conflict: ${r.id}`);
      seen.add(key);
    }
  }

  private setSubjects(r: Resource): void {
    const mode = this.config.setRoleBindingSubjects ?? 'defaultOnly';
    if (mode === 'none') return;
    const subjects = r.ownField('subjects');
    if (!isSeq(subjects)) return;
    try {
      for (const s of subjects) {
        if (!isMap(s)) continue;
        const wanted = mode === 'defaultOnly' ? s['name'] === 'default' : s['kind'] === 'ServiceAccount';
        if (wanted) this.setNamespace(s, 'namespace');
      }
    } catch (e) {
      if (e instanceof FieldPathError) throw new KustomizeError('TRANSFORMER_FAILED', `setting namespace on (cluster)role binding subjects: ${e.message}`);
      throw e;
    }
  }

  /** Sets a namespace field; one holding a map or a list fails (visitField names the field and the object). */
  private setNamespace(holder: YMap, key: string): void {
    const v = holder[key];
    if (isMap(v) || isSeq(v)) throw new FieldPathError(wrongKindMessage('ScalarNode', v));
    if (this.config.unsetOnly && v !== undefined && v !== null && v !== '') return;
    holder[key] = this.config.namespace;
  }
}
