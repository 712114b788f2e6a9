import { KustomizeError } from '../errors.js';
import type { Resource } from '../model/resource.js';
import type { ValuePath, Violation } from '../schema/check.js';
import type { TextPosition } from '../yaml/positions.js';

/** The config a schema refused, and whose schema it was. */
interface RefusedConfig {
  config: Resource;
  /** the config's file as messages name it (relative to the top of the build) */
  configuredIn: string;
  /** whose schema refused it: `example.com/v1 SetReplicas in catalog 'catalog.yaml' (my-catalog)` */
  schema: string;
}

/** Where a refused config is written: its file, absolute, and where each of its values is in it. */
export interface ConfigText {
  file: string;
  /** the position of the value at `path` of the config (of the deepest part of the path written) */
  at(path: ValuePath): TextPosition;
}

/**
 * FUNCTION_CONFIG_INVALID: a catalog function's config its schema refuses; the function was not
 * started. One line per violation, `file:line:column: field of Kind/name: what is wrong (schema
 * of …)`; the error's own file, line, column and field are the first violation's. The resolver
 * knows the config but not where it was written: the build places the error (see
 * {@link FunctionConfigError.placed}).
 */
export class FunctionConfigError extends KustomizeError {
  constructor(
    readonly violations: readonly Violation[],
    readonly refused: RefusedConfig,
    text?: ConfigText,
  ) {
    const first = violations[0]!;
    const at = text?.at(placeOf(first));
    const field = dotted(first.missing === undefined ? first.path : [...first.path, first.missing]);
    super('FUNCTION_CONFIG_INVALID', violations.map((v) => line(v, refused, text)).join('\n'), {
      ...(text && { file: text.file }),
      ...(field && { field }),
      ...(at && { line: at.line, column: at.column }),
    });
  }

  /** The same error, its violations placed in the text the config was written in. */
  placed(text: ConfigText): FunctionConfigError {
    return new FunctionConfigError(this.violations, this.refused, text);
  }
}

/** The path a violation is shown at: a field a config lacks at its top, at the `kind:` that names the function. */
function placeOf(v: Violation): ValuePath {
  return v.kind === 'required' && v.path.length === 0 ? ['kind'] : v.path;
}

function line(v: Violation, refused: RefusedConfig, text: ConfigText | undefined): string {
  const at = text?.at(placeOf(v));
  const { config } = refused;
  const name = config.name ? `${config.kind}/${config.name}` : config.kind;
  const subject = v.path.length === 0 ? name : `${dotted(v.path)} of ${name}`;
  return `${refused.configuredIn}${at ? `:${at.line}:${at.column}` : ''}: ${subject}: ${v.message} (schema of ${refused.schema})`;
}

/** `spec.items[0].name`; a key with a dot in it bracketed, `labels["app.kubernetes.io/name"]`. */
function dotted(path: ValuePath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : p.includes('.') ? `[${JSON.stringify(p)}]` : i === 0 ? p : `.${p}`)).join('');
}
