import { Document, isCollection, isMap, isScalar, YAMLMap, type Node, type Pair, type Scalar } from 'yaml';

/**
 * One top-level field of a kustomization file as its author wrote it: the comment and blank
 * lines above it, and its own lines (the key line to the end of its value, comments inside
 * included), verbatim.
 */
interface WrittenField {
  /** the key as written (`RESOURCES` is a `resources` field to kustomize, which reads keys case-insensitively) */
  key: string;
  /** the comment and blank lines between the field before it and its key line */
  prefix: string;
  /** its lines, from the key line to the end of its value */
  text: string;
  /** how the yaml package prints the field: the same print after the edit means the edit left it alone */
  print: string;
}

/**
 * The text of a kustomization file cut at its top-level fields, so that a rewrite can keep each
 * field the edit left alone exactly as written and the comments between fields where they are.
 * A document that is not a block mapping at the left margin (`{resources: [a]}`, an indented
 * mapping) has no fields to keep: kustomize's own writer recognizes none either.
 */
export class FileLayout {
  private constructor(
    /** the comment and blank lines before the first field (a `---` line dropped, as kustomize does) */
    readonly header: string,
    readonly fields: readonly WrittenField[],
    /** what follows the last field's value (comments at the end of the file) */
    readonly trailer: string,
  ) {}

  static empty(): FileLayout {
    return new FileLayout('', [], '');
  }

  static of(text: string, doc: Document): FileLayout {
    const root = doc.contents;
    const unkept = () => new FileLayout(leadingComments(text, (root as Node | null)?.range?.[0] ?? text.length), [], '');
    if (!isMap(root) || root.flow || root.items.length === 0) return unkept();
    const fields: WrittenField[] = [];
    let end = 0;
    let header = '';
    for (const [i, pair] of root.items.entries()) {
      const start = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      if (start === undefined || lineStart(text, start) !== start) return unkept();
      const gap = text.slice(end, start);
      if (i === 0) header = leadingComments(text, start);
      const fieldEnd = lineEnd(text, Math.max(rangeEnd(pair.key), rangeEnd(pair.value)));
      fields.push({ key: String((pair.key as Scalar).value), prefix: i === 0 ? '' : gap, text: text.slice(start, fieldEnd), print: printField(pair) });
      end = fieldEnd;
    }
    return new FileLayout(header, fields, text.slice(end));
  }
}

/** How the yaml package prints one top-level field on its own. */
export function printField(pair: Pair, options: { kustomizeStyle?: boolean } = {}): string {
  const doc = new Document(null, { version: '1.1' });
  const map = new YAMLMap();
  map.items.push(pair);
  doc.contents = map as unknown as Document['contents'];
  return doc.toString({ lineWidth: 0, indentSeq: !options.kustomizeStyle });
}

/** Whether a field's value (or its key line) carries a comment: comments above its key are not its own. */
export function hasOwnComments(pair: Pair): boolean {
  const key = pair.key as Node | null;
  return (isScalar(key) && !!key.comment) || hasComments(pair.value as Node | null);
}

function hasComments(node: Node | null): boolean {
  if (!node) return false;
  if (node.comment || node.commentBefore) return true;
  if (!isCollection(node)) return false;
  return node.items.some((item) => {
    if (isMap(node)) {
      const pair = item as Pair;
      return hasComments(pair.key as Node | null) || hasComments(pair.value as Node | null);
    }
    return hasComments(item as Node | null);
  });
}

function rangeEnd(node: unknown): number {
  const range = (node as Node | null)?.range;
  return range ? range[2] : 0;
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf('\n', at - 1) + 1;
}

/** `at`, moved to the start of the next line unless it is at the start of one (or the end of the text). */
function lineEnd(text: string, at: number): number {
  if (at === 0 || at >= text.length || text[at - 1] === '\n') return Math.min(at, text.length);
  const nl = text.indexOf('\n', at);
  return nl < 0 ? text.length : nl + 1;
}

/** The lines before `end` that are comments or blank, without document markers (`---`) and directives. */
function leadingComments(text: string, end: number): string {
  return text
    .slice(0, end)
    .split(/(?<=\n)/)
    .filter((line) => /^\s*(#.*)?\r?\n?$/.test(line))
    .join('');
}
