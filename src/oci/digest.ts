import { KustomizeError } from '../errors.js';

/** `sha256:<hex>` of the bytes, with WebCrypto (in Node and browsers alike). */
export async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const b of hash) hex += b.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}

/** Throws REMOTE_FAILED unless the bytes have the expected digest (only sha256 is accepted). */
export async function verifyDigest(bytes: Uint8Array, expected: string, what: string): Promise<void> {
  if (!/^sha256:[a-f0-9]{64}$/.test(expected)) {
    throw new KustomizeError('REMOTE_FAILED', `${what}: unsupported digest '${expected}' (only sha256 is accepted)`, { remote: what });
  }
  const actual = await sha256Digest(bytes);
  if (actual !== expected) {
    throw new KustomizeError('REMOTE_FAILED', `${what}: digest mismatch: expected ${expected}, got ${actual}`, { remote: what });
  }
}
