import { KustomizeError, messageOf } from '../errors.js';
import type { FieldOptions } from '../kinds/kustomization.js';
import { resolvePlainScalar } from '../yaml/resolve.js';
import { isMap, markUntagged, setKey, untaggedText, type Value, type YMap, type YSeq } from '../yaml/value.js';
import { goAtoi, isIdxNumber, isListIndex, splitFieldPath, splitIndexNameValue } from './field-path.js';
import { decodeTagged, isScalar, nodeString, nodeText, tagOf, wrongKindMessage } from '../yaml/node.js';
import { scalarValue, type ReplacementValue } from './source.js';
import { compileGoRegexp, type GoRegexp } from '../model/go-regexp.js';
import type { Resource } from '../model/resource.js';
import { readSlot as read, writeSlot as write, type Slot } from './lookup.js';
import { EmbeddedDocument, embeddedEntry } from './embedded.js';

/**
 * What one run of the transformer remembers across replacements.
 *
 * - Scalars kustomize created: they have no tag, so text written to them later is read as
 *   plain YAML again; their text is kept as written, on the value (markUntagged), where later
 *   runs see it too.
 * - Text that cannot have its field's type (`"abc"` into an integer): kustomize only fails on
 *   it when it next decodes the resource, after the run, so the failure waits until then and
 *   errors found meanwhile come first.
 */
export class RunState {
  private failure: KustomizeError | undefined;

  mark(slot: Slot, text: string): void {
    markUntagged(slot.parent, slot.key, text);
  }

  textAt(slot: Slot): string | undefined {
    return untaggedText(slot.parent, slot.key, resolvePlainScalar);
  }

  /** Writes what `decode` gives; if it fails, the text for now and the failure for later. */
  writeDecoded(slot: Slot, text: string, decode: () => Value): void {
    try {
      write(slot, decode());
    } catch (e) {
      if (!(e instanceof KustomizeError)) throw e;
      write(slot, text);
      this.failure ??= e;
    }
  }

  /** Whether a failure waits for the end of the run. */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Throws the first failure left for the end of the run. */
  finish(): void {
    if (this.failure) throw this.failure;
  }
}

type CreateKind = ReplacementValue['kind'] | undefined;

/**
 * kyaml's PathMatcher: every field a target path names in `root`. Parts are map keys,
 * non-negative list indexes, `*` (every entry of a list) and `[field=regex]` / `[=regex]`
 * (entries whose field, or which themselves, printed as YAML, match the unanchored regular
 * expression). With `create` set, missing map keys are added, a list index one past the end
 * appends, and a list-entry selector that matches nothing appends an entry made from it; the
 * last part is created as a node of the kind `create` names. Containers created inside a
 * null value are lost (kustomize appends them to the null node, which prints as null).
 *
 * With `intoStrings` (kustomize 5.8 on, #5679) a string met before the path's end is read as the
 * YAML it holds and the path walked on in a copy (see {@link detached}).
 */
class PathMatcher {
  constructor(
    private readonly path: readonly string[],
    private readonly create: CreateKind,
    private readonly state: RunState,
    private readonly intoStrings: boolean,
  ) {}

  match(root: Value): Slot[] {
    const out: Slot[] = [];
    this.filter(root, undefined, 0, out);
    return out;
  }

  private filter(node: Value, slot: Slot | undefined, i: number, out: Slot[]): void {
    if (i === this.path.length) {
      if (slot) out.push(slot);
      return;
    }
    const part = this.path[i]!;
    if (isIdxNumber(part)) this.index(node, goAtoi(part)!, i, out);
    else if (isListIndex(part)) this.entries(node, part, i, out);
    else if (part === '*') {
      const list = elements(node);
      for (let j = 0; j < list.length; j++) this.filter(list[j]!, { parent: list, key: j }, i + 1, out);
    } else this.field(node, part, i, out);
  }

