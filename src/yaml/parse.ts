import {
  Composer,
  Document,
  LineCounter,
  Parser,
  isAlias,
  isMap as isYamlMap,
  isScalar,
  isSeq as isYamlSeq,
  visit,
  type Alias,
  type CST,
  type Node as YamlNode,
  type Scalar as YamlScalar,
} from 'yaml';
import { KustomizeError } from '../errors.js';
import { readBlockSubset, type BlockSubsetOptions, type Placements } from './block-subset-reader.js';
import { MAX_NESTING_DEPTH, tooDeepAt } from './nesting-depth.js';
import { foldedRoundTrip } from './folded-round-trip.js';
import { resolvePlainScalar, resolvePlainScalar11, resolveTaggedScalar } from './resolve.js';
import { isMap, isTextValuedField, markSourceTexts, markStyled, markWrittenEmpty, setKey, type Value, type YMap } from './value.js';

export interface ParseOptions {
  /**
   * `yaml11` reads the way kustomize reads its own kustomization files (sigs.k8s.io/yaml,
   * i.e. go-yaml v2): `yes`/`on`/`y` are booleans, timestamps stay strings, non-string keys
   * become strings, and a repeated key silently replaces the earlier one.
   */
  dialect?: 'yaml11';
  /**
   * Every map keeps the text its plain values were written with where they read as something
   * else (`0123`, `true`, `2001-12-14`), as annotations maps always do: what a strategic-merge
   * patch writes over a value written quoted is that text (see scalarSourceText).
   */
  sourceTexts?: boolean;
}

/** A reader of YAML texts: {@link parseYamlDocuments}, or one that keeps what it read. */
export type ParseDocuments = (text: string, file: string, options?: ParseOptions) => Value[];

/**
 * Reads YAML the way kustomize reads resources (yaml.v3 decoding into `interface{}`): every
 * document of a multi-document stream, empty documents dropped, aliases and `<<` merge keys
 * expanded, plain scalars resolved by yaml.v3's rules (see resolve.ts), duplicate keys refused.
 *
 * `file` names the source in error messages.
 */
export function parseYamlDocuments(text: string, file = '', options: ParseOptions = {}): Value[] {
  const yaml11 = options.dialect === 'yaml11';
  const sourceTexts = options.sourceTexts === true;
  const subset = yaml11 ? SUBSET_YAML11 : sourceTexts ? SUBSET_YAML_V3_TEXTS : SUBSET_YAML_V3;
  return readBlockSubset(text, subset) ?? parseYamlFully(text, file, yaml11, sourceTexts);
}

/** Reads any YAML with the `yaml` package (the subset reader's answer, where it has one, is the same). */
export function parseYamlFully(text: string, file: string, yaml11: boolean, sourceTexts = false): Value[] {
  const lineCounter = new LineCounter();
  const composer = new Composer({ schema: 'failsafe', uniqueKeys: false, merge: false, strict: false });
  const tokens = function* (): Generator<CST.Token> {
    for (const token of new Parser(lineCounter.addNewLine).parse(text)) {
      const deep = token.type === 'document' ? tooDeepAt(token) : undefined;
      if (deep !== undefined) throw malformed(`exceeded max depth of ${MAX_NESTING_DEPTH}`, lineCounter.linePos(deep), file);
      yield token;
    }
  };
  const list = Array.from(composer.compose(tokens()));
  const out: Value[] = [];
  for (const doc of list) {
    const error = doc.errors[0];
    if (error) throw malformed(error.message, lineCounter.linePos(error.pos[0]), file);
    const contents = doc.contents;
    if (contents === null) continue;
    if (isScalar(contents) && contents.type === 'PLAIN' && contents.value === '' && contents.tag === undefined) continue;
    out.push(new Decoder(doc, text, lineCounter, file, yaml11, sourceTexts).decode(contents));
  }
  return out;
}

/** Parses a stream that must hold at most one document; `undefined` when it is empty. */
export function parseYamlDocument(text: string, file = '', options: ParseOptions = {}): Value | undefined {
  const docs = parseYamlDocuments(text, file, options);
  if (docs.length > 1) throw malformed('expected a single document', undefined, file);
  return docs[0];
}

const SUBSET_YAML_V3: BlockSubsetOptions = { resolve: resolvePlainScalar, scalarKeysAsText: false, sourceTexts: false };
const SUBSET_YAML_V3_TEXTS: BlockSubsetOptions = { ...SUBSET_YAML_V3, sourceTexts: true };
const SUBSET_YAML11: BlockSubsetOptions = { resolve: resolvePlainScalar11, scalarKeysAsText: true, sourceTexts: false };

