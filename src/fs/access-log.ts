import { AskingFileSystem, type Question } from './questions.js';

/**
 * A file system that notes what was asked of it: the files whose bytes were read (a build's
 * inputs), and every path any question was about (which files exist, what a directory holds:
 * what else a build's output depends on). Everything passes through.
 */
export class AccessLog extends AskingFileSystem {
  private readonly read = new Set<string>();
  private readonly asking = new Set<string>();

  /** The files read so far, as the paths they were read by. */
  get files(): readonly string[] {
    return [...this.read];
  }

  /** The paths asked about so far. */
  get asked(): readonly string[] {
    return [...this.asking];
  }

  protected ask(question: Question, path: string): unknown {
    this.asking.add(path);
    const answer = this.inner[question]!(path);
    if (question === 'readFile') this.read.add(path);
    return answer;
  }
}
