import { Document, isMap as isYamlMap, isScalar as isYamlScalar, isSeq as isYamlSeq, parseAllDocuments, Scalar, type Node } from 'yaml';
import { KustomizeError } from '../errors.js';
import { goJson, goJsonIndented } from '../yaml/go-json.js';
import { parseYamlDocuments } from '../yaml/parse.js';
import { identicalValues, isMap, type Value, type YMap } from '../yaml/value.js';
import { lookupStep, readSlot, type Slot } from './lookup.js';

/**
 * Replacements into JSON or YAML held in a string (kustomize 5.8.0, #5679). A target path such
 * as `data.config\.json.config.hostname` may run through a resource to a string
 * (`data.config.json`) and on into the document the string holds (`config.hostname`): the
 * string is read as YAML (JSON being YAML), the rest of the path written there, and the string
 * printed again. What this module answers: which string a path reaches, what the string holds,
 * and how it prints after the writes.
 */

/** Where a target path enters a string: the string's place, the index of the first path part inside it, and what it holds. */
interface EmbeddedEntry {
  readonly slot: Slot;
  readonly inside: number;
  readonly document: EmbeddedDocument;
  /** the document's data, which the rest of the path is walked (and written) in */
  readonly data: Value;
}

/**
 * The string a target path reaches before its end, if it holds a document: the path is followed
 * from the resource as a source path is (kyaml's lookup: exact `[name=value]`, the first match),
 * one part at a time, and the first scalar met decides. Undefined when the path leads nowhere
 * or into a value of the wrong kind first (kustomize tries each longer prefix, which fails the
 * same way), when that scalar is no string, or when it holds no YAML.
 */
export function embeddedEntry(root: YMap, parts: readonly string[]): EmbeddedEntry | undefined {
  let cur: Value = root;
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i]!.trim();
    if (part === '') continue;
    let slot: Slot | undefined;
    try {
      slot = lookupStep(cur, part);
    } catch {
      return undefined;
    }
    if (!slot) return undefined;
    const v = readSlot(slot);
    if (typeof v === 'object' && v !== null) {
      cur = v;
      continue;
    }
    if (typeof v !== 'string') return undefined; // a number, boolean or null holds no map or list
    let document: EmbeddedDocument;
    try {
      document = EmbeddedDocument.read(v);
    } catch {
      return undefined;
    }
    return document.data === undefined ? undefined : { slot, inside: i + 1, document, data: document.data };
  }
  return undefined;
}

/** A string read as the YAML it holds: its first document, as data a path can be walked and written in. */
export class EmbeddedDocument {
  private constructor(
    private readonly text: string,
    /** the first document (kustomize reads no further); undefined for a string of no document (blank, or comments only) */
    readonly data: Value | undefined,
  ) {}

  /** Reads `text`; a string that is no YAML is yaml.v3's parse error (`yaml: line 1: …`). */
  static read(text: string): EmbeddedDocument {
    let docs: Value[];
    try {
      docs = parseYamlDocuments(text);
    } catch (e) {
      if (!(e instanceof KustomizeError)) throw e;
      throw new KustomizeError('REPLACEMENT_FAILED', e.message.replace(/^MalformedYAMLError: /, ''), { cause: e });
    }
    return new EmbeddedDocument(text, docs[0]);
  }

  /**
   * The string after the writes into {@link data}: JSON when the string opens with `{` or `[`
   * (Go's encoding: keys sorted, indented by two spaces when the string had a line break and two
   * spaces in a row, else compact), YAML otherwise (as written where nothing was written: key
   * order, quotes, flow collections, comments; two-space indentation, lists not indented under
   * their key, no trailing newline). Undefined where kustomize cannot print it, and so leaves
   * the string as it was: a value that is not of its field's type (`failed`), a number JSON has
   * no form for.
   */
  printed(failed: boolean): string | undefined {
    if (failed || this.data === undefined) return undefined;
    const opening = this.text.trim().charAt(0);
    if (opening === '{' || opening === '[') {
      try {
        return this.text.includes('\n') && this.text.includes('  ') ? goJsonIndented(this.data) : goJson(this.data);
      } catch (e) {
        if (e instanceof KustomizeError) return undefined;
        throw e;
      }
    }
    return this.printedAsYaml(this.data);
  }

  /** The document as YAML: what was written in place, `data` where it differs from what was read. */
  printedAsYaml(data: Value): string {
    const written = parseAllDocuments(this.text);
    const first = (Array.isArray(written) ? written : []).find((d) => d.contents !== null && !isBlankPlain(d.contents));
    const before = EmbeddedDocument.read(this.text).data;
    const out = new Document();
    if (first) {
      out.contents = synced(first.contents, before, data, out) as typeof out.contents;
      out.commentBefore = first.commentBefore;
      out.comment = first.comment;
    } else {
      out.contents = out.createNode(data) as typeof out.contents;
    }
    return out.toString({ indent: 2, indentSeq: false, lineWidth: 0, flowCollectionPadding: false }).trim();
  }
}

function isBlankPlain(n: unknown): boolean {
  return isYamlScalar(n) && n.type === 'PLAIN' && n.value === '' && n.tag === undefined;
}

/**
 * The node for `after`, reusing `node` (which reads as `before`) where they agree, so what was
 * not written keeps how it was written (an alias stays an alias). A scalar written over keeps its
 * quoting and comments.
 */
function synced(node: unknown, before: Value | undefined, after: Value, doc: Document): Node {
  if (identicalValues(before, after) && node) return node as Node;
  if (isMap(after)) {
    if (!isYamlMap(node) || !isMap(before)) return doc.createNode(after);
    for (const key of Object.keys(after)) {
      const pair = node.items.find((p) => isYamlScalar(p.key) && String(p.key.value) === key);
      if (pair && Object.prototype.hasOwnProperty.call(before, key)) pair.value = synced(pair.value, before[key], after[key]!, doc);
      else node.items.push(doc.createPair(key, after[key]));
    }
    return node;
  }
  if (Array.isArray(after)) {
    if (!isYamlSeq(node) || !Array.isArray(before)) return doc.createNode(after);
    for (let i = 0; i < after.length; i++) {
      if (i < before.length && i < node.items.length) node.items[i] = synced(node.items[i], before[i], after[i]!, doc);
      else node.items.push(doc.createNode(after[i]));
    }
    return node;
  }
  if (!isYamlScalar(node)) return doc.createNode(after);
  const fresh = new Scalar(after);
  // kustomize keeps the node's style: a string written over a quoted one is quoted alike
  if (typeof after === 'string' && node.type !== 'PLAIN') fresh.type = node.type;
  fresh.comment = node.comment;
  fresh.commentBefore = node.commentBefore;
  fresh.spaceBefore = node.spaceBefore;
  return fresh;
}
