/**
 * Starlark errors. Every error carries the position (file:line:col) it arose at; runtime
 * errors also carry the Starlark call stack (innermost last), printed as a backtrace.
 */
export interface Position {
  file: string;
  line: number;
  col: number;
}

export function formatPosition(p: Position): string {
  return `${p.file}:${p.line}:${p.col}`;
}

/** The base of every error the interpreter raises; `message` is `file:line:col: msg`. */
export class StarlarkError extends Error {
  constructor(
    readonly pos: Position,
    /** the message without its position */
    readonly msg: string,
  ) {
    super(`${formatPosition(pos)}: ${msg}`);
    this.name = 'StarlarkError';
  }
}

/** A scanner or parser error: the program is not well-formed. */
export class StarlarkSyntaxError extends StarlarkError {
  override name = 'StarlarkSyntaxError';
}

/** One or more name resolution errors, found before the program runs. */
export class StarlarkResolveError extends StarlarkError {
  override name = 'StarlarkResolveError';
  constructor(readonly errors: { pos: Position; msg: string }[]) {
    super(errors[0]!.pos, errors[0]!.msg);
    this.message = errors.map((e) => `${formatPosition(e.pos)}: ${e.msg}`).join('\n');
  }
}

export interface CallFrame {
  /** the function's name (`<toplevel>` for a module's body) */
  name: string;
  /** where in it the error (or the next call) happened */
  pos: Position;
}

/** Why a program was stopped by the host's limits rather than by its own error. */
export type LimitKind = 'steps' | 'deadline' | 'depth' | 'memory';

/** An error while the program runs (including `fail`), with its backtrace. */
export class StarlarkEvalError extends StarlarkError {
  override name = 'StarlarkEvalError';
  constructor(
    pos: Position,
    msg: string,
    readonly backtrace: CallFrame[],
    /** set when the error is one of the host's limits; such errors cannot be caught by a program */
    readonly limit?: LimitKind,
  ) {
    super(pos, msg);
  }

  /** The error with the Starlark call stack, as starlark-go's EvalError.Backtrace prints it. */
  get backtraceText(): string {
    const lines = ['Traceback (most recent call last):'];
    for (const f of this.backtrace) lines.push(`  ${formatPosition(f.pos)}: in ${f.name}`);
    lines.push(`Error: ${this.msg}`);
    return lines.join('\n');
  }
}
