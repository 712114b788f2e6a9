import type { Accumulator } from './accumulator.js';
import type { Loader } from '../load/loader.js';
import type { SortOptions } from '../kinds/kustomization.js';

/**
 * What a directory holds, ready to accumulate: a Kustomization, a Component or a Composition
 * (its kind decides where a parent may use it).
 */
export interface BuildTarget {
  readonly kind: 'Kustomization' | 'Component' | 'Composition';
  readonly loader: Loader;
  /** the output order the directory asks for (only a Kustomization can) */
  readonly sortOptions: SortOptions | undefined;
  /** Accumulates the directory's resources onto `acc` (a component's parent's, a Composition's input), else afresh. */
  accumulate(acc?: Accumulator): Promise<Accumulator>;
}
