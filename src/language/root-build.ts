import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { recordedBuild, type BuildOptions } from '../build/build.js';
import type { BuildCache } from '../build/build-cache.js';
import { validateWith } from '../build/validate.js';
import { KustomizeError, messageOf, type Notice, type Warning } from '../errors.js';
import { AccessLog } from '../fs/access-log.js';
import type { FileSystem } from '../fs/filesystem.js';
import { dirname, resolve } from '../fs/path.js';
import { deprecatedFieldOf } from '../kinds/kustomization.js';
import type { CrdsFile } from '../pipeline/custom-resource-types.js';
import type { SchemaSet } from '../schema/schema-set.js';
import type { ValidationIssue } from '../validate/report.js';
import { fieldPlace, fileStart, isKustomizationFile, placeError, textOf, type Place, type PlacingContext } from './error-place.js';
import { allowingSetting, buildOptionsOf, type LanguageSettings } from './settings.js';
import { firstLineRange, linesOf, tokenRange } from './text-range.js';

/** A problem one root's build found, where it is shown. */
export interface RootDiagnostic extends Place {
  severity: DiagnosticSeverity;
  /** the error's, warning's or notice's code; `SCHEMA_VIOLATION` for a value its schema refuses */
  code: string;
  message: string;
  /** a deprecated field, which `edit fix` in the kustomization's directory migrates (`vars` with `--vars`) */
  fix?: { dir: string; field: string };
}

/** What building (or validating) a root left: its problems, and every path its build asked about (what a change must touch to change it). */
export interface RootOutcome {
  diagnostics: RootDiagnostic[];
  asked: ReadonlySet<string>;
  /** whether the build succeeded: its output can be validated */
  built: boolean;
  /** what the last build that succeeded made (a failed build, and a check, keep it) */
  output?: RootOutput;
  /**
   * a fingerprint of what this build printed, when it succeeded (what `kustomize-ts build`
   * prints): whether a preview changed, without keeping every root's output
   */
  rendered?: string;
}

/** A root's output as features read it (completion, code lens): each resource's ids, and where custom kinds' schemas are. */
export interface RootOutput {
  resources: readonly OutputResource[];
  /** the CustomResourceDefinitions among the resources (plain objects, frozen), and the `crds:` files the build read */
  crds: { objects: readonly object[]; files: readonly CrdsFile[] };
}

/** A resource of a root's output: its type, and its names now and as first read (a target selects by either). */
export interface OutputResource {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  originalName: string;
  originalNamespace: string;
}

/** The code of a value its schema refuses. */
export const SCHEMA_VIOLATION = 'SCHEMA_VIOLATION';

/** What a root's build takes from the workspace. */
interface RootBuildContext {
  fs: FileSystem;
  cache: BuildCache;
  settings: LanguageSettings;
  /** the workspace folder the root is in: relative `schemas` are read from it */
  folder: string;
  /** the schemas validation checks against (read once per folder and settings) */
  schemas: () => Promise<SchemaSet>;
  signal: AbortSignal;
}

/**
 * The file system a root's build reads through: it notes every path asked about, and is, for
 * the cache, the file system it reads (so builds of every root share one cache).
 */
class RootReads extends AccessLog {
  get viewOf(): FileSystem {
    return this.inner;
  }
}

/** Builds the root at `dir` over the editor's files: its error, or its warnings and lints, placed. An aborted build gives nothing. */
export async function buildRoot(dir: string, kustomization: string, ctx: RootBuildContext): Promise<RootOutcome | undefined> {
  let output: RootOutput | undefined;
  let rendered: string | undefined;
  const outcome = await inRoot(dir, kustomization, ctx, async (options) => {
    const { result, resources, crds } = await recordedBuild(dir, options, 'build()');
    rendered = fingerprint(result.yaml);
    output = {
      resources: resources.map((r) => ({ apiVersion: r.apiVersion, kind: r.kind, name: r.name, namespace: r.namespace, originalName: r.originalId.name, originalNamespace: r.originalId.namespace })),
      crds: { objects: resources.filter((r) => r.kind === 'CustomResourceDefinition').map((r) => r.view), files: crds },
    };
    return (placing) => [...result.notices.map((n) => noticeDiagnostic(n, placing)), ...result.warnings.map((w) => warningDiagnostic(w, placing))];
  });
  return outcome && output ? { ...outcome, output, rendered } : outcome;
}

/**
 * A text's fingerprint: its length and 64 bits of hash in two FNV-1a lanes (not WebCrypto's
 * sha256, which pages that are no secure context lack: the service runs there too). A changed
 * rendering goes unnoticed only if its length and both lanes collide.
 */
function fingerprint(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return `${(a >>> 0).toString(16)}${(b >>> 0).toString(16).padStart(8, '0')}:${text.length}`;
}

/**
 * Checks the output of the root at `dir` against its schemas (its build, just made, answered by
 * the cache): the values they refuse, at the lines that wrote them. Placing them builds the root
 * again recording who wrote what, which costs more than the build: so it comes after the build's
 * own problems are told.
 */
