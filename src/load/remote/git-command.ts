import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { KustomizeError } from '../../errors.js';
import { outputTooLargeReason, runProcess, stderrTail } from '../../process/run-process.js';
import { cloneUrl, type RepoSpec } from './repo-spec.js';

/**
 * The `git` executable, run for one repository reference. Nothing from the reference is ever
 * read as an option: `--end-of-options` precedes positional arguments (and parseRepoSpec
 * refuses parts that start with `-`).
 */
export class GitCommand {
  private readonly git = lookPath('git');

  constructor(
    private readonly spec: RepoSpec,
    /** stops the command running when it aborts */
    private readonly signal?: AbortSignal,
  ) {}

  /** kustomize's clone into `dir`: init, fetch --depth=1 the ref (HEAD by default), checkout, submodules. */
  async checkout(dir: string): Promise<void> {
    const url = cloneUrl(this.spec);
    await this.run(dir, 'init');
    await this.run(dir, 'remote', 'add', '--end-of-options', 'origin', url);
    await this.run(dir, 'fetch', '--depth=1', '--end-of-options', url, this.spec.ref || 'HEAD');
    await this.run(dir, 'checkout', 'FETCH_HEAD');
    if (this.spec.submodules) await this.run(dir, 'submodule', 'update', '--init', '--recursive');
  }

  /** The commit checked out in `dir`. */
  async commitOf(dir: string): Promise<string> {
    return (await this.run(dir, 'rev-parse', 'HEAD')).trim();
  }

  /**
   * The commit the ref names on the server now (`git ls-remote`): a peeled tag, a tag, a branch,
   * or HEAD for no ref. Undefined when the ref is no ref name (e.g. an abbreviated commit).
   */
  async resolve(cwd: string): Promise<string | undefined> {
    const ref = this.spec.ref || 'HEAD';
    const out = await this.run(cwd, 'ls-remote', '--end-of-options', cloneUrl(this.spec), ref);
    const refs = new Map<string, string>();
    for (const line of out.split('\n')) {
      const [commit, name] = line.split('\t');
      if (commit && name) refs.set(name, commit);
    }
    const names = ref === 'HEAD' ? ['HEAD'] : [`refs/tags/${ref}^{}`, `refs/tags/${ref}`, `refs/heads/${ref}`, ref];
    for (const name of names) if (refs.has(name)) return refs.get(name);
    return undefined;
  }

  private async run(cwd: string, ...args: string[]): Promise<string> {
    const argv = [this.git, ...args];
    const shown = argv.join(' ');
    const env = { ...process.env, GIT_TERMINAL_PROMPT: '0' };
    const request = { argv, cwd, env, timeout: this.spec.timeout, signal: this.signal };
    let r;
    try {
      r = await runProcess(request);
    } catch (e) {
      // ABORTED stays what it is
      if (e instanceof KustomizeError) throw e;
      throw new KustomizeError('REMOTE_FAILED', `failed to run '${shown}': ${(e as Error).message}`, { cause: e });
    }
    if (r.timedOut) throw new KustomizeError('REMOTE_FAILED', `hit ${this.spec.timeout}s timeout running '${shown}'`);
    if (r.outputTooLarge) throw new KustomizeError('REMOTE_FAILED', `'${shown}' ${outputTooLargeReason(request)}`);
    if (r.code !== 0) throw new KustomizeError('REMOTE_FAILED', `failed to run '${shown}': exit status ${r.code}${stderrTail(r.stderr + r.stdout)}`);
    return r.stdout;
  }
}

function lookPath(cmd: string): string {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, cmd))) return join(dir, cmd);
  }
  throw new KustomizeError('REMOTE_FAILED', `no ${cmd} executable found on the PATH; it is needed for remote bases`);
}
