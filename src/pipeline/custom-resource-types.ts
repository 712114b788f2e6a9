/**
 * What a build knows of custom resources' types, for strategic-merge patches (`--crd-merge`, and
 * the notices of a build without it): the CRDs among the resources a patch runs on, the `crds:`
 * files of its kustomization and of its bases, the `--schema` files, the `openapi:` file, in this
 * order. Nothing is read before a patch meets a custom resource.
 */
import type { StepNotice, ValuePath } from '../builtins/step-notice.js';
import type { FileSystem } from '../fs/filesystem.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import type { OpenApiSchemaSetting } from '../openapi/schema.js';
import type { ResolvedOptions } from '../options.js';
import type { CustomResourceSchema, CustomResourceTypes, ReplacedList } from '../plugins/plugin.js';
import { crdVersions, isCrd } from '../schema/crd.js';
import { customSchemasOf, readSchemaPaths, type CustomSchema } from '../schema/custom-schemas.js';
import { MergeForms } from '../schema/merge-form.js';
import { isSeq } from '../yaml/value.js';
import type { LocatedStep } from './config-positions.js';

/** A `crds:` entry's file: its text, and its path (absolute). */
export interface CrdsFile {
  readonly text: string;
  readonly file: string;
}

/** The sources of one build, and what it has read of them: each CRD object, file text and schema once. */
export class CustomResourceTypeSources {
  private readonly forms = new MergeForms();
  /** the types a CRD object among the resources defines (none for one that does not read) */
  private readonly crdObjects = new WeakMap<object, readonly CustomSchema[]>();
  /** the types of a `crds:` or `--schema` file, by its text */
  private readonly fileTypes = new Map<string, readonly CustomSchema[]>();

  constructor(
    private readonly options: Readonly<Pick<ResolvedOptions, 'crdMerge' | 'schemas' | 'cwd'>>,
    private readonly fs: FileSystem,
    private readonly openapi: OpenApiSchemaSetting,
  ) {}

  /**
   * What one step sees: the `crds:` files its accumulation has when it runs, and `--schema`
   * (read through the build's file system once per step that needs it, so that the remembered
   * base the step is in records them); `say` gives its notices.
   */
  forStep(crds: () => readonly CrdsFile[], say: (list: ReplacedList) => void): CustomResourceTypes {
    let schemaFiles: readonly CustomSchema[] | undefined;
    return {
      crdMerge: this.options.crdMerge,
      schemaOf: (apiVersion, kind, resources) =>
        this.inResources(apiVersion, kind, resources) ??
        this.found(typeIn(crds().flatMap((c) => this.typesOfFile(c.text, c.file)), apiVersion, kind)) ??
        this.found(typeIn((schemaFiles ??= this.schemaFiles()), apiVersion, kind)) ??
        this.inOpenApi(apiVersion, kind),
      listReplaced: say,
    };
  }

  private inResources(apiVersion: string, kind: string, resources: ResourceMap): CustomResourceSchema | undefined {
    for (const r of resources.customResourceDefinitions()) {
      const type = this.typesOfCrd(r).find((t) => t.apiVersion === apiVersion && t.kind === kind);
      if (type) return { node: this.forms.of(type.node), crd: true };
    }
    return undefined;
  }

  /** The types of a CRD among the resources; none when it does not read as one (it is not ours to judge: `validate` does). */
  private typesOfCrd(r: Resource): readonly CustomSchema[] {
    const obj = r.view;
    let types = this.crdObjects.get(obj);
    if (types === undefined) {
      try {
        const file = r.sourceFile ?? '';
        types = isCrd(obj) ? crdVersions(obj, file).flatMap((v) => (v.schema ? [{ apiVersion: v.apiVersion, kind: v.kind, node: v.schema, file, crd: true }] : [])) : [];
      } catch {
        types = [];
      }
      this.crdObjects.set(obj, types);
    }
    return types;
  }

  /**
   * The types a `crds:` or `--schema` file describes. Without `--crd-merge` (only notices to
   * give) a file that does not read gives none: kustomize reads `crds:` files for field specs
   * alone, and the build must do what kustomize does.
   */
  private typesOfFile(text: string, file: string): readonly CustomSchema[] {
    let types = this.fileTypes.get(text);
    if (types === undefined) {
      try {
        types = customSchemasOf(text, file);
      } catch (e) {
        if (this.options.crdMerge) throw e;
        types = [];
      }
      this.fileTypes.set(text, types);
    }
    return types;
  }

  private schemaFiles(): readonly CustomSchema[] {
    const { schemas, cwd } = this.options;
    return schemas.length === 0 ? [] : readSchemaPaths(this.fs, schemas, cwd ?? '/', (text, file) => [...this.typesOfFile(text, file)]);
  }

  private found(type: CustomSchema | undefined): CustomResourceSchema | undefined {
    return type && { node: this.forms.of(type.node), crd: type.crd };
  }

  private inOpenApi(apiVersion: string, kind: string): CustomResourceSchema | undefined {
    const node = this.openapi.listTypedCustom()?.resourceSchema(apiVersion, kind);
    return node && { node, crd: false };
  }
}

/**
 * The first of `types` that is this type (its apiVersion and kind), else the first that names
 * the kind alone (kustomize's `crds:` form), as validation's `SchemaSet` finds one.
 */
function typeIn(types: readonly CustomSchema[], apiVersion: string, kind: string): CustomSchema | undefined {
  return types.find((t) => t.apiVersion === apiVersion && t.kind === kind) ?? types.find((t) => t.apiVersion === undefined && t.kind === kind);
}


/**
 * A strategic-merge patch's replaced list as its step's notice (`LIST_REPLACED`): at the list in
 * the patch, the patch file the config names (`path`, or an entry of `paths`) or its inline
 * `patch` text.
 */
export function listReplacedNotice(step: LocatedStep | undefined, list: ReplacedList): StepNotice {
  const fields = step?.config.view ?? {};
  const paths = fields['paths'];
  const at: ValuePath = list.patchFile === undefined ? ['patch'] : isSeq(paths) ? ['paths', paths.indexOf(list.patchFile)] : ['path'];
  return {
    code: 'LIST_REPLACED',
    message: list.message,
    at,
    within: { text: list.patchFile === undefined ? 'held' : 'named', document: list.document, path: list.path },
    resource: list.resource,
  };
}