  private field(node: Value, name: string, i: number, out: Slot[]): void {
    if (node !== null && !isMap(node)) throw new KustomizeError('REPLACEMENT_FAILED', wrongKindMessage('MappingNode', node));
    if (node !== null && Object.prototype.hasOwnProperty.call(node, name)) {
      const child = node[name]!;
      if (this.intoStrings && typeof child === 'string' && i + 1 < this.path.length) this.detached(child, i + 1, out);
      else this.filter(child, { parent: node, key: name }, i + 1, out);
      return;
    }
    if (!this.create) return;
    const parent: YMap = node ?? {};
    const slot = { parent, key: name };
    this.put(slot, i, (v) => setKey(parent, name, v));
    this.filter(read(slot), slot, i + 1, out);
  }

  private index(node: Value, idx: number, i: number, out: Slot[]): void {
    const list = node === null ? [] : elements(node);
    if (list.length === idx && this.create) this.put({ parent: list, key: idx }, i, (v) => list.push(v));
    if (list.length < idx + 1) throw new KustomizeError('REPLACEMENT_FAILED', `index ${idx} specified but only ${list.length} elements found`);
    this.filter(list[idx]!, { parent: list, key: idx }, i + 1, out);
  }

  private entries(node: Value, part: string, i: number, out: Slot[], retry = false): void {
    const [field, pattern] = splitIndexNameValue(part);
    const list = node === null ? [] : elements(node);
    const found: Slot[] = [];
    let re: GoRegexp | undefined;
    const test = (v: Value): boolean => (re ??= compileGoRegexp(pattern, false)).test(nodeString(v));
    for (let j = 0; j < list.length; j++) {
      const e = list[j]!;
      if (field === '') {
        // a primitive match is the entry itself, whatever the rest of the path
        if (test(e)) found.push({ parent: list, key: j });
      } else if (isMap(e) && Object.prototype.hasOwnProperty.call(e, field) && test(e[field]!)) {
        this.filter(e, { parent: list, key: j }, i + 1, found);
      }
    }
    out.push(...found);
    if (found.length > 0 || !this.create || retry) return;
    const value = resolvePlainScalar(pattern);
    if (field === '') {
      this.state.mark({ parent: list, key: list.length }, pattern);
      list.push(value);
    } else {
      const entry: YMap = {};
      setKey(entry, field, value);
      this.state.mark({ parent: entry, key: field }, pattern);
      list.push(entry);
    }
    this.entries(list, part, i, out, true);
  }

  /**
   * kustomize 5.8 walks the path from part `i` on in the document a string holds, read anew:
   * the fields found count as found, but what is written there is lost. A string that is no YAML
   * fails with the parse error. The walk starts at the document itself, which is no list to an
   * index, `*` or `[field=value]`, and is no node at all for a string of no document.
   */
  private detached(text: string, i: number, out: Slot[]): void {
    const document = EmbeddedDocument.read(text);
    const part = this.path[i]!;
    const listPart = isIdxNumber(part) || isListIndex(part) || part === '*';
    if (document.data === undefined) throw new KustomizeError('REPLACEMENT_FAILED', `wrong node kind: expected ${listPart ? 'SequenceNode' : 'MappingNode'} but got `);
    if (listPart) throw new KustomizeError('REPLACEMENT_FAILED', `wrong node kind: expected SequenceNode but got DocumentNode: node contents:\n${document.printedAsYaml(document.data)}`);
    const found = new PathMatcher(this.path.slice(i), this.create, new RunState(), true).match(document.data);
    for (const slot of found) out.push({ ...slot, detached: true });
  }

  /** Creates the node for path part `i` at `slot`: the kind the next part needs, or `create` for the last. */
  private put(slot: Slot, i: number, add: (v: Value) => void): void {
    const next = i + 1 < this.path.length ? this.path[i + 1]! : '';
    if (isListIndex(next) || isIdxNumber(next)) add([]);
    else if (next !== '' || this.create === 'map') add({});
    else if (this.create === 'seq') add([]);
    else {
      add(null);
      this.state.mark(slot, '');
    }
  }
}

function elements(v: Value): YSeq {
  if (v === null) return [];
  if (!Array.isArray(v)) throw new KustomizeError('REPLACEMENT_FAILED', wrongKindMessage('SequenceNode', v));
  return v;
}

/**
 * A field path of a replacement target, split once for all the resources the target selects.
 * With `intoStrings` (kustomize 5.8 on, #5679) the path may go on into JSON or YAML held in a
 * string field (see embedded.ts).
 */
