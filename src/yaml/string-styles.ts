/**
 * The styles kyaml gives the strings kustomize's generators and transformers write, noted as the
 * marks of value.ts ({@link markStyled}): printed, a string looks the same whatever its style,
 * but a strategic-merge patch's plain scalar written over it later takes that style, so a `6`
 * written over a value kyaml double-quoted is the string "6" (kyaml's FieldSetter keeps the
 * style of the node it replaces).
 */
import { parseYamlDocuments } from './parse.js';
import { resolvePlainScalar, resolvePlainScalar11 } from './resolve.js';
import { forgetUntagged, isStyled, markStyled, markUntagged, ownValue, setKey, setStyled, type Value, type YMap } from './value.js';

/** Texts made of characters that cannot start or hold any YAML structure: plain scalars, resolved by the table. */
const PLAIN_WORD = /^[A-Za-z0-9._+~/=][A-Za-z0-9._+~/=-]*$|^-[A-Za-z0-9._+~/=][A-Za-z0-9._+~/=-]*$/;

/**
 * Whether YAML 1.1 (go-yaml v2, decoding into an interface) reads `text`, as a document of its
 * own, as no string: `on`, `5`, `~`, `0x1F`, `a: b`, `[1]`, `# note`. kyaml's FieldSetter
 * double-quotes a string it sets whose text reads so. A text with a line break never does (go-yaml
 * v2 is not asked), nor does one that is no valid document, nor a date (v2 keeps it a string).
 */
export function readsAsNonString11(text: string): boolean {
  if (text === '' || text.includes('\n')) return false;
  if (PLAIN_WORD.test(text)) return typeof resolvePlainScalar11(text) !== 'string';
  let docs: Value[];
  try {
    docs = parseYamlDocuments(text, '', { dialect: 'yaml11' });
  } catch {
    return false;
  }
  return typeof docs[0] !== 'string';
}

/**
 * A map of strings as kyaml writes one afresh (a generator's `data`, a merged generator's data,
 * labels and annotations): each value a new string node, a literal block when it has a line
 * break, double-quoted when YAML 1.1 reads it as no string, plain otherwise.
 */
export function freshStringMap(entries: Iterable<readonly [string, string]>): YMap {
  const m: YMap = {};
  const styled = new Set<string>();
  for (const [key, text] of entries) {
    setKey(m, key, text);
    if (text.includes('\n') || readsAsNonString11(text)) styled.add(key);
  }
  if (styled.size > 0) markStyled(m, styled);
  return m;
}

/**
 * Sets `key` of `m` (writable) to the string `text` as kyaml's FieldSetter sets a string node: a
 * field it replaces keeps the style of the one there; one it creates has a style when
 * `styledIfCreated` (kyaml double-quotes a text YAML 1.1 reads as no string,
 * {@link readsAsNonString11}, which a caller setting one text in many places asks once; the
 * generators single-quote their labels and annotations).
 */
export function setStringField(m: YMap, key: string, text: string, styledIfCreated: boolean): void {
  const created = ownValue(m, key) === undefined;
  setKey(m, key, text);
  if (created) setStyled(m, key, styledIfCreated);
}

/**
 * Sets `key` of `m` (writable) to `text` as kyaml's FieldSetter sets an untagged scalar (the
 * name prefix and suffix transformers' names, the name and namespace a strategic-merge patch
 * writes back): over a field written quoted, or as a new field, it is the string; over one
 * written plain it is what plain YAML reads in its text, so a name `12` is the number 12 (noted
 * untagged, with its text). A text whose value would not give the same text back (`012`,
 * `True`, `null`) stays a string: a resource's id is its name's text.
 */
export function setUntaggedField(m: YMap, key: string, text: string): void {
  const created = ownValue(m, key) === undefined;
  const value = created || isStyled(m, key) ? text : resolvePlainScalar(text);
  if (value !== null && typeof value !== 'string' && String(value) === text) {
    setKey(m, key, value);
    markUntagged(m, key, text);
    return;
  }
  setKey(m, key, text);
  forgetUntagged(m, key);
  if (created) setStyled(m, key, readsAsNonString11(text));
}
