import { KustomizeError } from '../errors.js';
import { withoutLeadingEmpty } from '../fieldspec/fieldspec.js';

/**
 * The field paths of replacements (`spec.template.spec.containers.[name=app].image`): how
 * kustomize splits them into parts and how it reads each part.
 *
 * Splitting: on `.`, ignoring a leading one (`.data.x` is `data.x`); a part ending in `\` keeps the dot (`a\.b` is the key `a.b`); a part
 * opening with `[` runs to the part that closes with `]`, so `[a.b/c]` is one part. Such a
 * bracketed run keeps its brackets when it holds `=` (a list-entry selector) and loses them
 * otherwise (a map key with dots: `metadata.annotations.[a.b/c]`).
 */
export function splitFieldPath(path: string): string[] {
  const pieces = withoutLeadingEmpty(path.split('.'));
  const parts: string[] = [pieces[0]!];
  for (let i = 1; i < pieces.length; i++) {
    const last = parts.length - 1;
    if (parts[last]!.endsWith('\\')) parts[last] = `${parts[last]!.slice(0, -1)}.${pieces[i]!}`;
    else parts.push(pieces[i]!);
  }
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (!part.startsWith('[') || part.endsWith(']')) {
      out.push(part);
      continue;
    }
    const run = [part];
    while (i < parts.length - 1) {
      i++;
      run.push(parts[i]!);
      if (parts[i]!.endsWith(']')) break;
    }
    const joined = run.join('.');
    out.push(joined.includes('=') ? joined : trimBrackets(joined));
  }
  return out;
}

/** Go's `strings.Trim(s, "[]")`. */
function trimBrackets(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && (s[start] === '[' || s[start] === ']')) start++;
  while (end > start && (s[end - 1] === '[' || s[end - 1] === ']')) end--;
  return s.slice(start, end);
}

/** `[name=value]` or `[=value]`: selects list entries. */
export function isListIndex(part: string): boolean {
  return part.startsWith('[') && part.endsWith(']');
}

/** The field and value of a list-entry part: `[name=nginx]` → `name`, `nginx`; `[=-jar]` → ``, `-jar`. */
export function splitIndexNameValue(part: string): [string, string] {
  let inner = part.endsWith(']') ? part.slice(0, -1) : part;
  if (inner.startsWith('[')) inner = inner.slice(1);
  const eq = inner.indexOf('=');
  if (eq < 0) throw new KustomizeError('REPLACEMENT_FAILED', 'list path element must contain fieldName=fieldValue for element to match');
  return [inner.slice(0, eq), inner.slice(eq + 1)];
}

const DECIMAL = /^[+-]?[0-9]+$/;

/** Go's `strconv.Atoi`: an optionally signed decimal integer, or undefined. */
export function goAtoi(part: string): number | undefined {
  if (!DECIMAL.test(part)) return undefined;
  const n = Number(part);
  // out of int64 range: Atoi fails
  if (Math.abs(n) > 9223372036854775807) return undefined;
  return n === 0 ? 0 : n;
}

/** A part that indexes a list in a target path: a non-negative `Atoi` integer (`0`, `+1`, `01`). */
export function isIdxNumber(part: string): boolean {
  const n = goAtoi(part);
  return n !== undefined && n >= 0;
}
