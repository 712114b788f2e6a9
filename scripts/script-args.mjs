// What the scripts that run the shared conformance corpus share: the repository they are in,
// their flags (`--name value`), and where the corpus is (`--corpus DIR`, else ../shared/conformance
// next to the checkout).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const args = process.argv.slice(2);

/** The value after `--name`, or `fallback`. */
export function flag(name, fallback) {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
}

/** The conformance corpus's directory. */
export const corpus = resolve(flag('--corpus', join(repo, '..', 'shared', 'conformance')));
