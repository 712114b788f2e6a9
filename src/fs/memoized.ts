import { answerOf, AskingFileSystem, type Answer, type Question } from './questions.js';
import type { FileSystem } from './filesystem.js';

/**
 * A file system that asks the one it wraps each question once, for a run over a tree that does
 * not change while it runs (`buildAll`): every build of the run then reads a file it shares
 * with the others once. The bytes it answers are shared: callers must not change them.
 */
export class MemoizedFileSystem extends AskingFileSystem {
  private readonly answers = new Map<string, Answer>();

  /** The file system it answers for. */
  get memoOf(): FileSystem {
    return this.inner;
  }

  protected ask(question: Question, path: string): unknown {
    const key = `${question}\0${path}`;
    let answer = this.answers.get(key);
    if (!answer) this.answers.set(key, (answer = answerOf(this.inner, question, path)));
    if ('threw' in answer) throw answer.threw;
    // a list of names is the caller's to sort or change
    return Array.isArray(answer.value) ? [...answer.value] : answer.value;
  }
}
