import { copyBytes } from '../encoding/bytes.js';
import type { FileSystem } from './filesystem.js';
import { answerOf, AskingFileSystem, sameAnswer, type Answer, type Question } from './questions.js';

/**
 * A file system that remembers every question a build asks it and the answer, so that a
 * later build can tell whether the same questions would be answered the same way today
 * ({@link InputRecord.holdsIn}). Writes pass through unrecorded: a build does not write.
 */
export class RecordingFileSystem extends AskingFileSystem {
  private readonly answers = new Map<string, Answer>();
  /** the questions each open {@link InputScope} has seen asked */
  private readonly scopes = new Set<Set<string>>();

  /** The questions asked so far, with their answers. */
  record(): InputRecord {
    return new InputRecord(new Map(this.answers));
  }

  /** Starts noting the questions asked from now on (asked before or not), until the scope is closed: what one part of a build read. */
  openScope(): InputScope {
    const keys = new Set<string>();
    this.scopes.add(keys);
    return {
      close: () => {
        this.scopes.delete(keys);
        return new InputRecord(new Map([...keys].map((key) => [key, this.answers.get(key)!])));
      },
    };
  }

  /**
   * Whether every question of `record` is answered today as it was then (as {@link InputRecord.holdsIn}),
   * each asked as this build's own: the open scopes note it, and an answer that agrees is kept as
   * the record has it, not copied again (a base taken from a cache reads megabytes of CRDs only to
   * compare them). Stops at the first answer that differs.
   */
  holds(record: InputRecord): boolean {
    for (const [key, then] of record.answered()) {
      for (const scope of this.scopes) scope.add(key);
      let now = this.answers.get(key);
      if (!now) {
        const cut = key.indexOf('\0');
        const fresh = answerOf(this.inner, key.slice(0, cut) as Question, key.slice(cut + 1));
        now = sameAnswer(then, fresh) ? then : 'threw' in fresh ? fresh : { value: copyOf(fresh.value) };
        this.answers.set(key, now);
      }
      if (now !== then && !sameAnswer(then, now)) return false;
    }
    return true;
  }

  /** The file system's answer; a question asked again gets the answer recorded (a copy of it), so the build sees only what the record says. */
  protected ask(question: Question, path: string): unknown {
    const key = `${question}\0${path}`;
    for (const scope of this.scopes) scope.add(key);
    const known = this.answers.get(key);
    if (known) {
      if ('threw' in known) throw known.threw;
      return copyOf(known.value);
    }
    const answer = answerOf(this.inner, question, path);
    this.answers.set(key, 'threw' in answer ? answer : { value: copyOf(answer.value) });
    if ('threw' in answer) throw answer.threw;
    return answer.value;
  }
}

/** What one part of a build asked, from {@link RecordingFileSystem.openScope}. */
interface InputScope {
  /** Stops noting questions; the ones asked while open, with their answers. */
  close(): InputRecord;
}


/** An answer held by value: the build may change the arrays it is given, the file system its bytes. */
function copyOf(value: unknown): unknown {
  if (value instanceof Uint8Array) return copyBytes(value);
  return Array.isArray(value) ? [...value] : value;
}

/** The questions a build asked its file system and the answers it got. */
export class InputRecord {
  constructor(private readonly answers: ReadonlyMap<string, Answer>) {}

  /** The questions, each with the answer it got. */
  answered(): Iterable<[string, Answer]> {
    return this.answers;
  }

  /** The files whose bytes were read (a read that failed read nothing). */
  filesRead(): string[] {
    const files: string[] = [];
    for (const [key, answer] of this.answers) if (key.startsWith('readFile\0') && 'value' in answer) files.push(key.slice('readFile\0'.length));
    return files;
  }

  /** The paths (at most `limit` of them) that `fs` answers a question about otherwise than then. */
  differencesIn(fs: FileSystem, limit: number): string[] {
    const paths = new Set<string>();
    for (const [key, then] of this.answers) {
      const cut = key.indexOf('\0');
      const path = key.slice(cut + 1);
      if (paths.has(path) || sameAnswer(then, answerOf(fs, key.slice(0, cut) as Question, path))) continue;
      paths.add(path);
      if (paths.size === limit) break;
    }
    return [...paths];
  }

  /** Whether `fs` answers every question as it did then: a build asking them again would see the same input. */
  holdsIn(fs: FileSystem): boolean {
    for (const [key, then] of this.answers) {
      const cut = key.indexOf('\0');
      const now = answerOf(fs, key.slice(0, cut) as Question, key.slice(cut + 1));
      if (!sameAnswer(then, now)) return false;
    }
    return true;
  }
}
