/**
 * The recording file system keeps every question a build asked and its answer; the record
 * holds in a file system only while every answer is the same.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { RecordingFileSystem } from '../../src/fs/recording-fs.js';

function recorded(fs: MemoryFileSystem): RecordingFileSystem {
  const recording = new RecordingFileSystem(fs);
  recording.readFile('/a/x.yaml');
  recording.readDir('/a');
  recording.exists('/a/y.yaml');
  recording.isDirectory('/a');
  recording.realPath('/a/x.yaml');
  recording.entryType!('/a/x.yaml');
  assert.throws(() => recording.readFile('/a/missing.yaml'), /missing/);
  return recording;
}

test('answers pass through, and the record holds while the files are the same', () => {
  const fs = MemoryFileSystem.from({ 'a/x.yaml': 'x: 1\n' });
  const recording = recorded(fs);
  assert.equal(new TextDecoder().decode(recording.readFile('/a/x.yaml')), 'x: 1\n');
  assert.deepEqual(recording.readDir('/a'), ['x.yaml']);
  assert.ok(recording.record().holdsIn(fs));
  assert.ok(recording.record().holdsIn(MemoryFileSystem.from({ 'a/x.yaml': 'x: 1\n' })), 'the same answers from another file system');
});

test('the record no longer holds when any answer differs', async (t) => {
  const changes: [string, (fs: MemoryFileSystem) => void][] = [
    ['a file read has other bytes', (fs) => fs.writeFile('/a/x.yaml', 'x: 2\n')],
    ['a file read changed in place', (fs) => void (fs.readFile('/a/x.yaml')[3] = 0x32)],
    ['a directory listed has another entry', (fs) => fs.writeFile('/a/z.yaml', '')],
    ['a file looked for exists', (fs) => fs.writeFile('/a/y.yaml', '')],
    ['a file that was missing is there', (fs) => fs.writeFile('/a/missing.yaml', '')],
  ];
  for (const [name, change] of changes) {
    await t.test(name, () => {
      const fs = MemoryFileSystem.from({ 'a/x.yaml': 'x: 1\n' });
      const record = recorded(fs).record();
      change(fs);
      assert.ok(!record.holdsIn(fs));
    });
  }
});

test('a path that resolves elsewhere is a change, though every file reads the same', () => {
  const linked = MemoryFileSystem.from({ 'b/x.yaml': 'x: 1\n' });
  linked.link('/a', '/b');
  const record = recorded(linked).record();
  assert.ok(record.holdsIn(linked));
  assert.ok(!record.holdsIn(MemoryFileSystem.from({ 'a/x.yaml': 'x: 1\n' })), '/a/x.yaml was /b/x.yaml');
});

test('what the build does to an answer does not change the record', () => {
  const fs = MemoryFileSystem.from({ 'a/x.yaml': 'x: 1\n' });
  const recording = new RecordingFileSystem(fs);
  recording.readDir('/a').push('invented.yaml');
  recording.readDir('/a').pop();
  assert.deepEqual(recording.readDir('/a'), ['x.yaml']);
  assert.ok(recording.record().holdsIn(fs));
});

test('a question asked again gets the recorded answer, so a build sees only what its record says', () => {
  const fs = MemoryFileSystem.from({ 'a/x.yaml': 'x: 1\n' });
  const recording = new RecordingFileSystem(fs);
  recording.readFile('/a/x.yaml');
  assert.throws(() => recording.readFile('/a/y.yaml'), /y\.yaml/);
  fs.writeFile('/a/x.yaml', 'x: 2\n');
  fs.writeFile('/a/y.yaml', 'y: 1\n');
  assert.equal(new TextDecoder().decode(recording.readFile('/a/x.yaml')), 'x: 1\n');
  assert.throws(() => recording.readFile('/a/y.yaml'), /y\.yaml/);
  assert.ok(!recording.record().holdsIn(fs));
});
