import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cloneUrl, parseRepoSpec } from '../../src/load/remote/repo-spec.js';

// How kustomize splits remote base URLs into the clone URL, the path inside the repository
// and the ref (the URL forms of kustomize's examples/remoteBuild.md).

const cases: [string, { clone: string; path: string; ref: string } | undefined][] = [
  ['https://github.com/kubernetes-sigs/kustomize//examples/multibases/dev/?ref=v1.0.6', { clone: 'https://github.com/kubernetes-sigs/kustomize', path: 'examples/multibases/dev/', ref: 'v1.0.6' }],
  ['github.com/kubernetes-sigs/kustomize/examples/helloWorld?ref=v5.0.0', { clone: 'https://github.com/kubernetes-sigs/kustomize', path: 'examples/helloWorld', ref: 'v5.0.0' }],
  ['git@github.com:kubernetes-sigs/kustomize.git//examples/helloWorld', { clone: 'git@github.com:kubernetes-sigs/kustomize.git', path: 'examples/helloWorld', ref: '' }],
  ['ssh://git@github.com/org/repo.git/base?version=main', { clone: 'git@github.com:org/repo.git', path: 'base', ref: 'main' }],
  ['https://example.com/org/repo.git/sub/dir?ref=abc123', { clone: 'https://example.com/org/repo.git', path: 'sub/dir', ref: 'abc123' }],
  ['http://127.0.0.1:8765/org/repo.git//overlays/prod?ref=v1.0.0', { clone: 'http://127.0.0.1:8765/org/repo.git', path: 'overlays/prod', ref: 'v1.0.0' }],
  ['git::https://gitlab.com/org/repo//base', { clone: 'https://gitlab.com/org/repo', path: 'base', ref: '' }],
  ['file:///srv/git/repo.git//base?ref=feature', { clone: 'file:///srv/git/repo.git', path: 'base', ref: 'feature' }],
  ['https://dev.azure.com/org/project/_git/repo/path/to/base?ref=main', { clone: 'https://dev.azure.com/org/project/_git/repo', path: 'path/to/base', ref: 'main' }],
  ['git@gitlab.com:org/repo//base', { clone: 'git@gitlab.com:org/repo', path: 'base', ref: '' }],
  // a relative directory with a user-like prefix qualifies as scp-like git syntax (kustomize's behaviour)
  ['package@v1.28.0.example/configs/base', { clone: 'package@v1.28.0.example/configs/base', path: '', ref: '' }],
  // local paths
  ['../base', undefined],
  ['overlays/prod', undefined],
  ['/abs/path', undefined],
  ['https://github.com/org/repo//../escape', undefined],
];

for (const [url, want] of cases) {
  test(`repo spec of ${url}`, () => {
    const spec = parseRepoSpec(url);
    if (!want) {
      assert.equal(spec, undefined);
      return;
    }
    assert.ok(spec);
    assert.deepEqual({ clone: cloneUrl(spec), path: spec.path, ref: spec.ref }, want);
  });
}

test('timeout and submodules query parameters', () => {
  const spec = parseRepoSpec('https://github.com/org/repo//base?timeout=90s&submodules=false');
  assert.equal(spec?.timeout, 90);
  assert.equal(spec?.submodules, false);
  assert.equal(parseRepoSpec('https://github.com/org/repo//base?timeout=61')?.timeout, 61);
  assert.equal(parseRepoSpec('https://github.com/org/repo//base')?.timeout, 27);
});

// Parts of a git URL reach git's command line: any that git could read as an option is refused.
for (const url of [
  'file:///srv/repo.git?ref=--upload-pack=touch%20/tmp/PWNED;git-upload-pack',
  'https://example.com/org/repo.git//base?ref=-x',
  'ssh://-oProxyCommand=touch%20x/repo.git//base',
  'https://example.com/org/repo.git//-base',
  'https://example.com/org/repo.git//base?ref=a%0Ab',
]) {
  test(`a git URL that could inject an option is refused: ${url}`, () => {
    assert.throws(() => parseRepoSpec(url), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'REMOTE_INVALID');
      return true;
    });
  });
}