export class TargetField {
  private parts: readonly string[] | undefined;

  constructor(
    private readonly fieldPath: string,
    private readonly options: FieldOptions | undefined,
    private readonly intoStrings: boolean,
  ) {}

  /** Copies `value` into every field the path names in the resource (kustomize's copyValueToTarget). */
  copy(target: Resource, value: ReplacementValue, state: RunState): void {
    const create: CreateKind = this.options?.create ? value.kind : undefined;
    const parts = (this.parts ??= splitFieldPath(this.fieldPath));
    // what the path can write lies below its leading map keys
    const firstSelector = parts.findIndex((p) => isIdxNumber(p) || isListIndex(p) || p === '*');
    target.ownPath(firstSelector < 0 ? parts : parts.slice(0, firstSelector));
    if (this.intoStrings && copyIntoString(target.view, parts, value, create, state)) return;
    let slots: Slot[];
    try {
      slots = new PathMatcher(parts, create, state, this.intoStrings).match(target.view);
    } catch (e) {
      throw new KustomizeError('REPLACEMENT_FAILED', `${this.notFound(create)}: ${messageOf(e)}`, { cause: e });
    }
    if (slots.length === 0) throw new KustomizeError('REPLACEMENT_FAILED', this.notFound(create));
    for (const slot of slots) if (!slot.detached) setFieldValue(slot, value, this.options, state);
  }

  private notFound(create: CreateKind): string {
    return `unable to find${create ? ' or create' : ''} field ${JSON.stringify(this.fieldPath)} in replacement target`;
  }
}

/**
 * kustomize 5.8's first try at a target path: into the document a string on the path holds (see
 * {@link embeddedEntry}), the string printed again with the value in place. The value goes in
 * whole there (`delimiter` and `index` are not read), a scalar keeping its type, and `create`
 * creates inside the document. False, leaving everything as it was, where that does not work
 * out (no such string, nothing found there, the string not printable after the write): kustomize
 * then walks the path as any other.
 */
function copyIntoString(root: YMap, parts: readonly string[], value: ReplacementValue, create: CreateKind, state: RunState): boolean {
  const entry = embeddedEntry(root, parts);
  if (!entry) return false;
  const inside = new RunState();
  let slots: Slot[];
  try {
    slots = new PathMatcher(parts.slice(entry.inside), create, inside, true).match(entry.data);
  } catch (e) {
    if (e instanceof KustomizeError) return false;
    throw e;
  }
  if (slots.length === 0) return false;
  for (const slot of slots) if (!slot.detached) setFieldValue(slot, value, undefined, inside);
  const printed = entry.document.printed(inside.failed);
  if (printed === undefined) return false;
  setFieldValue(entry.slot, scalarValue('str', printed), undefined, state);
  return true;
}

/**
 * Puts the value in one field. A scalar field takes the value's text and keeps its type; a map
 * or list field is replaced by a copy of the value. With `options.delimiter` the field's text
 * is split and the value's text replaces part `index` (a negative index prepends, one past the
 * end appends).
 */
function setFieldValue(slot: Slot, value: ReplacementValue, options: FieldOptions | undefined, state: RunState): void {
  const current = read(slot);
  const untaggedText = state.textAt(slot);
  let text = value.text;
  if (options?.delimiter) {
    if (!isScalar(current)) throw new KustomizeError('REPLACEMENT_FAILED', 'delimiter option can only be used with scalar nodes');
    const parts = (untaggedText ?? nodeText(current)).split(options.delimiter);
    const index = options.index ?? 0;
    if (index < 0) parts.unshift(text);
    else if (index >= parts.length) parts.push(text);
    else parts[index] = text;
    text = parts.join(options.delimiter);
  }
  if (!isScalar(current)) {
    state.writeDecoded(slot, text, () => value.copy());
    return;
  }
  if (untaggedText !== undefined) {
    write(slot, resolvePlainScalar(text));
    state.mark(slot, text);
  } else {
    state.writeDecoded(slot, text, () => decodeTagged(tagOf(current), text));
  }
}
