import type { CST } from 'yaml';

/**
 * How deep collections may nest in a YAML document. yaml.v3 stops at 10000, but the `yaml`
 * package's composer recurses and runs out of Node's default stack at about 800 levels (flow
 * collections) to 900 (block ones), as would the code that walks values; real manifests nest
 * a few dozen levels.
 */
export const MAX_NESTING_DEPTH = 500;

/**
 * The offset of the first collection nested deeper than {@link MAX_NESTING_DEPTH} in a
 * document's syntax tree, or undefined. Walks without recursion, so it is safe at any depth.
 */
export function tooDeepAt(document: CST.Document): number | undefined {
  const stack: [CST.Token | null | undefined, number][] = [[document.value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [token, depth] = top;
    if (!token || (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection')) continue;
    if (depth > MAX_NESTING_DEPTH) return token.offset;
    for (const item of token.items) {
      const { key, value } = item as CST.CollectionItem;
      stack.push([key, depth + 1], [value, depth + 1]);
    }
  }
  return undefined;
}
