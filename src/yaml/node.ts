import { KustomizeError } from '../errors.js';
import { emitYaml, formatNumber } from './emit.js';
import { resolvePlainScalar, resolvePlainScalar11 } from './resolve.js';
import { isMap, type Scalar, type Value } from './value.js';

/**
 * kustomize copies a scalar into a scalar by replacing the node's text and keeping its tag, so
 * the target keeps its type: a string stays a string (`"5"`), a number takes a number's text
 * (`"8080"` → 8080) and fails on anything else when kustomize prints it. Nodes kustomize
 * creates carry no tag; their text is read the way plain YAML is (`"8080"` → 8080).
 *
 * Here a scalar's tag is its JS type; `untagged` stands for created nodes.
 */
export type ScalarTag = 'str' | 'int' | 'float' | 'bool' | 'null' | 'untagged';

export function isScalar(v: Value | undefined): v is Scalar {
  return v === null || typeof v !== 'object';
}

/** The tag a value's node has. */
export function tagOf(v: Scalar): ScalarTag {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return 'str';
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int';
    default:
      return Number.isInteger(v) ? 'int' : 'float';
  }
}

/** A node's text (yaml.v3's `Node.Value`); maps and lists have none. */
export function nodeText(v: Value | undefined): string {
  if (v === undefined || v === null || typeof v === 'object') return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return formatNumber(v);
}

const BOOL_TEXT = new Set(['true', 'True', 'TRUE', 'false', 'False', 'FALSE']);
const NULL_TEXT = new Set(['', '~', 'null', 'Null', 'NULL']);
const SPECIAL_FLOAT_TEXT = new Set(['.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF']);
/** What Go's `strconv.ParseInt(s, 0, 64)` / `ParseUint` accept, underscores removed first. */
const GO_INT = /^([+-]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/** The tag yaml.v3 gives plain text when another tag is expected (timestamps are not tried then). */
function plainTag(text: string): 'str' | 'int' | 'float' | 'bool' | 'null' {
  if (BOOL_TEXT.has(text)) return 'bool';
  if (NULL_TEXT.has(text)) return 'null';
  if (SPECIAL_FLOAT_TEXT.has(text)) return 'float';
  const plain = text.replaceAll('_', '');
  const m = GO_INT.exec(plain);
  if (m && inInt64Range(m[1]!, m[2]!)) return 'int';
  return YAML_FLOAT.test(plain) ? 'float' : 'str';
}

function inInt64Range(sign: string, digits: string): boolean {
  const lower = digits.toLowerCase();
  const prefixed = lower.startsWith('0x') || lower.startsWith('0o') || lower.startsWith('0b');
  const radixed = !prefixed && lower.length > 1 && lower.startsWith('0') ? `0o${lower.slice(1)}` : lower;
  const v = BigInt(radixed);
  return sign === '-' ? v <= 2n ** 63n : sign === '+' ? v < 2n ** 63n : v < 2n ** 64n;
}

/**
 * The value a node with tag `tag` and text `text` decodes to, or kustomize's error when the
 * text cannot have that tag.
 */
export function decodeTagged(tag: ScalarTag, text: string): Scalar {
  if (tag === 'untagged') return resolvePlainScalar(text);
  if (tag === 'str') return text;
  const actual = plainTag(text);
  const ok = actual === tag || (tag === 'float' && actual === 'int');
  if (!ok) {
    throw new KustomizeError('REPLACEMENT_FAILED', `map[string]interface {}(nil): yaml: cannot decode !!${actual} \`${text}\` as a !!${tag}`);
  }
  switch (tag) {
    case 'null':
      return null;
    case 'bool':
      return text.charAt(0) === 't' || text.charAt(0) === 'T';
    case 'float': {
      const v = SPECIAL_FLOAT_TEXT.has(text) ? floatSpecial(text) : resolvePlainScalar(text);
      return typeof v === 'bigint' ? Number(v) : v;
    }
    default:
      return resolvePlainScalar(text);
  }
}

function floatSpecial(text: string): number {
  if (text.toLowerCase() === '.nan') return NaN;
  return text.startsWith('-') ? -Infinity : Infinity;
}

/** yaml.v3's name for the kind of node a value is. */
function nodeKindName(v: Value): string {
  if (Array.isArray(v)) return 'SequenceNode';
  return isMap(v) ? 'MappingNode' : 'ScalarNode';
}

/** kyaml's complaint about a node of the wrong kind. */
export function wrongKind(expected: string, v: Value): Error {
  return new Error(`wrong node kind: expected ${expected} but got ${nodeKindName(v)}: node contents:\n${nodeString(v)}`);
}

const SIMPLE = /^[A-Za-z][A-Za-z0-9_./-]*$/;

/** A node printed as YAML (trimmed), as kyaml's `RNode.String()` gives it. */
export function nodeString(v: Value): string {
  if (typeof v === 'string' && v.length <= 80 && SIMPLE.test(v) && resolvePlainScalar11(v) === v) return v;
  return emitYaml(v).trim();
}
