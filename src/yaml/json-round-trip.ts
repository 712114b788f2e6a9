/**
 * What the JSON round trip does to a string before go-yaml v2 prints it.
 *
 * kustomize prints a resource by encoding it as JSON with Go's `encoding/json` and reading that
 * back with go-yaml v2 (`sigs.k8s.io/yaml.JSONToYAML`). go-yaml's reader (reader.go,
 * scannerc.go) sees the JSON text, not the original string, so: invalid UTF-16 has become
 * U+FFFD; DEL, C1 controls and U+FFFE/U+FFFF make the read fail; a raw NEL is a line break
 * inside the double-quoted JSON string and folds; and a key must fit go-yaml's simple-key
 * limits. The failures carry go-yaml's own messages, as kustomize reports them.
 */
import { KustomizeError } from '../errors.js';
import { columns } from './characters.js';
import { goJsonString } from './go-json.js';

const SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Characters Go's JSON encoder leaves raw that go-yaml's reader then treats specially. */
const RAW_SPECIAL = /[\x7f-\x9f\ufffe\uffff]/;
/** go-yaml's reader rejects these outright. */
const REJECTED_RAW = /[\x7f-\x84\x86-\x9f\ufffe\uffff]/;
const NEL = '\u0085';
/** go-yaml v2 gives up on a simple key whose text runs past this many characters. */
const MAX_JSON_KEY_CHARS = 1024;

/**
 * A string as go-yaml v2 reads it back from the JSON kustomize feeds it: invalid UTF-16 became
 * U+FFFD in Go's encoder; DEL, C1 controls and U+FFFE/U+FFFF fail the read; and a raw NEL
 * (U+0085, the only line break Go leaves unescaped) is a line break inside a double-quoted
 * scalar, so it folds with the spaces around it.
 */
export function readBack(s: string): string {
  // (tested natively: every string printed comes here, and a character loop is slow until compiled)
  const t = SURROGATE.test(s) ? s.replace(LONE_SURROGATE, '\ufffd') : s;
  if (!RAW_SPECIAL.test(t)) return t;
  if (REJECTED_RAW.test(t)) throw yamlError('control characters are not allowed');
  return foldNextLines(t);
}

/** A map key read back; keys also must stay on one line and be short enough in JSON form. */
export function readBackKey(key: string): string {
  const k = readBack(key);
  const nels = countNel(key);
  if (nels > 0 || jsonKeyChars(key) > MAX_JSON_KEY_CHARS) {
    // a parser error: go-yaml names the 0-based line, and only when it is not the first
    throw yamlError("did not find expected ',' or '}'", nels);
  }
  return k;
}

/** Length in characters of the key as Go's JSON encoder writes it, quotes included. */
function jsonKeyChars(key: string): number {
  if (key.length * 6 + 2 <= MAX_JSON_KEY_CHARS) return 0; // cannot be too long
  const quoted = goJsonString(key);
  return columns(quoted, 0, quoted.length);
}

/**
 * YAML line folding inside a double-quoted scalar, where the only breaks are NELs: a run of
 * spaces holding one NEL becomes a space, one holding n NELs becomes n-1 newlines. A NEL right
 * before `---` or `...` and a blank reads as a document marker, which go-yaml rejects.
 */
function foldNextLines(s: string): string {
  const n = s.length;
  let out = '';
  let i = 0;
  while (i < n) {
    let j = i;
    while (j < n && s[j] !== ' ' && s[j] !== NEL) j++;
    out += s.slice(i, j);
    let k = j;
    let breaks = 0;
    while (k < n && (s[k] === ' ' || s[k] === NEL)) {
      if (s[k] === NEL) breaks++;
      k++;
    }
    if (breaks === 0) out += s.slice(j, k);
    else {
      if (s[k - 1] === NEL && /^(?:---|\.\.\.)[ \u0085]/.test(s.slice(k, k + 4))) {
        // a scanner error: go-yaml names the 1-based line (lines counted from this text only)
        throw yamlError('found unexpected document indicator', countNel(s.slice(0, k)) + 1);
      }
      out += breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
    }
    i = k;
  }
  return out;
}

function countNel(s: string): number {
  let n = 0;
  for (let i = s.indexOf(NEL); i >= 0; i = s.indexOf(NEL, i + 1)) n++;
  return n;
}

/**
 * kustomize fails where go-yaml cannot read its own JSON back; the message is go-yaml's.
 * (kustomize prefixes it with a Go dump of the resource, which is not reproduced.)
 */
function yamlError(problem: string, line = 0): KustomizeError {
  return new KustomizeError('YAML_INVALID', `yaml: ${line > 0 ? `line ${line}: ` : ''}${problem}`);
}
