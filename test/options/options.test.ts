/**
 * The options of the library's entries: the load restrictor in kustomize's spelling or ours, at
 * run time as in the types, and option names no entry knows refused with the list of those it
 * does (in JavaScript, a misspelt option would otherwise be ignored without a word).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build } from '../../src/build/build.js';
import { BuildCache } from '../../src/build/build-cache.js';
import { consolidateComposition } from '../../src/composition/consolidate-path.js';
import { createKustomization } from '../../src/edit/create.js';
import { editKustomization } from '../../src/edit/edit.js';
import { KustomizeError } from '../../src/errors.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { localize } from '../../src/localize/localize.js';
import { DEFAULT_OPTIONS, OPTION_NAMES, type LoadRestrictorOption } from '../../src/options.js';

/** A base that reads a file outside its directory: built only without the load restriction. */
const outside = () =>
  MemoryFileSystem.from({
    'app/kustomization.yaml': 'configMapGenerator:\n- name: cm\n  files:\n  - ../shared/k\n',
    'shared/k': 'v',
  });

test('loadRestrictor takes kustomize’s spellings and the library’s', async () => {
  const spellings: Record<LoadRestrictorOption, boolean> = { LoadRestrictionsNone: true, none: true, LoadRestrictionsRootOnly: false, rootOnly: false };
  for (const [loadRestrictor, builds] of Object.entries(spellings) as [LoadRestrictorOption, boolean][]) {
    const building = build('/app', { fs: outside(), loadRestrictor });
    if (builds) assert.match((await building).yaml, /^ {2}k: v$/m, loadRestrictor);
    else await assert.rejects(building, { code: 'LOAD_RESTRICTED' }, loadRestrictor);
  }
});

test('any other load restrictor is a USAGE error in kustomize’s words', async () => {
  const wrong = 'Loose' as LoadRestrictorOption;
  const message = 'illegal loadRestrictor Loose; legal values: [LoadRestrictionsRootOnly LoadRestrictionsNone]';
  await assert.rejects(build('/app', { fs: outside(), loadRestrictor: wrong }), { code: 'USAGE', message });
  await assert.rejects(consolidateComposition('/app', { fs: outside(), loadRestrictor: wrong }), { code: 'USAGE', message });
});

/** A call with an options object that has one misspelt name. */
type MisspeltCall = { entry: string; misspelt: string; call: (options: never) => unknown };

const fs = () => MemoryFileSystem.from({ 'app/kustomization.yaml': 'resources: []\n' });
const CALLS: MisspeltCall[] = [
  { entry: 'build()', misspelt: 'loadRestrictions', call: (o) => build('/app', { fs: fs(), ...(o as object) }) },
  { entry: 'editKustomization()', misspelt: 'notify', call: (o) => editKustomization(fs(), '/app', [], o) },
  { entry: 'createKustomization()', misspelt: 'prefix', call: (o) => createKustomization(fs(), '/new', o) },
  { entry: 'localize()', misspelt: 'dest', call: (o) => localize('/app', { fs: fs(), cwd: '/', ...(o as object) }) },
  { entry: 'consolidateComposition()', misspelt: 'loadRestrictions', call: (o) => consolidateComposition('/app', { fs: fs(), ...(o as object) }) },
  { entry: 'new BuildCache()', misspelt: 'maxBuilds', call: (o) => new BuildCache(o) },
];

for (const { entry, misspelt, call } of CALLS) {
  test(`${entry}: an option name it does not know is a USAGE error listing those it knows`, async () => {
    await assert.rejects(
      async () => call({ [misspelt]: 'x' } as never),
      (e: unknown) => {
        assert.ok(e instanceof KustomizeError);
        assert.equal(e.code, 'USAGE');
        assert.match(e.message, new RegExp(`^${entry.replace(/[()]/g, '\\$&')}: unknown option '${misspelt}'; the options are: \\w+(, \\w+)*$`));
        return true;
      },
    );
  });
}

test('build() knows every option of DEFAULT_OPTIONS, and plugins, cache, signal and provenance: no list of them is written twice', async () => {
  const message = await build('/app', { fs: fs(), ['bogus' as 'cwd']: '/' }).then(
    () => '',
    (e: Error) => e.message,
  );
  const known = message.slice(message.indexOf('the options are: ') + 'the options are: '.length).split(', ');
  const groups = Object.values(DEFAULT_OPTIONS).flatMap((group) => Object.keys(group));
  assert.deepEqual(known, [...groups, 'cache', 'plugins', 'provenance', 'signal'].sort());
  assert.deepEqual([...OPTION_NAMES].sort(), [...groups].sort());
});

test('an option given as undefined is as good as absent; options known to build() all build', async () => {
  const all = Object.fromEntries(OPTION_NAMES.map((name) => [name, undefined]));
  assert.equal((await build('/app', { ...all, fs: fs(), plugins: [], cache: new BuildCache(), signal: new AbortController().signal })).yaml, '');
});
