import { type Alias, Composer, isAlias, isMap, isPair, isScalar, isSeq, LineCounter, Parser, type Node as YamlNode } from 'yaml';

/** Where a value is written in a text: 1-based line and column. */
export interface TextPosition {
  line: number;
  column: number;
}

/**
 * Where each value of a YAML document is written: the position of the node, and those of what
 * it holds, by key (a map's) or index (a sequence's). Mirrors the document's values as the
 * parser reads them (an alias's where its anchor is).
 */
export interface PositionTree {
  at: TextPosition;
  children?: Map<string | number, PositionTree>;
}

/**
 * The position trees of the documents of a YAML text, in the order the reader gives the
 * documents (empty ones left out, as it leaves them out); none for a text that does not parse.
 * `offset` moves them: a patch written inline in a kustomization starts on the line after its
 * key, indented.
 */
export function documentPositions(text: string, offset: TextPosition = { line: 1, column: 1 }): PositionTree[] {
  const lines = new LineCounter();
  const composer = new Composer({ schema: 'failsafe', uniqueKeys: false, merge: false, strict: false });
  const trees: PositionTree[] = [];
  try {
    for (const doc of composer.compose(new Parser(lines.addNewLine).parse(text))) {
      const contents = doc.contents;
      if (contents === null || (isScalar(contents) && contents.type === 'PLAIN' && contents.value === '' && contents.tag === undefined)) continue;
      trees.push(tree(contents, { lines, offset, doc, visiting: new Set() }));
    }
  } catch {
    return [];
  }
  return trees;
}

/** What placing the nodes of one document needs; `visiting` stops an alias to a node that holds it. */
interface Placing {
  lines: LineCounter;
  offset: TextPosition;
  doc: Parameters<Alias['resolve']>[0];
  visiting: Set<YamlNode>;
}

function tree(node: YamlNode, placing: Placing): PositionTree {
  // an alias's values are written where its anchor is
  if (isAlias(node)) {
    const target = node.resolve(placing.doc) as YamlNode | undefined;
    if (target && !placing.visiting.has(target)) return tree(target, placing);
  }
  const pos = placing.lines.linePos(node.range?.[0] ?? 0);
  const at = { line: pos.line + placing.offset.line - 1, column: pos.col + placing.offset.column - 1 };
  if (isAlias(node) || isScalar(node)) return { at };
  placing.visiting.add(node);
  const children = new Map<string | number, PositionTree>();
  if (isSeq(node)) node.items.forEach((item, i) => item && children.set(i, tree(item as YamlNode, placing)));
  if (isMap(node)) {
    const merged: YamlNode[] = [];
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const value = pair.value as YamlNode | null;
      if (key === '<<' && isAlias(value)) merged.push(value);
      else if (key === '<<' && isSeq(value) && value.items.every(isAlias)) merged.push(...(value.items as YamlNode[]));
      // a key with no value is placed where the key is written
      else children.set(key, value ? tree(value, placing) : tree(pair.key as YamlNode, placing));
    }
    // a merge key's maps give the keys the map does not write itself, the first map first
    for (const source of merged) {
      for (const [key, child] of tree(source, placing).children ?? []) if (!children.has(key)) children.set(key, child);
    }
  }
  placing.visiting.delete(node);
  return { at, children };
}

/** The position of the value at `path` (keys and indexes), or of the deepest part of the path the tree has. */
export function positionAt(tree: PositionTree, path: readonly (string | number)[]): { at: TextPosition; whole: boolean } {
  let node = tree;
  for (const part of path) {
    const next = node.children?.get(part);
    if (!next) return { at: node.at, whole: false };
    node = next;
  }
  return { at: node.at, whole: true };
}
