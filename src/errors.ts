/**
 * Every error kustomize-ts raises is a KustomizeError with a stable `code`, so callers can
 * branch on the kind of failure without parsing messages. Messages follow kustomize's wording
 * where the conformance corpus checks it, and name the file (and field) at fault.
 */
export type ErrorCode =
  | 'YAML_INVALID'
  | 'KUSTOMIZATION_INVALID'
  | 'KUSTOMIZATION_NOT_FOUND'
  | 'COMPOSITION_INVALID'
  | 'FILE_NOT_FOUND'
  | 'FILE_INVALID'
  | 'LOAD_RESTRICTED'
  | 'CYCLE'
  | 'RESOURCE_CONFLICT'
  | 'RESOURCE_NOT_FOUND'
  | 'RESOURCE_INVALID'
  | 'GENERATOR_FAILED'
  | 'TRANSFORMER_FAILED'
  | 'PATCH_FAILED'
  | 'REPLACEMENT_FAILED'
  | 'VAR_FAILED'
  | 'PLUGIN_DISABLED'
  | 'PLUGIN_NOT_FOUND'
  | 'PLUGIN_FAILED'
  | 'VALIDATION_FAILED'
  | 'REMOTE_FAILED'
  | 'REMOTE_INVALID'
  | 'REMOTE_UNSUPPORTED'
  | 'FILESYSTEM_REQUIRED'
  | 'NODE_REQUIRED'
  | 'OUTPUT_FAILED'
  | 'EDIT_INVALID'
  | 'EDIT_CONFLICT'
  /** `edit fix --vars`: a var used where a replacement cannot reach it */
  | 'VARS_UNCONVERTIBLE'
  | 'CATALOG_INVALID'
  | 'CATALOG_UNTRUSTED'
  | 'DIGEST_MISMATCH'
  | 'USAGE'
  /** the caller's `AbortSignal` stopped the build; `cause` is the signal's reason */
  | 'ABORTED';

export interface ErrorContext {
  /** the file at fault, as the user wrote or would recognise it */
  file?: string;
  /** the field at fault, dotted, e.g. `configMapGenerator[0].literals` */
  field?: string;
  cause?: unknown;
}

export class KustomizeError extends Error {
  readonly code: ErrorCode;
  readonly file: string | undefined;
  readonly field: string | undefined;

  constructor(code: ErrorCode, message: string, context: ErrorContext = {}) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.name = 'KustomizeError';
    this.code = code;
    this.file = context.file;
    this.field = context.field;
  }
}

/** The message of any thrown value. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Puts kustomize's context prefix in front of an error's message (`accumulating resources: ...`),
 * keeping its code and file. Non-kustomize errors become TRANSFORMER_FAILED errors.
 */
export function wrapError(e: unknown, prefix: string): KustomizeError {
  if (e instanceof KustomizeError) {
    return new KustomizeError(e.code, `${prefix}: ${e.message}`, { ...(e.file && { file: e.file }), ...(e.field && { field: e.field }), cause: e });
  }
  return new KustomizeError('TRANSFORMER_FAILED', `${prefix}: ${messageOf(e)}`, { cause: e });
}

/** Runs `run`, putting `prefix` in front of any error it throws or rejects with (see {@link wrapError}). */
export function withErrorPrefix<T>(prefix: string, run: () => T): T {
  let out: T;
  try {
    out = run();
  } catch (e) {
    throw wrapError(e, prefix);
  }
  if (out instanceof Promise) {
    return out.catch((e: unknown) => {
      throw wrapError(e, prefix);
    }) as T;
  }
  return out;
}
