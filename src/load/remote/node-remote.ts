import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { KustomizeError } from '../../errors.js';
import { DiskFileSystem } from '../../fs/disk.js';
import type { FileSystem } from '../../fs/filesystem.js';
import { outputTooLargeReason, runProcess, stderrTail } from '../../process/run-process.js';
import { cloneUrl, type RepoSpec } from './repo-spec.js';
import { HttpStatusError, type RemoteSource } from './remote-source.js';

/** Remote resources for Node: `fetch` for HTTP(S) files, the `git` executable for repositories (cloned shallowly into temp dirs). */
export class NodeRemoteSource implements RemoteSource {
  private readonly dirs: string[] = [];
  private readonly clones = new Map<string, Promise<string>>();
  private readonly fs = new DiskFileSystem();

  constructor(private readonly httpTimeout = 60) {}

  async fetchFile(url: string): Promise<Uint8Array> {
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(this.httpTimeout * 1000) });
    } catch (e) {
      throw new KustomizeError('REMOTE_FAILED', `Get "${url}": ${(e as Error).message}`, { cause: e });
    }
    if (res.status < 200 || res.status > 299) throw new HttpStatusError(res.status, res.statusText);
    return new Uint8Array(await res.arrayBuffer());
  }

  /** kustomize's clone: init, fetch --depth=1 the ref (HEAD by default), checkout, submodules. Each repo@ref once per build. */
  async clone(spec: RepoSpec): Promise<{ dir: string; fs: FileSystem }> {
    const key = `${cloneUrl(spec)}#${spec.ref}`;
    let dir = this.clones.get(key);
    if (!dir) {
      dir = this.cloneFresh(spec);
      this.clones.set(key, dir);
    }
    return { dir: await dir, fs: this.fs };
  }

  private async cloneFresh(spec: RepoSpec): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'kustomize-'));
    this.dirs.push(dir);
    const git = lookPath('git');
    const env = { ...process.env, GIT_TERMINAL_PROMPT: '0' };
    const run = async (...args: string[]) => {
      const argv = [git, ...args];
      const shown = argv.join(' ');
      const request = { argv, cwd: dir, env, timeout: spec.timeout };
      let r;
      try {
        r = await runProcess(request);
      } catch (e) {
        throw new KustomizeError('REMOTE_FAILED', `failed to run '${shown}': ${(e as Error).message}`, { cause: e });
      }
      if (r.timedOut) throw new KustomizeError('REMOTE_FAILED', `hit ${spec.timeout}s timeout running '${shown}'`);
      if (r.outputTooLarge) throw new KustomizeError('REMOTE_FAILED', `'${shown}' ${outputTooLargeReason(request)}`);
      if (r.code !== 0) throw new KustomizeError('REMOTE_FAILED', `failed to run '${shown}': exit status ${r.code}${stderrTail(r.stderr + r.stdout)}`);
    };
    await run('init');
    // --end-of-options: nothing from the URL is ever read as an option (parseRepoSpec refuses such parts too)
    await run('remote', 'add', '--end-of-options', 'origin', cloneUrl(spec));
    await run('fetch', '--depth=1', '--end-of-options', cloneUrl(spec), spec.ref || 'HEAD');
    await run('checkout', 'FETCH_HEAD');
    if (spec.submodules) await run('submodule', 'update', '--init', '--recursive');
    return dir;
  }

  cleanup(): void {
    for (const d of this.dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    this.clones.clear();
  }
}

function lookPath(cmd: string): string {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, cmd))) return join(dir, cmd);
  }
  throw new KustomizeError('REMOTE_FAILED', `no ${cmd} executable found on the PATH; it is needed for remote bases`);
}
