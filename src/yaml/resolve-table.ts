/**
 * go-yaml's resolve table: the plain words that read as something other than a string, and
 * the float syntax tried once the integer parsers have failed (resolve.go). yaml.v3, which
 * reads resources, and go-yaml v2, which reads kustomize's own files and re-reads its output,
 * share both; v2 adds the YAML 1.1 booleans.
 */

export const TRUE_WORDS = ['true', 'True', 'TRUE'];
export const FALSE_WORDS = ['false', 'False', 'FALSE'];
export const NULL_WORDS = ['', '~', 'null', 'Null', 'NULL'];
export const NAN_WORDS = ['.nan', '.NaN', '.NAN'];
export const INFINITY_WORDS = ['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'];
export const NEGATIVE_INFINITY_WORDS = ['-.inf', '-.Inf', '-.INF'];
/** Resolves to the merge tag; as a value it still decodes to the string `<<`. */
export const MERGE_WORD = '<<';

/** Booleans in go-yaml v2 (YAML 1.1) only: yaml.v3 reads these as strings. */
export const YAML11_TRUE_WORDS = ['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON'];
export const YAML11_FALSE_WORDS = ['n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF'];

/** go-yaml's `yamlStyleFloat`, matched against the text with `_` removed. */
export const YAML_STYLE_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
