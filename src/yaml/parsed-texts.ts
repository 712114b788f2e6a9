import { SizedLru } from '../memo/sized-lru.js';
import { parseYamlDocuments, type ParseDocuments, type ParseOptions } from './parse.js';
import { cloneValue, estimatedBytesOfText, shareValue, type Value } from './value.js';

/** How a text was read: its dialect, and whether its maps keep their plain values' texts. */
type Reading = NonNullable<ParseOptions['dialect']> | 'yaml.v3' | 'yaml.v3 with texts';

/**
 * Texts parsed once per content and reading: each call gets its own copy of the documents
 * (copying is several times cheaper than parsing), or shares them frozen. Bounded by the bytes
 * of the texts and documents it holds, as {@link estimatedBytesOfText} estimates them; the least recently
 * used goes first, and a text larger than the bound is not kept.
 */
export class ParsedTexts {
  private readonly texts: SizedLru<string, Partial<Record<Reading, Value[]>>>;

  constructor(
    maxBytes: number,
    private readonly parse: ParseDocuments = parseYamlDocuments,
  ) {
    this.texts = new SizedLru(maxBytes, (text, parsed) => 16 + text.length + Object.values(parsed).reduce((n, docs) => n + estimatedBytesOfText(text.length, docs.length), 0));
  }

  /** The bytes it holds, as estimated. */
  get bytes(): number {
    return this.texts.size;
  }

  documents(text: string, file: string, options: ParseOptions = {}): Value[] {
    return this.parsed(text, file, options).map(cloneValue);
  }

  /**
   * The documents themselves, frozen ({@link shareValue}): every build that reads the text
   * gets the same values, and copies only the parts it writes.
   */
  sharedDocuments(text: string, file: string): Value[] {
    return this.parsed(text, file, {}).map(shareValue);
  }

  private parsed(text: string, file: string, options: ParseOptions): Value[] {
    const reading: Reading = options.dialect ?? (options.sourceTexts ? 'yaml.v3 with texts' : 'yaml.v3');
    const parsed = this.texts.get(text) ?? {};
    let docs = parsed[reading];
    if (!docs) {
      parsed[reading] = docs = this.parse(text, file, options);
      // measured with what it now holds
      this.texts.set(text, parsed);
    }
    return docs;
  }

  clear(): void {
    this.texts.clear();
  }
}