/** The fast reader's documents (YAML 1.2, or as `options` asks), noting where their values start; undefined for a text outside its subset. */
export function readPlaced(text: string, placements: Placements, options: ParseOptions = {}): Value[] | undefined {
  return readBlockSubset(text, options.dialect === 'yaml11' ? SUBSET_YAML11 : SUBSET_YAML_V3, placements);
}

/** Where in a text: 1-based line and column. */
type Position = { line: number; col: number };

function malformed(reason: string, at: Position | undefined, file: string): KustomizeError {
  const where = at === undefined ? '' : `line ${at.line}: `;
  const inFile = file ? ` in File: ${file}` : '';
  return new KustomizeError('YAML_INVALID', `MalformedYAMLError: yaml: ${where}${firstLine(reason)}${inFile}`, {
    ...(file && { file }),
    ...(at && { line: at.line, column: at.col }),
  });
}

function firstLine(s: string): string {
  const i = s.indexOf('\n');
  return i < 0 ? s : s.slice(0, i);
}

/**
 * yaml.v3's bound on alias expansion ("document contains excessive aliasing"): once more than
 * 100 of over 1000 decoded nodes came from aliases, their share may not exceed 99% up to 400,000
 * decoded nodes, falling to 10% at 4,000,000. An alias bomb of a few hundred bytes fails fast
 * instead of filling the memory.
 */
function excessiveAliasing(decoded: number, fromAliases: number): boolean {
  if (fromAliases <= 100 || decoded <= 1000) return false;
  const allowed = decoded <= 400_000 ? 0.99 : decoded >= 4_000_000 ? 0.1 : 0.99 - 0.89 * ((decoded - 400_000) / 3_600_000);
  return fromAliases / decoded > allowed;
}

class Decoder {
  /** The nodes being decoded, outermost first: an alias to one of them would expand forever. */
  private readonly open = new Set<YamlNode>();
  private decoded = 0;
  private fromAliases = 0;
  private aliasDepth = 0;
  /** Each alias's target (the last node with that anchor before it), found in one pass on the first alias. */
  private targets: Map<Alias, YamlNode | undefined> | undefined;

  constructor(
    private readonly doc: Document.Parsed,
    private readonly source: string,
    private readonly lines: LineCounter,
    private readonly file: string,
    private readonly yaml11: boolean,
    private readonly sourceTexts: boolean,
  ) {}

  decode(node: YamlNode | null): Value {
    if (node === null) return null;
    if (this.open.size >= MAX_NESTING_DEPTH) throw malformed(`exceeded max depth of ${MAX_NESTING_DEPTH}`, this.positionOf(node), this.file);
    this.decoded++;
    if (this.aliasDepth > 0) this.fromAliases++;
    if (excessiveAliasing(this.decoded, this.fromAliases)) throw malformed('document contains excessive aliasing', this.positionOf(node), this.file);
    if (isAlias(node)) return this.alias(node);
    this.open.add(node);
    try {
      if (isScalar(node)) return this.scalar(node);
      if (isYamlSeq(node)) return node.items.map((item) => this.decode(item as YamlNode | null));
      if (isYamlMap(node)) return this.map(node);
    } finally {
      this.open.delete(node);
    }
    throw malformed('unsupported YAML node', this.positionOf(node), this.file);
  }

  private alias(node: Alias): Value {
    const target = this.targetOf(node);
    if (!target) throw malformed(`unknown anchor '${node.source}' referenced`, this.positionOf(node), this.file);
    if (this.open.has(target)) throw malformed(`anchor '${node.source}' value contains itself`, this.positionOf(node), this.file);
    this.aliasDepth++;
    try {
      return this.decode(target);
    } finally {
      this.aliasDepth--;
    }
  }

  /** The `yaml` package's Alias.resolve, which searches the whole document on every call, done once for all aliases. */
  private targetOf(alias: Alias): YamlNode | undefined {
    if (this.targets === undefined) {
      const targets = new Map<Alias, YamlNode | undefined>();
      const anchored = new Map<string, YamlNode>();
      visit(this.doc, {
        Node: (_key, n) => {
          if (isAlias(n)) targets.set(n, anchored.get(n.source));
          else if (n.anchor) anchored.set(n.anchor, n);
        },
      });
      this.targets = targets;
    }
    return this.targets.get(alias);
  }

