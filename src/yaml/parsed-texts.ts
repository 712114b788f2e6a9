import { SizedLru } from '../memo/sized-lru.js';
import { parseYamlDocuments, type ParseDocuments, type ParseOptions } from './parse.js';
import { cloneValue, shareValue, type Value } from './value.js';

type Dialect = NonNullable<ParseOptions['dialect']> | 'yaml.v3';

/**
 * Texts parsed once per content and dialect: each call gets its own copy of the documents
 * (copying is several times cheaper than parsing), or shares them frozen. Bounded by the characters of the texts it
 * holds; the least recently used goes first, and a text longer than the bound is not kept.
 */
export class ParsedTexts {
  private readonly texts: SizedLru<string, Partial<Record<Dialect, Value[]>>>;

  constructor(
    maxChars: number,
    private readonly parse: ParseDocuments = parseYamlDocuments,
  ) {
    this.texts = new SizedLru(maxChars, (text) => text.length);
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
    const dialect: Dialect = options.dialect ?? 'yaml.v3';
    let parsed = this.texts.get(text);
    if (!parsed) this.texts.set(text, (parsed = {}));
    return (parsed[dialect] ??= this.parse(text, file, options));
  }

  clear(): void {
    this.texts.clear();
  }
}
