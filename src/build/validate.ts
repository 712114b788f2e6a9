/**
 * `validate`: builds a kustomization, checks every resource of its output against its type's
 * schema, and says where each problem was written. A build whose output is valid is built once;
 * one with problems is built again recording who wrote each value (`explain`), to place them.
 */
import { defaultFileSystem } from '../fs/default-fs.js';
import { relative } from '../fs/path.js';
import type { ResourceProvenance } from '../pipeline/provenance.js';
import { checkOptionNames, VALIDATE_ONLY_OPTION_NAMES, type ValidateOnlyOptions } from '../options.js';
import { customSchemasOf, readSchemaPaths, type CustomSchema } from '../schema/custom-schemas.js';
import { kubernetesSchemas } from '../schema/kubernetes.js';
import { SchemaSet } from '../schema/schema-set.js';
import { issuesOf, recordedWriters, warningOf, type ResourceId } from '../validate/attribute.js';
import { checkResources } from '../validate/check-resources.js';
import type { CheckedResource, ValidationReport } from '../validate/report.js';
import type { YMap } from '../yaml/value.js';
import { BUILD_OPTION_NAMES, recordedBuild, type BuildOptions, type BuildResult, type RecordedBuild } from './build.js';

export type ValidateOptions = Omit<BuildOptions, 'provenance'> & ValidateOnlyOptions;

const VALIDATE_OPTION_NAMES = [...BUILD_OPTION_NAMES.filter((n) => n !== 'provenance'), ...VALIDATE_ONLY_OPTION_NAMES];

/** A validation: the report, and the output it is about. */
export interface ValidationResult extends ValidationReport {
  /** each resource of the output, in output order, and how it fared */
  checked: CheckedResource[];
  /** the build validated: what `build()` returns for the same options */
  build: BuildResult;
}

/**
 * Builds the kustomization at `path` as `build()` does (same options, same errors) and checks
 * its output: see {@link ValidationReport}. Files are named relative to the directory built.
 */
export async function validate(path: string, options: ValidateOptions = {}): Promise<ValidationResult> {
  checkOptionNames(options, VALIDATE_OPTION_NAMES, 'validate()');
  return validateWith(path, options, await givenSchemas(options));
}

/** The schemas the options give: Kubernetes' of the version asked for, and those of `schemas`. */
export async function givenSchemas(options: Pick<ValidateOptions, 'kubernetesVersion' | 'schemas' | 'fs' | 'cwd'>): Promise<SchemaSet> {
  const fs = options.fs ?? (await defaultFileSystem());
  const cwd = options.cwd ?? (options.fs ? '/' : process.cwd());
  return new SchemaSet(await kubernetesSchemas(options.kubernetesVersion), readSchemaPaths(fs, options.schemas ?? [], cwd));
}

/** {@link validate} with the schemas the options give already read (`validate --all` reads them once per thread). */
export async function validateWith(path: string, options: ValidateOptions, given: SchemaSet): Promise<ValidationResult> {
  const { kubernetesVersion: _version, strict = false, ignoreMissingSchemas = false, ...buildOptions } = options;
  const built = await recordedBuild(path, buildOptions, 'validate()');
  const set = given.with(declaredSchemas(built));
  const objects = built.resources.map((r) => r.view as YMap);
  const checks = checkResources(objects, set, { strict, ignoreMissingSchemas });
  const ids: ResourceId[] = built.resources.map((r) => ({ apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace, name: r.name }));
  const invalid = checks.some((c) => c.problems.length > 0);
  // only an output with problems is built again, recording who wrote what
  const records = invalid ? await recordsOf(path, buildOptions) : undefined;
  const writers = (i: number) => {
    const id = ids[i]!;
    const record = records?.[i] && sameId(records[i], id) ? records[i] : records?.find((r) => sameId(r, id));
    return record && recordedWriters(record);
  };
  const fallback = (i: number) => {
    const file = built.resources[i]!.sourceFile;
    return file === undefined ? '' : /^https?:\/\//.test(file) ? file : relative(built.buildDir, file);
  };
  return {
    resources: checks.length,
    valid: checks.filter((c) => c.status === 'valid').length,
    skipped: checks.filter((c) => c.status === 'skipped').length,
    errors: issuesOf(checks, ids, writers, fallback),
    warnings: built.result.notices.map(warningOf),
    checked: checks.map((c, i) => ({ ...ids[i]!, status: c.status })),
    build: built.result,
  };
}

function sameId(a: ResourceId, b: ResourceId): boolean {
  return a.apiVersion === b.apiVersion && a.kind === b.kind && a.namespace === b.namespace && a.name === b.name;
}

/** The schemas of the `crds:` files the build read, named relative to the directory built. */
function declaredSchemas(built: RecordedBuild): CustomSchema[] {
  return built.crds.flatMap((c) => customSchemasOf(c.text, relative(built.buildDir, c.file)));
}

/**
 * `explain`'s records of the same build, to place problems; undefined when that build fails
 * (a plugin that makes something else the second time): the problems are then named by their
 * resources' files.
 */
async function recordsOf(path: string, options: BuildOptions): Promise<ResourceProvenance[] | undefined> {
  try {
    return (await recordedBuild(path, { ...options, provenance: true, cache: undefined, warn: undefined }, 'validate()')).result.provenance;
  } catch {
    return undefined;
  }
}