export function validateRoot(dir: string, kustomization: string, ctx: RootBuildContext): Promise<RootOutcome | undefined> {
  const { strict, ignoreMissingSchemas, kubernetesVersion } = ctx.settings;
  return inRoot(dir, kustomization, ctx, async (options) => {
    const v = await validateWith(dir, { ...options, strict, ignoreMissingSchemas, kubernetesVersion }, await ctx.schemas());
    return (placing) => v.errors.map((i) => issueDiagnostic(i, placing));
  });
}

/** Runs `run` with the root's build options, noting what it asks of the files; its problems, or the error it failed with, placed. */
async function inRoot(dir: string, kustomization: string, ctx: RootBuildContext, run: (options: BuildOptions) => Promise<(placing: PlacingContext) => RootDiagnostic[]>): Promise<RootOutcome | undefined> {
  const reads = new RootReads(ctx.fs);
  let problems: ((placing: PlacingContext) => RootDiagnostic[]) | undefined;
  let error: unknown;
  try {
    problems = await run({ ...buildOptionsOf(ctx.settings, ctx.folder), fs: reads, cache: ctx.cache, signal: ctx.signal });
  } catch (e) {
    if (ctx.signal.aborted) return undefined;
    error = e;
  }
  const asked = new Set(reads.asked);
  const placing = placingContext(ctx.fs, dir, kustomization, asked);
  return { diagnostics: problems ? problems(placing) : [errorDiagnostic(error, placing)], asked, built: problems !== undefined };
}

/** What placing the problems of a build of the root at `dir` reads: the kustomization files among the paths it asked about. */
export function placingContext(fs: FileSystem, dir: string, kustomization: string, asked: Iterable<string>): PlacingContext {
  return { fs, dir, kustomization, kustomizations: [kustomization, ...[...asked].filter((p) => p !== kustomization && isKustomizationFile(p))] };
}

/** A build's error, where it is shown. */
export function errorDiagnostic(e: unknown, placing: PlacingContext): RootDiagnostic {
  const error = e instanceof KustomizeError ? e : new KustomizeError('INTERNAL', messageOf(e), { cause: e });
  const setting = error.code === 'PLUGIN_DISABLED' || error.code === 'REMOTE_FAILED' ? allowingSetting(error.message) : undefined;
  const message = setting ? `${error.message}\nThe setting ${setting} allows it.` : error.message;
  return { ...placeError(error, placing), severity: DiagnosticSeverity.Error, code: error.code, message };
}

/** A schema problem, at the line that wrote the value. */
function issueDiagnostic(issue: ValidationIssue, placing: PlacingContext): RootDiagnostic {
  const about = `${issue.kind}/${issue.name}: ${issue.pointer ? `${issue.pointer}: ` : ''}${issue.message}`;
  return { ...linePlace(issue, placing), severity: DiagnosticSeverity.Error, code: SCHEMA_VIOLATION, message: about };
}

/** A lint: what kustomize passes over in silence. */
function noticeDiagnostic(notice: Notice, placing: PlacingContext): RootDiagnostic {
  const at = notice.remote ? { file: `${notice.remote}//${notice.file ?? ''}`, line: 0, column: 0 } : { file: notice.file ?? '', line: notice.line ?? 0, column: notice.column ?? 0 };
  return { ...linePlace(at, placing), severity: DiagnosticSeverity.Warning, code: notice.code, message: notice.message };
}

/** kustomize's warnings: a deprecated field at its key, with the fix that migrates it. */
function warningDiagnostic(warning: Warning, placing: PlacingContext): RootDiagnostic {
  const message = warning.message.replace(/^# Warning: /, '');
  const file = warning.file !== undefined && warning.remote === undefined ? resolve(placing.dir, warning.file) : undefined;
  const field = warning.code === 'FIELD_DEPRECATED' ? deprecatedFieldOf(warning.message) : undefined;
  const text = file && textOf(placing.fs, file);
  const range = file && field && text !== undefined ? fieldPlace(text, file, field) : undefined;
  const place = file && range ? { file, range } : linePlace({ file: warning.file ?? '', line: 0, column: 0 }, placing);
  return { ...place, severity: DiagnosticSeverity.Warning, code: warning.code, message, ...(file && field && { fix: { dir: dirname(file), field } }) };
}

/**
 * A problem the build put at a file (relative to the root), line and column (0: it did not say
 * where in the file): a file of a fetched tree, or none, is shown at the root's kustomization.
 */
function linePlace(at: { file: string; line: number; column: number }, placing: PlacingContext): Place {
  if (at.file === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(at.file)) return fileStart(placing.fs, placing.kustomization);
  const file = resolve(placing.dir, at.file);
  const text = textOf(placing.fs, file);
  if (text === undefined) return fileStart(placing.fs, placing.kustomization);
  return { file, range: at.line === 0 ? firstLineRange(linesOf(text)) : tokenRange(linesOf(text), at.line, at.column || 1) };
}
