/**
 * kustomize-ts: `kustomize build` as a library. Runs anywhere JavaScript runs: give it a
 * MemoryFileSystem (or your own FileSystem) and it needs nothing from Node; without one it
 * reads the disk in Node and fails with FILESYSTEM_REQUIRED elsewhere. HTTP resources come
 * through `fetch`; git repositories need Node (REMOTE_UNSUPPORTED elsewhere) unless the
 * `remote` option provides them.
 *
 * ```ts
 * import { build, MemoryFileSystem } from 'kustomize-ts';
 * const { yaml } = await build('/app', { fs: MemoryFileSystem.from({ 'app/kustomization.yaml': '...' }) });
 * ```
 */
export { build, type BuildOptions, type BuildResult, type KubernetesObject, type ObjectMeta } from './build/build.js';
export { BuildCache, type BuildCacheLimits } from './build/build-cache.js';
export { validate, type ValidateOptions, type ValidationResult } from './build/validate.js';
export type { ValidationReport, ValidationIssue, ValidationWarning, CheckedResource, RootReport, ReportFormat } from './validate/report.js';
export { textReport, jsonReport, sarifReport, junitReport } from './validate/report-formats.js';
export { KUBERNETES_VERSIONS, DEFAULT_KUBERNETES_VERSION } from './schema/kubernetes-versions.js';
export { KUSTOMIZE_PROFILES, type KustomizeProfile } from './versions/profiles.js';
export {
  VERSION,
  KUSTOMIZE_VERSION,
  DEFAULT_OPTIONS,
  type ReorderOption,
  type LoadRestrictorOption,
  type ResolvedOptions,
  type InputOptions,
  type PluginOptions,
  type HelmOptions,
  type OutputOptions,
  type CustomTypeOptions,
  type ReleaseOptions,
  type StorageMount,
  type ValidateOnlyOptions,
} from './options.js';
export type { FieldProvenance, ResourceProvenance, WrittenBy, Written } from './pipeline/provenance.js';
export { outputLineOrigins } from './output/provenance-lines.js';
export { KustomizeError, type ErrorCode, type Warning, type WarningCode, type Notice, type NoticeCode } from './errors.js';
export { editKustomization, type EditOptions, type EditResult } from './edit/edit.js';
export type { EditOp } from './edit/ops.js';
export { createKustomization, type CreateOptions, type CreateResult } from './edit/create.js';
export { parseImageArg, type ImageEdit } from './edit/ops/images.js';
export { parseReplicasArg } from './edit/ops/replicas.js';
export { localize, type LocalizeOptions } from './localize/localize.js';
export { lock, type LockAction, type LockOptions, type LockResult } from './edit/lock.js';
export type { LockedInput, LockDifference } from './load/remote/lock-file.js';
export type { LockMode } from './load/remote/locked-source.js';
export type { FileSystem } from './fs/filesystem.js';
export { MemoryFileSystem } from './fs/memory.js';
export type { LoadRestriction } from './load/loader.js';
export type { RemoteSource, RemoteRequestOptions } from './load/remote/remote-source.js';
export { HttpStatusError } from './load/remote/remote-source.js';
export { FetchRemoteSource } from './load/remote/fetch-remote.js';
export type { RepoSpec } from './load/remote/repo-spec.js';
export { Resource, type GenerationBehavior } from './model/resource.js';
export { ResourceMap } from './model/resource-map.js';
export { ResId, type Gvk } from './model/resid.js';
export type { Origin } from './model/origin.js';
export type { Generator, Transformer, Plugin, PluginContext, PluginFactory, PluginRegistration, CustomResourceTypes, CustomResourceSchema, ReplacedList } from './plugins/plugin.js';
export type { PluginResolver } from './plugins/resolver.js';
export type { Value, YMap, YSeq, Scalar } from './yaml/value.js';
export { parseYamlDocuments } from './yaml/parse.js';
export { emitYaml } from './yaml/emit.js';
export { LanguageService, type LanguageServiceOptions, type RootSummary } from './language/service.js';
export { DEFAULT_SETTINGS, type LanguageSettings } from './language/settings.js';
export type { Workspace, Root, FileChange } from './language/workspace.js';
export { PreviewUnavailable, type PreviewError, type PreviewOrigin, type PreviewResult } from './language/preview.js';
export { RenameRefused } from './language/navigation/rename.js';
export { consolidateComposition, type ConsolidateOptions, type ConsolidatedComposition } from './composition/consolidate-path.js';