  private scalar(node: YamlScalar): Value {
    const text = node.value === null || node.value === undefined ? '' : String(node.value);
    if (node.tag !== undefined && node.tag !== '!') return resolveTaggedScalar(node.tag, text, this.failAt(node));
    if (node.type === 'PLAIN') return this.yaml11 ? resolvePlainScalar11(text) : resolvePlainScalar(text);
    const value = this.endsWithoutLineBreak(node) && text.endsWith('\n') ? text.slice(0, -1) : text;
    return node.type === 'BLOCK_FOLDED' && !this.yaml11 ? foldedRoundTrip(value) : value;
  }

  /**
   * A block scalar whose last line of content has no line break (it ends the input): yaml.v3
   * keeps no final line break for it, where the `yaml` package adds one.
   */
  private endsWithoutLineBreak(node: YamlScalar): boolean {
    if ((node.type !== 'BLOCK_LITERAL' && node.type !== 'BLOCK_FOLDED') || !node.range) return false;
    const lastLine = this.source.slice(this.source.lastIndexOf('\n', node.range[1] - 1) + 1, node.range[1]);
    return lastLine.trim() !== '';
  }

  private map(node: YamlNode & { items: { key: unknown; value: unknown }[] }): YMap {
    const out: YMap = {};
    const explicit = new Set<string>();
    const merges: Value[] = [];
    let styled: Set<string> | undefined;
    for (const pair of node.items) {
      const keyNode = pair.key as YamlNode | null;
      if (isScalar(keyNode) && keyNode.type === 'PLAIN' && keyNode.value === '<<' && keyNode.tag === undefined) {
        merges.push(this.decode(pair.value as YamlNode | null));
        continue;
      }
      const key = this.key(keyNode);
      if (explicit.has(key) && !this.yaml11) {
        throw malformed(`mapping key "${key}" already defined at line ${this.lineOfKey(node, key)}`, this.positionOf(keyNode), this.file);
      }
      explicit.add(key);
      const valueNode = pair.value as YamlNode | null;
      const value = this.decode(valueNode);
      setKey(out, key, value);
      if (value === null && (valueNode === null || (isScalar(valueNode) && valueNode.source === ''))) markWrittenEmpty(out, key);
      if (typeof value === 'string' && isScalar(valueNode) && valueNode.type !== 'PLAIN') (styled ??= new Set()).add(key);
      if (isTextValuedField(key) && isMap(value) && isYamlMap(valueNode) && !this.sourceTexts) this.recordSourceText(value, valueNode);
    }
    if (styled) markStyled(out, styled);
    if (this.sourceTexts) this.recordSourceText(out, node);
    // merged keys never override keys written in the map itself
    for (const m of merges) {
      for (const src of Array.isArray(m) ? m : [m]) {
        if (!isMap(src)) throw malformed('map merge requires map or sequence of maps as the value', this.positionOf(node), this.file);
        for (const k of Object.keys(src)) if (!Object.prototype.hasOwnProperty.call(out, k)) setKey(out, k, src[k]!);
      }
    }
    return out;
  }

  /** Keeps the written text of annotation (and label, or a patch's) values that did not read back as that text (see scalarSourceText). */
  private recordSourceText(value: YMap, node: YamlNode & { items: { key: unknown; value: unknown }[] }): void {
    let texts: Record<string, string> | undefined;
    for (const pair of node.items) {
      const k = pair.key as YamlNode | null;
      const v = pair.value as YamlNode | null;
      if (!isScalar(k) || !isScalar(v) || v.type !== 'PLAIN') continue;
      const text = v.source ?? String(v.value ?? '');
      if (value[String(k.value)] !== text) (texts ??= {})[String(k.value)] = text;
    }
    if (texts) markSourceTexts(value, texts);
  }

  private key(node: YamlNode | null): string {
    const v = this.decode(node);
    if (typeof v === 'string') return v;
    if (this.yaml11 && (v === null || typeof v !== 'object')) return String(v);
    // kustomize fails on non-string keys when it converts resources to JSON
    if (v === null || typeof v === 'object') throw malformed('json: unsupported type: map[interface {}]interface {}', this.positionOf(node), this.file);
    throw new KustomizeError('YAML_INVALID', 'json: unsupported type: map[interface {}]interface {}', { file: this.file });
  }

  private positionOf(node: YamlNode | null): Position | undefined {
    const start = node?.range?.[0];
    return start === undefined ? undefined : this.lines.linePos(start);
  }

  private lineOfKey(map: { items: { key: unknown }[] }, key: string): number | undefined {
    for (const pair of map.items) {
      const k = pair.key as YamlNode | null;
      if (isScalar(k) && String(k.value) === key) return this.positionOf(k)?.line;
    }
    return undefined;
  }

  private failAt(node: YamlNode): (reason: string) => never {
    return (reason) => {
      throw malformed(reason, this.positionOf(node), this.file);
    };
  }
}
