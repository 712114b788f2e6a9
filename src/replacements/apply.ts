import { KustomizeError } from '../errors.js';
import type { Replacement } from '../kinds/kustomization.js';
import type { Resource } from '../model/resource.js';
import type { KustomizeProfile } from '../versions/profiles.js';
import { TargetSelector } from './select.js';
import { DEFAULT_FIELD_PATH, scalarValue, sourceValue, type ReplacementValue } from './source.js';
import { RunState, TargetField } from './target.js';

/** A replacement as kustomize reads it. */
export type ReplacementSpec = Replacement;

/** What of a release's profile replacements follow. */
export type ReplacementBehavior = Pick<KustomizeProfile, 'replacementTargetSelectors' | 'replacementIntoStrings'>;

/**
 * Runs replacements over the resources in order, each on the result of the previous ones:
 * the source value is read, then written to the fields of every resource each target selects.
 * Targets select as `behavior` (the build's profile) says, and their paths run on into strings
 * where it says so. A target that selects nothing (kustomize passes over it) is told to
 * `unmatched` by its replacement's index and its own.
 */
export function applyReplacements(
  resources: readonly Resource[],
  replacements: readonly (ReplacementSpec | undefined)[],
  behavior: ReplacementBehavior,
  unmatched: (replacement: number, target: number) => void = () => undefined,
): void {
  const state = new RunState();
  for (const [i, r] of replacements.entries()) {
    if (!r || (!r.source && r.sourceValue === undefined) || !r.targets) {
      throw new KustomizeError('REPLACEMENT_FAILED', 'replacements must specify a source and at least one target');
    }
    if (r.sourceValue !== undefined && r.source) throw new KustomizeError('REPLACEMENT_FAILED', 'value and resource selectors are mutually exclusive');
    const value: ReplacementValue = r.sourceValue !== undefined ? scalarValue('untagged', r.sourceValue) : sourceValue(resources, r.source!);
    for (const [j, t] of r.targets.entries()) {
      if (!t?.select) throw new KustomizeError('REPLACEMENT_FAILED', 'target must specify resources to select');
      const fieldPaths = t.fieldPaths && t.fieldPaths.length > 0 ? t.fieldPaths : [DEFAULT_FIELD_PATH];
      const fields = fieldPaths.map((fp) => new TargetField(fp, t.options, behavior.replacementIntoStrings));
      const selector = new TargetSelector(t.select, t.reject ?? [], behavior.replacementTargetSelectors);
      let selected = false;
      for (const res of resources) {
        if (!selector.matches(res)) continue;
        selected = true;
        for (const field of fields) field.copy(res, value, state);
      }
      if (!selected) unmatched(i, j);
    }
  }
  state.finish();
}
