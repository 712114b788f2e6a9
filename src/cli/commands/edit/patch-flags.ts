import type { Patch } from '../../../kinds/kustomization.js';
import type { Selector } from '../../../model/selector.js';
import type { FlagSpec, FlagValue } from '../../flags.js';
import { stringFlag } from './edit-command.js';

/** The flags `edit add patch` and `edit remove patch` share: the patch and its target. */
export const PATCH_FLAGS: FlagSpec[] = [
  { name: 'path', type: 'string', help: 'Path to the patch file. Cannot be used with --patch at the same time.' },
  { name: 'patch', type: 'string', help: 'Literal string of patch content. Cannot be used with --path at the same time.' },
  { name: 'group', type: 'string', help: 'API group in patch target' },
  { name: 'version', type: 'string', help: 'API version in patch target' },
  { name: 'kind', type: 'string', help: 'Resource kind in patch target' },
  { name: 'name', type: 'string', help: 'Resource name in patch target' },
  { name: 'namespace', type: 'string', help: 'Resource namespace in patch target' },
  { name: 'annotation-selector', type: 'string', help: 'annotationSelector in patch target' },
  { name: 'label-selector', type: 'string', help: 'labelSelector in patch target' },
];

const TARGET_FIELDS: [string, keyof Selector][] = [
  ['group', 'group'],
  ['version', 'version'],
  ['kind', 'kind'],
  ['name', 'name'],
  ['namespace', 'namespace'],
  ['annotation-selector', 'annotationSelector'],
  ['label-selector', 'labelSelector'],
];

export function patchFromFlags(flags: Map<string, FlagValue>): Patch {
  const target: Selector = {};
  for (const [flag, field] of TARGET_FIELDS) {
    const v = stringFlag(flags, flag);
    if (v) target[field] = v;
  }
  return {
    ...(stringFlag(flags, 'path') && { path: stringFlag(flags, 'path') }),
    ...(stringFlag(flags, 'patch') && { patch: stringFlag(flags, 'patch') }),
    ...(Object.keys(target).length > 0 && { target }),
  };
}
