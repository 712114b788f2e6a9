import { isScalar, type YAMLMap, type YAMLSeq } from 'yaml';

/** What a path becomes in the localized copy. */
export type Rewrite = (value: string) => Promise<string>;

/**
 * Rewrites a string scalar in place (its quoting and comments kept); a value that does not
 * change is left untouched.
 */
async function rewriteNode(node: unknown, rewrite: Rewrite): Promise<void> {
  if (!isScalar(node) || typeof node.value !== 'string') return;
  const value = await rewrite(node.value);
  if (value !== node.value) node.value = value;
}

/** Rewrites the string value under `key` of a map, if there is one. */
export async function rewriteScalar(map: YAMLMap | undefined, key: string, rewrite: Rewrite): Promise<void> {
  await rewriteNode(map?.get(key, true), rewrite);
}

/** Rewrites each string item of a list, in order. */
export async function eachScalar(seq: YAMLSeq | undefined, rewrite: Rewrite): Promise<void> {
  for (const item of seq?.items ?? []) await rewriteNode(item, rewrite);
}
