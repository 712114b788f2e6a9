/**
 * The `$patch` directive of a strategic-merge patch, as kyaml's merge2 reads it: only on maps
 * (`$patch: delete | replace | merge`); a list's directive is always `merge` (kyaml ignores
 * `- $patch: replace` elements, which then stay in the list as ordinary elements).
 */
import { isMap, type Value } from '../yaml/value.js';
import { scalarText } from './smp-list-ops.js';

type SmpDirective = 'merge' | 'replace' | 'delete' | 'unknown';

const PATCH_DIRECTIVE_KEY = '$patch';

/** The answer for the usual node, which has no directive (one frozen object: every node of a walk asks). */
const MERGE = Object.freeze({ directive: 'merge' as const });

/**
 * Reads the directive of a patch node and, when it is a known one, removes the `$patch` key from
 * the node (kyaml elides it, mutating the patch: callers work on a copy of the patch).
 * `unknown` comes with the offending value (kyaml: `unknown patch strategy '<v>'`); a scalar
 * node is `unknown` without a value.
 */
export function takeDirective(patch: Value | undefined): Readonly<{ directive: SmpDirective; value?: string }> {
  if (patch === undefined || Array.isArray(patch)) return MERGE;
  if (!isMap(patch)) return { directive: 'unknown' };
  if (!Object.prototype.hasOwnProperty.call(patch, PATCH_DIRECTIVE_KEY)) return MERGE;
  const v = scalarText(patch[PATCH_DIRECTIVE_KEY]!);
  if (v === 'delete' || v === 'replace' || v === 'merge') {
    delete patch[PATCH_DIRECTIVE_KEY];
    return { directive: v };
  }
  return { directive: 'unknown', value: v };
}
