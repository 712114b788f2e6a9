import { throwIfAborted } from '../abort.js';
import { KustomizeError, type ErrorCode, type Warning } from '../errors.js';
import { isRelativePath, join, normalize } from '../fs/path.js';
import type { RemoteInput } from '../load/remote/remote-source.js';
import type { YMap } from '../yaml/value.js';
import { build, type BuildOptions } from './build.js';

/** What one root of `buildAll` gave: its output as `build` prints it, or its error. */
export type RootResult = RootBuilt | RootFailed;

export interface RootBuilt {
  /** the root, relative to the top `buildAll` was given (`.` for the top itself) */
  path: string;
  ok: true;
  /** exactly what `build` prints */
  yaml: string;
  warnings: Warning[];
  /** the local files the build read, relative to the top, sorted */
  inputs: string[];
  /** the remote references it read, with what each resolved to */
  remote: RemoteInput[];
  /** how long its build took */
  ms: number;
}

export interface RootFailed {
  path: string;
  ok: false;
  /** the build's error: its code and message as `build` reports them, the file relative to the top */
  error: { code: ErrorCode; message: string; file?: string; field?: string; line?: number; column?: number; remote?: string };
  ms: number;
}

/** A root's error, its file relative to the top (as `RootFailed` has it). */
export type RootError = RootFailed['error'];

/** One root's build, as a result: its paths relative to the top; whether the files it read are all its output depends on; and (`withObjects`) its objects. */
export async function buildRoot(dir: string, path: string, options: BuildOptions, withObjects = false): Promise<{ result: RootResult; complete: boolean; objects?: YMap[] }> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  try {
    const r = await build(path === '.' ? dir : join(dir, path), options);
    const warnings = r.warnings.map((w) => placedFromTop(path, w));
    const result: RootBuilt = { path, ok: true, yaml: r.yaml, warnings, inputs: r.inputs.map((f) => fromTop(path, f)), remote: r.remote, ms: ms() };
    return { result, complete: r.inputsComplete, ...(withObjects && { objects: r.objects as unknown as YMap[] }) };
  } catch (e) {
    throwIfAborted(options.signal);
    const error = e instanceof KustomizeError ? placedFromTop(path, { code: e.code, message: e.message, ...e.context }) : { code: 'INTERNAL' as const, message: String(e) };
    return { result: { path, ok: false, error, ms: ms() }, complete: decidedByFiles(error.code, options) };
  }
}

/**
 * The errors whose cause is in the files a build read: the same files fail the same way. The
 * rest come from the outside (a fetch, a process, git, the caller), or from a build that may have
 * run a program before it failed.
 */
const FILE_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'YAML_INVALID',
  'KUSTOMIZATION_INVALID',
  'KUSTOMIZATION_NOT_FOUND',
  'COMPOSITION_INVALID',
  'FILE_NOT_FOUND',
  'FILE_INVALID',
  'LOAD_RESTRICTED',
  'CYCLE',
  'RESOURCE_CONFLICT',
  'RESOURCE_NOT_FOUND',
  'RESOURCE_INVALID',
  'GENERATOR_FAILED',
  'TRANSFORMER_FAILED',
  'PATCH_FAILED',
  'REPLACEMENT_FAILED',
  'VAR_FAILED',
  'PLUGIN_DISABLED',
  'PLUGIN_NOT_FOUND',
  'VALIDATION_FAILED',
  'CATALOG_INVALID',
  'FUNCTION_CONFIG_INVALID',
]);

/** Whether a failed build's error is decided by the files it read: a file error, when no plugin that reads files unseen could have run. */
function decidedByFiles(code: ErrorCode, options: BuildOptions): boolean {
  const programs = options.enablePlugins || options.enableExec || (options.plugins?.length ?? 0) > 0;
  return !programs && FILE_ERRORS.has(code);
}

/** What names a file relative to the root at `path` (under the top), naming it relative to the top; a file of a fetched tree stays as it is. */
export function placedFromTop<T extends { file?: string; remote?: string }>(path: string, place: T): T {
  return place.file === undefined || place.remote || !isRelativePath(place.file) ? place : { ...place, file: fromTop(path, place.file) };
}

/** A path relative to the root at `path` (under the top), made relative to the top. */
export function fromTop(path: string, file: string): string {
  return path === '.' ? file : normalize(`${path}/${file}`);
}
