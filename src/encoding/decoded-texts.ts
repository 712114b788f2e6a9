import { SizedLru } from '../memo/sized-lru.js';
import { utf8DecodeStrict } from './base64.js';
import { copyBytes, sameBytes } from './bytes.js';

/**
 * Files' texts, decoded from UTF-8 once per content: a file that reads as it did gets the
 * text it had (comparing bytes costs a small fraction of decoding them, which for megabytes of
 * CRDs is milliseconds). Bounded by the bytes it holds; the least recently read file goes first.
 */
export class DecodedTexts {
  private readonly files: SizedLru<string, { bytes: Uint8Array; text: string }>;

  constructor(
    maxBytes: number,
    private readonly decode: (bytes: Uint8Array) => string | undefined = utf8DecodeStrict,
  ) {
    this.files = new SizedLru(maxBytes, (path, file) => 32 + path.length + file.bytes.length + file.text.length);
  }

  /** The bytes it holds, as estimated. */
  get bytes(): number {
    return this.files.size;
  }

  /** The text of `bytes`, read from `path`; undefined when they are not UTF-8. */
  text(path: string, bytes: Uint8Array): string | undefined {
    const known = this.files.get(path);
    if (known && sameBytes(known.bytes, bytes)) return known.text;
    const text = this.decode(bytes);
    // a copy: the file system may reuse what it gave
    if (text !== undefined) this.files.set(path, { bytes: copyBytes(bytes), text });
    return text;
  }

  clear(): void {
    this.files.clear();
  }
}
