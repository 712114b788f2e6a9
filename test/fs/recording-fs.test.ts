/**
 * The recording file system keeps every question a build asked and its answer; the record
 * holds in a file system only while every answer is the same.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { RecordingFileSystem, type InputRecord } from '../../src/fs/recording-fs.js';

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

/** A record's questions, as `question path`. */
const questions = (record: InputRecord): string[] => [...record.answered()].map(([key]) => key.replace('\0', ' '));

test('a scope notes every question asked while it is open, also those asked before it, and so does each scope around it', () => {
  const fs = MemoryFileSystem.from({ 'a/x.yaml': 'x: 1\n', 'b/y.yaml': 'y: 1\n' });
  const recording = new RecordingFileSystem(fs);
  recording.readFile('/a/x.yaml');
  const outer = recording.openScope();
  recording.readFile('/a/x.yaml');
  const inner = recording.openScope();
  recording.readFile('/b/y.yaml');
  assert.throws(() => recording.readFile('/b/missing.yaml'), /missing/);
  const innerRecord = inner.close();
  recording.exists('/c');
  const outerRecord = outer.close();
  recording.isDirectory('/a');
  assert.deepEqual(questions(innerRecord), ['readFile /b/y.yaml', 'readFile /b/missing.yaml']);
  assert.deepEqual(questions(outerRecord), ['readFile /a/x.yaml', 'readFile /b/y.yaml', 'readFile /b/missing.yaml', 'exists /c']);
  assert.ok(innerRecord.holdsIn(fs));
  fs.writeFile('/b/missing.yaml', '');
  assert.ok(!innerRecord.holdsIn(fs), 'what a scope recorded is checked as any record');
});

test('holds: a record is confirmed as the build’s own questions, noted by the open scopes; the first answer that differs ends it', () => {
  const fs = MemoryFileSystem.from({ 'a/x.yaml': 'x: 1\n', 'b/y.yaml': 'y: 1\n' });
  const earlier = recorded(fs).record();
  const recording = new RecordingFileSystem(fs);
  const scope = recording.openScope();
  assert.ok(recording.holds(earlier));
  assert.deepEqual(questions(scope.close()), questions(earlier));
  assert.deepEqual(questions(recording.record()), questions(earlier));
  // the build then reads its own copy of what the earlier record holds
  const bytes = recording.readFile('/a/x.yaml');
  bytes[3] = 0x39;
  assert.ok(earlier.holdsIn(fs), 'a build changing what it read changes no record');
  assert.ok(recording.record().holdsIn(fs));

  fs.writeFile('/a/x.yaml', 'x: 2\n');
  const after = new RecordingFileSystem(fs);
  assert.ok(!after.holds(earlier));
  assert.equal(new TextDecoder().decode(after.readFile('/a/x.yaml')), 'x: 2\n', 'the build sees today’s answer');
  assert.deepEqual(questions(after.record()), ['readFile /a/x.yaml'], 'the questions after the one that differed are not asked');
});
