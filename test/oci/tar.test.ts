import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, linkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { KustomizeError } from '../../src/errors.js';
import { readTreeArchive, writeTreeArchive } from '../../src/oci/tar.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

/** Runs GNU tar in a fresh directory prepared by `setup`; returns the archive's bytes. */
function gnuTar(setup: (dir: string) => void, ...args: string[]): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'kts-tar-'));
  setup(dir);
  execFileSync('tar', ['-czf', join(dir, 'out.tgz'), ...args], { cwd: dir, stdio: 'ignore' });
  return readFileSync(join(dir, 'out.tgz'));
}

const unsafe = (pattern: RegExp) => (e: unknown) => e instanceof KustomizeError && e.code === 'REMOTE_FAILED' && /unsafe or invalid archive/.test(e.message) && pattern.test(e.message);

test('an archive we write reads back the same, and GNU tar reads it too', async () => {
  const long = `${'deep/'.repeat(25)}file.yaml`;
  const files = [
    { path: 'kustomization.yaml', bytes: enc('resources:\n- cm.yaml\n') },
    { path: 'base/cm.yaml', bytes: enc('kind: ConfigMap\n') },
    { path: long, bytes: enc('x') },
    { path: 'bin/fn', bytes: enc('#!/bin/sh\n'), executable: true },
  ];
  const archive = await writeTreeArchive(files);
  assert.deepEqual(
    (await readTreeArchive(archive, 't')).map((f) => [f.path, dec(f.bytes), f.executable ?? false]),
    [
      ['base/cm.yaml', 'kind: ConfigMap\n', false],
      ['bin/fn', '#!/bin/sh\n', true],
      [long, 'x', false],
      ['kustomization.yaml', 'resources:\n- cm.yaml\n', false],
    ],
  );
  const dir = mkdtempSync(join(tmpdir(), 'kts-tar-'));
  writeFileSync(join(dir, 'a.tgz'), archive);
  execFileSync('tar', ['-xzf', 'a.tgz'], { cwd: dir });
  assert.equal(readFileSync(join(dir, long), 'utf8'), 'x');
});

test('GNU tar archives: directories, ./ prefixes and symlinks to files inside are read', async () => {
  const archive = gnuTar(
    (d) => {
      mkdirSync(join(d, 'tree/sub'), { recursive: true });
      writeFileSync(join(d, 'tree/sub/cm.yaml'), 'kind: ConfigMap\n');
      symlinkSync('sub/cm.yaml', join(d, 'tree/link.yaml'));
    },
    '-C',
    'tree',
    '.',
  );
  const files = await readTreeArchive(archive, 't');
  assert.deepEqual(files.map((f) => [f.path, dec(f.bytes)]).sort(), [
    ['link.yaml', 'kind: ConfigMap\n'],
    ['sub/cm.yaml', 'kind: ConfigMap\n'],
  ]);
});

test('unsafe archives are refused: .., absolute paths, symlinks out, hard links, size bounds', async () => {
  await assert.rejects(readTreeArchive(await writeTreeArchive([{ path: '../evil.yaml', bytes: enc('x') }]), 't'), unsafe(/contains '\.\.'/));
  await assert.rejects(readTreeArchive(await writeTreeArchive([{ path: 'a/../../evil', bytes: enc('x') }]), 't'), unsafe(/contains '\.\.'/));
  await assert.rejects(readTreeArchive(await writeTreeArchive([{ path: '/etc/evil', bytes: enc('x') }]), 't'), unsafe(/absolute path/));
  const symlinkOut = gnuTar((d) => symlinkSync('../../etc/passwd', join(d, 'passwd')), 'passwd');
  await assert.rejects(readTreeArchive(symlinkOut, 't'), unsafe(/leaves the tree/));
  const symlinkAbs = gnuTar((d) => symlinkSync('/etc/passwd', join(d, 'passwd')), 'passwd');
  await assert.rejects(readTreeArchive(symlinkAbs, 't'), unsafe(/is absolute/));
  const hardLink = gnuTar((d) => {
    writeFileSync(join(d, 'a'), 'x');
    linkSync(join(d, 'a'), join(d, 'b'));
  }, 'a', 'b');
  await assert.rejects(readTreeArchive(hardLink, 't'), unsafe(/hard link/));
  const big = await writeTreeArchive([{ path: 'zeros', bytes: new Uint8Array(1 << 20) }]);
  assert.ok(big.byteLength < 10000, 'compresses well');
  await assert.rejects(readTreeArchive(big, 't', { maxBytes: 100000 }), unsafe(/more than 100000 bytes unpacked/));
  const many = await writeTreeArchive(Array.from({ length: 5 }, (_, i) => ({ path: `f${i}`, bytes: enc('') })));
  await assert.rejects(readTreeArchive(many, 't', { maxEntries: 4 }), unsafe(/more than 4 entries/));
  await assert.rejects(readTreeArchive(Uint8Array.from([0x1f, 0x8b, ...enc('not gzip at all')]), 't'), unsafe(/gzip/));
  await assert.rejects(readTreeArchive(enc('plain text, not a tar'), 't'), unsafe(/not a tar archive/));
});
