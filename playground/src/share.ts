/**
 * The share link: the files and the built directory, as JSON compressed with the browser's own
 * deflate (CompressionStream), in base64url, in the URL's fragment (never sent to a server).
 */
export interface SharedState {
  files: Record<string, string>;
  target: string;
}

const PREFIX = '#code=';

async function through(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  return Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
}

export async function encodeState(state: SharedState): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(state));
  return PREFIX + toBase64Url(await through(json, new CompressionStream('deflate-raw')));
}

/** the state in a URL fragment, or undefined when there is none (or it is damaged) */
export async function decodeState(hash: string): Promise<SharedState | undefined> {
  if (!hash.startsWith(PREFIX)) return undefined;
  try {
    const json = await through(fromBase64Url(hash.slice(PREFIX.length)), new DecompressionStream('deflate-raw'));
    const state = JSON.parse(new TextDecoder().decode(json)) as SharedState;
    return typeof state.target === 'string' && state.files && typeof state.files === 'object' ? state : undefined;
  } catch {
    return undefined;
  }
}
