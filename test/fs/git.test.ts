/**
 * GitRepository and GitTreeFileSystem, on real repositories made here: a revision's tree must
 * answer as the disk does on a checkout of it (see like-disk.ts), whatever the work tree holds
 * since, and read each directory with one git process.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, test } from 'node:test';
import { build } from '../../src/build/build.js';
import { KustomizeError, type ErrorCode } from '../../src/errors.js';
import { readText } from '../../src/fs/filesystem.js';
import { GitRepository } from '../../src/fs/git.js';
import { answersLikeDisk, FILES, writeOnDisk } from './like-disk.js';
import { commit, git, newRepo as newRepoIn, workDir, write } from '../git-repos.js';

const work = workDir('kts-git-');
const newRepo = (name: string, files: Record<string, string> = {}) => newRepoIn(work, name, files);

/** Runs `run` with a `git` first on the PATH that notes each git subcommand it runs, and returns them. */
async function gitCommandsOf(run: () => unknown): Promise<string[]> {
  const shim = mkdtempSync(join(work, 'shim-'));
  const log = join(shim, 'log');
  writeFileSync(log, '');
  const path = process.env['PATH'];
  // git's arguments are -C DIR SUBCOMMAND …
  writeFileSync(join(shim, 'git'), `#!/bin/sh\necho "$3" >> '${log}'\nPATH='${path}' exec git "$@"\n`);
  chmodSync(join(shim, 'git'), 0o755);
  process.env['PATH'] = `${shim}${delimiter}${path}`;
  try {
    await run();
  } finally {
    process.env['PATH'] = path;
  }
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

const failsWith = (code: ErrorCode, message: string | RegExp) => (e: unknown) => {
  assert.ok(e instanceof KustomizeError, String(e));
  assert.equal(e.code, code);
  if (typeof message === 'string') assert.equal(e.message, message);
  else assert.match(e.message, message);
  return true;
};

const likeDisk = newRepo('like-disk');
writeOnDisk(join(likeDisk, 'tree'));
commit(likeDisk, 'the tree');
describe('GitTreeFileSystem answers like the disk on a checkout', () =>
  answersLikeDisk(GitRepository.open(likeDisk).tree('HEAD'), join(likeDisk, 'tree'), join(likeDisk, 'tree')),
);

describe('GitTreeFileSystem', () => {
  test('answers what was committed after the work tree changed', () => {
    const repo = newRepo('moved-on');
    writeOnDisk(repo);
    commit(repo, 'the tree');
    const tree = GitRepository.open(repo).tree('HEAD');
    writeFileSync(join(repo, 'base/cm.yaml'), 'changed');
    unlinkSync(join(repo, 'other/a.yaml'));
    writeFileSync(join(repo, 'new.yaml'), 'new');
    unlinkSync(join(repo, 'dirlink'));
    symlinkSync('other', join(repo, 'dirlink'));
    chmodSync(join(repo, 'tool.sh'), 0o644);
    assert.equal(readText(tree, `${repo}/base/cm.yaml`), FILES['base/cm.yaml']);
    assert.equal(readText(tree, `${repo}/other/a.yaml`), FILES['other/a.yaml']);
    assert.equal(tree.exists(`${repo}/new.yaml`), false);
    assert.equal(tree.realPath(`${repo}/dirlink/er`), `${repo}/base/deep/er`);
    assert.equal(tree.isExecutable(`${repo}/tool.sh`), true);
    assert.deepEqual(tree.readDir(`${repo}/other`), ['a.yaml', 'z.yaml']);
  });

  test('lists the tree with one git ls-tree and reads a small commit whole with one git cat-file', async () => {
    const repo = newRepo('processes');
    writeOnDisk(repo);
    commit(repo, 'the tree');
    const reads = (readAheadBytes?: number) =>
      gitCommandsOf(() => {
        const tree = GitRepository.open(repo).tree('HEAD', readAheadBytes);
        for (const p of ['base/kustomization.yaml', 'base/cm.yaml', 'base/link.yaml', 'other/a.yaml', 'base/up.yaml', 'other/z.yaml', 'base/cm.yaml']) {
          assert.equal(readText(tree, `${repo}/${p}`), readFileSync(join(repo, p), 'utf8'));
        }
      });
    assert.deepEqual(await reads(), ['rev-parse', 'rev-parse', 'ls-tree', 'cat-file']);
    // a commit larger than the read-ahead (its blobs hold 167 bytes) is read a directory at a
    // time: base/ (59 bytes), then other/
    assert.deepEqual(await reads(100), ['rev-parse', 'rev-parse', 'ls-tree', 'cat-file', 'cat-file']);
    // a blob larger than the read-ahead is read on its own, when it is asked for: base/'s four
    // blobs one by one, then other/a.yaml with z.yaml (1 byte each)
    assert.deepEqual(await reads(1), ['rev-parse', 'rev-parse', 'ls-tree', ...Array(5).fill('cat-file')]);
  });

  test('a submodule is an empty directory', () => {
    const repo = newRepo('submodule', { 'a.yaml': 'a' });
    git(repo, 'update-index', '--add', '--cacheinfo', `160000,${git(repo, 'rev-parse', 'HEAD')},sub`);
    git(repo, 'commit', '-q', '-m', 'submodule');
    const tree = GitRepository.open(repo).tree('HEAD');
    assert.equal(tree.isDirectory(`${repo}/sub`), true);
    assert.equal(tree.entryType(`${repo}/sub`), 'directory');
    assert.deepEqual(tree.readDir(`${repo}/sub`), []);
    assert.deepEqual(tree.readDir(repo), ['a.yaml', 'sub']);
    assert.equal(tree.exists(`${repo}/sub/a.yaml`), false);
  });

  test('holds nothing outside the work tree: links out of it lead nowhere, absolute links into it resolve', () => {
    const repo = newRepo('links', { 'a.yaml': 'a' });
    writeFileSync(join(work, 'outside.yaml'), 'outside');
    symlinkSync('../outside.yaml', join(repo, 'escape'));
    symlinkSync(join(repo, 'a.yaml'), join(repo, 'absolute'));
    commit(repo, 'links');
    const tree = GitRepository.open(repo).tree('HEAD');
    assert.equal(tree.exists(`${repo}/escape`), false);
    assert.equal(tree.entryType(`${repo}/escape`), 'symlink');
    assert.equal(tree.exists(`${work}/outside.yaml`), false);
    assert.equal(tree.exists(work), false);
    assert.equal(tree.exists('/'), false);
    assert.equal(tree.realPath(`${repo}/absolute`), `${repo}/a.yaml`);
    assert.equal(tree.realPath(`${repo}/../links/absolute`), `${repo}/a.yaml`);
  });

  test('a missing path throws FILE_NOT_FOUND naming it; writing throws USAGE', () => {
    const repo = newRepo('errors', { 'a.yaml': 'a' });
    const tree = GitRepository.open(repo).tree('HEAD');
    const missing = `${repo}/missing.yaml`;
    const notFound = (file: string) => (e: unknown) => failsWith('FILE_NOT_FOUND', `'${file}' doesn't exist`)(e) && (e as KustomizeError).file === file;
    assert.throws(() => tree.readFile(missing), notFound(missing));
    assert.throws(() => tree.realPath(missing), notFound(missing));
    assert.throws(() => tree.readDir(`${repo}/a.yaml`), notFound(`${repo}/a.yaml`));
    assert.throws(() => tree.readFile(repo), notFound(repo));
    assert.throws(() => tree.writeFile(`${repo}/a.yaml`), failsWith('USAGE', `cannot write '${repo}/a.yaml': a git revision is read-only`));
    assert.throws(() => tree.mkdirAll(`${repo}/dir`), failsWith('USAGE', /read-only/));
  });

  test('build() reads an old revision while the work tree has moved on', async () => {
    const configMap = (version: string) => `apiVersion: v1\ndata:\n  version: ${version}\nkind: ConfigMap\nmetadata:\n  name: settings\n`;
    const repo = newRepo('build', { 'app/kustomization.yaml': 'resources:\n- cm.yaml\nnamePrefix: app-\n', 'app/cm.yaml': configMap('v1') });
    write(repo, { 'app/cm.yaml': configMap('v2') });
    commit(repo, 'v2');
    write(repo, { 'app/cm.yaml': configMap('v3') });
    const repository = GitRepository.open(join(repo, 'app'));
    const expected = (version: string) => configMap(version).replace('name: settings', 'name: app-settings');
    let old = '';
    const commands = await gitCommandsOf(async () => {
      old = (await build(`${repository.top}/app`, { fs: repository.tree('HEAD~1') })).yaml;
    });
    assert.equal(old, expected('v1'));
    assert.deepEqual(commands, ['rev-parse', 'ls-tree', 'cat-file'], 'one process for the listing, one for the blobs');
    assert.equal((await build(`${repository.top}/app`, { fs: repository.tree('HEAD') })).yaml, expected('v2'));
    assert.equal((await build(join(repo, 'app'))).yaml, expected('v3'));
  });
});

describe('GitRepository', () => {
  const repo = newRepo('changes', {
    '.gitignore': '*.log\n',
    'a.yaml': 'a',
    'b.yaml': 'b',
    'old.yaml': 'old',
    'del.yaml': 'del',
    'dir/with space.yaml': 'spaced',
    'line\nbreak.yaml': 'newline',
  });
  const first = git(repo, 'rev-parse', 'HEAD');
  write(repo, { 'a.yaml': 'a2', 'new.yaml': 'new', 'dir/with space.yaml': 'spaced2', 'line\nbreak.yaml': 'newline2' });
  unlinkSync(join(repo, 'del.yaml'));
  git(repo, 'mv', 'old.yaml', 'renamed.yaml');
  const second = commit(repo, 'second');
  // the work tree since: staged, unstaged, deleted, untracked, ignored, and changed back
  write(repo, { 'a.yaml': 'a3', 'staged.yaml': 'staged' });
  git(repo, 'add', 'a.yaml', 'staged.yaml');
  write(repo, { 'b.yaml': 'b2', 'untracked dir/u.yaml': 'u', 'debug.log': 'ignored', 'dir/with space.yaml': 'changed' });
  write(repo, { 'dir/with space.yaml': 'spaced2' });
  unlinkSync(join(repo, 'new.yaml'));
  git(repo, 'rm', '-q', 'renamed.yaml');
  const repository = GitRepository.open(join(repo, 'dir'));

  test('open finds the top of the work tree from below it', () => {
    assert.equal(repository.top, repo);
    assert.equal(GitRepository.open(repo).top, repo);
  });

  test('resolve names a commit by its full sha', () => {
    assert.equal(repository.resolve('HEAD'), second);
    assert.equal(repository.resolve('HEAD~1'), first);
    assert.equal(repository.resolve(first.slice(0, 10)), first);
    assert.equal(repository.resolve('main'), second);
  });

  test('changedFiles between two commits: a rename is both paths', () => {
    assert.deepEqual(repository.changedFiles(first, second), ['a.yaml', 'del.yaml', 'dir/with space.yaml', 'line\nbreak.yaml', 'new.yaml', 'old.yaml', 'renamed.yaml']);
    assert.deepEqual(repository.changedFiles(second, first), repository.changedFiles(first, second));
    assert.deepEqual(repository.changedFiles('HEAD', second), []);
  });

  test('changedFiles against the work tree: staged, unstaged, deleted and untracked, not ignored', () => {
    assert.deepEqual(repository.changedFiles('HEAD'), ['a.yaml', 'b.yaml', 'new.yaml', 'renamed.yaml', 'staged.yaml', 'untracked dir/u.yaml']);
    // a file added since and deleted again is no change; one changed since and changed back is
    assert.deepEqual(repository.changedFiles(first), ['a.yaml', 'b.yaml', 'del.yaml', 'dir/with space.yaml', 'line\nbreak.yaml', 'old.yaml', 'staged.yaml', 'untracked dir/u.yaml']);
  });

  test('outside a work tree: USAGE naming the directory', () => {
    const outside = mkdtempSync(join(work, 'not-a-repo-'));
    const notRepo = (dir: string) => failsWith('USAGE', new RegExp(`^${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not in a git work tree: fatal: `));
    assert.throws(() => GitRepository.open(join(repo, '.git')), notRepo(join(repo, '.git')));
    assert.throws(() => GitRepository.open(join(outside, 'missing')), notRepo(join(outside, 'missing')));
    assert.throws(() => GitRepository.open('/'), notRepo('/'));
  });

  test('an unknown revision: USAGE naming it', () => {
    for (const rev of ['no-such-branch', '', 'HEAD~9']) {
      assert.throws(() => repository.resolve(rev), failsWith('USAGE', `unknown revision '${rev}'`));
    }
    // what git says, when it says more
    assert.throws(() => repository.resolve(`${second}^{tree}`), failsWith('USAGE', /^unknown revision '[0-9a-f]+\^\{tree\}': .*expected commit type/));
    assert.throws(() => repository.tree('no-such-branch'), failsWith('USAGE', "unknown revision 'no-such-branch'"));
    assert.throws(() => repository.changedFiles('HEAD', 'no-such-branch'), failsWith('USAGE', "unknown revision 'no-such-branch'"));
  });

  test('a revision starting with - is refused before git reads it as an option', () => {
    const written = join(work, 'written-by-git');
    for (const rev of [`--output=${written}`, '-h']) {
      assert.throws(() => repository.resolve(rev), failsWith('USAGE', `a revision cannot start with '-': '${rev}'`));
      assert.throws(() => repository.changedFiles('HEAD', rev), failsWith('USAGE', /cannot start with '-'/));
      assert.throws(() => repository.tree(rev), failsWith('USAGE', /cannot start with '-'/));
    }
    assert.throws(() => readFileSync(written), { code: 'ENOENT' });
  });

  test('ignoredPaths: the untracked files git ignores, an ignored directory once', () => {
    const ignoring = newRepo('ignoring', { '.gitignore': '*.env\nbuild/\n', 'a.yaml': 'a' });
    write(ignoring, { 'secret.env': 's', 'build/out.yaml': 'o', 'build/deep/x.yaml': 'x', 'new.yaml': 'untracked' });
    assert.deepEqual(GitRepository.open(ignoring).ignoredPaths().sort(), ['build/', 'secret.env']);
  });

  test('checkout: the commit under the top, the disk for what git ignores and what is outside the top', () => {
    const checkedOut = newRepo('checkout', { '.gitignore': '*.env\nbuild/\n', 'app/a.yaml': 'committed', 'app/old.yaml': 'old' });
    write(checkedOut, { 'app/a.yaml': 'edited', 'app/new.yaml': 'untracked', 'app/secret.env': 'ignored', 'build/out.yaml': 'pulled' });
    unlinkSync(join(checkedOut, 'app/old.yaml'));
    write(work, { 'beside-checkout.yaml': 'outside' });
    const view = GitRepository.open(checkedOut).checkout('HEAD');
    const at = (p: string) => join(checkedOut, p);
    assert.equal(readText(view, at('app/a.yaml')), 'committed');
    assert.equal(readText(view, at('app/old.yaml')), 'old');
    assert.equal(view.exists(at('app/new.yaml')), false, 'untracked, not ignored: a change, not the commit');
    assert.equal(readText(view, at('app/secret.env')), 'ignored');
    assert.equal(readText(view, at('build/out.yaml')), 'pulled');
    assert.equal(view.isDirectory(at('build')), true);
    assert.deepEqual(view.readDir(at('app')), ['a.yaml', 'old.yaml', 'secret.env']);
    assert.deepEqual(view.readDir(checkedOut), ['.gitignore', 'app', 'build']);
    assert.equal(readText(view, join(work, 'beside-checkout.yaml')), 'outside');
    assert.throws(() => view.writeFile(at('app/a.yaml'), 'x'), failsWith('USAGE', /read-only/));
  });

  test('without git on the PATH: GIT_FAILED saying so', () => {
    const path = process.env['PATH'];
    process.env['PATH'] = mkdtempSync(join(work, 'empty-path-'));
    try {
      assert.throws(() => GitRepository.open(repo), failsWith('GIT_FAILED', /^no git executable found on the PATH/));
      assert.throws(() => repository.resolve('HEAD'), failsWith('GIT_FAILED', /^no git executable found on the PATH/));
    } finally {
      process.env['PATH'] = path;
    }
  });
});
