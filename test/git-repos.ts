/**
 * Real git repositories for the tests of what reads revisions (GitRepository, affected): made
 * in a temporary directory that is removed when the test file ends, committed by a fixed author.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

/** Runs git in `cwd` and gives its output, trimmed. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    .toString()
    .trim();
}

/** A directory for this test file's repositories (symlinks resolved), removed when it ends. */
export function workDir(prefix: string): string {
  const work = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  after(() => rmSync(work, { recursive: true, force: true }));
  return work;
}

/** A new repository `work/name` holding `files`, committed when there are any. */
export function newRepo(work: string, name: string, files: Record<string, string> = {}): string {
  const dir = join(work, name);
  mkdirSync(dir);
  git(dir, 'init', '-q', '-b', 'main');
  write(dir, files);
  if (Object.keys(files).length > 0) commit(dir, 'first');
  return dir;
}

/** Writes `files` (paths relative to `dir`) to the work tree. */
export function write(dir: string, files: Record<string, string>): void {
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), content);
  }
}

/** Commits everything in the work tree; gives the commit's sha. */
export function commit(dir: string, message: string): string {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}
