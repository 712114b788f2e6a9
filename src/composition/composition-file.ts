import { KustomizeError } from '../errors.js';
import { COMPOSITION_FILE_NAMES, compositionFilesIn } from '../load/entry.js';
import type { Loader } from '../load/loader.js';

/** The name of the Composition file in the loader's directory, if there is one; more than one is an error. */
export function findCompositionFile(loader: Loader): string | undefined {
  const found = compositionFilesIn(loader.fs, loader.root);
  if (found.length > 1) {
    throw new KustomizeError('COMPOSITION_INVALID', `Found multiple composition files under: ${loader.root} (${found.join(', ')})`, { file: loader.root });
  }
  return found[0];
}

/** The name of the Composition file in the loader's directory; an error naming the directory when there is none. */
export function requireCompositionFile(loader: Loader): string {
  const name = findCompositionFile(loader);
  if (name === undefined) {
    throw new KustomizeError(
      'KUSTOMIZATION_NOT_FOUND',
      `unable to find one of ${COMPOSITION_FILE_NAMES.map((n) => `'${n}'`).join(', ')} in directory '${loader.root}'`,
      { file: loader.root },
    );
  }
  return name;
}
