/** Base64 and UTF-8 helpers that work without Node's Buffer (the library also runs in browsers). */

const encoder = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function utf8Encode(s: string): Uint8Array {
  return encoder.encode(s);
}

/** The text, or undefined when the bytes are not valid UTF-8. */
export function utf8DecodeStrict(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function base64Encode(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/** Decodes standard base64; undefined when the text is not base64. */
export function base64Decode(text: string): Uint8Array | undefined {
  try {
    const binary = atob(text);
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

/**
 * Base64 as kustomize writes generated Secret data and ConfigMap binaryData: once the text
 * reaches 70 characters it is cut into lines of 70, each ending with a newline.
 */
export function base64EncodeWrapped(bytes: Uint8Array): string {
  const b64 = base64Encode(bytes);
  if (b64.length < 70) return b64;
  let out = '';
  for (let i = 0; i < b64.length; i += 70) out += b64.slice(i, i + 70) + '\n';
  return out;
}
