/**
 * Starlark strings are sequences of bytes (UTF-8 by convention). The interpreter holds them as
 * JS "byte strings": one char per byte, each 0..255, so len, indexing and slicing are native.
 * These convert at the boundary with host text.
 */
const NON_ASCII = /[^\x00-\x7f]/;

/** Host text to a byte string (UTF-8). */
export function encodeUtf8(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  const bytes = new TextEncoder().encode(text);
  return bytesToString(bytes);
}

function bytesToString(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

function stringToBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** A byte string to host text; invalid UTF-8 becomes U+FFFD. */
export function decodeUtf8(s: string): string {
  if (!NON_ASCII.test(s)) return s;
  return new TextDecoder().decode(stringToBytes(s));
}

/**
 * Decodes one UTF-8 sequence at byte offset i: its code point (or -1 if invalid, standing for
 * one byte) and its length in bytes.
 */
export function decodeRune(s: string, i: number): [number, number] {
  const b0 = s.charCodeAt(i);
  if (b0 < 0x80) return [b0, 1];
  const need = b0 >= 0xf0 && b0 < 0xf5 ? 3 : b0 >= 0xe0 ? 2 : b0 >= 0xc2 && b0 < 0xe0 ? 1 : -1;
  if (need < 0 || i + need >= s.length) return [-1, 1];
  let cp = b0 & (0x3f >> need);
  for (let k = 1; k <= need; k++) {
    const b = s.charCodeAt(i + k);
    if ((b & 0xc0) !== 0x80) return [-1, 1];
    cp = (cp << 6) | (b & 0x3f);
  }
  if ((need === 2 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) || (need === 3 && (cp < 0x10000 || cp > 0x10ffff))) return [-1, 1];
  return [cp, need + 1];
}

/** The byte string of one code point (U+FFFD for surrogates or out-of-range values). */
export function encodeRune(cp: number): string {
  if (cp < 0 || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000)) cp = 0xfffd;
  return encodeUtf8(String.fromCodePoint(cp));
}
