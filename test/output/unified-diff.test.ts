/**
 * unifiedDiff: seeded random texts, each diff applied back (by the test's own reading of the
 * hunks, and by GNU patch on some) must give the new text, with as few changed lines as a
 * longest common subsequence allows, and hunks laid out as diff -u lays them out.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import fc from 'fast-check';
import { unifiedDiff } from '../../src/output/unified-diff.js';
import { assertProperty } from '../property.js';

const work = mkdtempSync(join(tmpdir(), 'kts-udiff-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** The new text, from the old one and the hunks. */
function applied(before: string, diff: string): string {
  const old = before.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const out: string[] = [];
  let at = 0;
  const lines = diff.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@$/.exec(lines[i]!);
    if (!header) continue;
    const start = Number(header[2] === '0' ? Number(header[1]) : Number(header[1]) - 1);
    while (at < start) out.push(old[at++]!);
    for (i++; i < lines.length && !lines[i]!.startsWith('@@') && lines[i] !== ''; i++) {
      const line = lines[i]!;
      const noNewline = lines[i + 1] === '\\ No newline at end of file';
      const text = line.slice(1) + (noNewline ? '' : '\n');
      if (line[0] === ' ') out.push(old[at++]!);
      else if (line[0] === '-') at++;
      else if (line[0] === '+') out.push(text);
      if (noNewline) i++;
    }
    i--;
  }
  while (at < old.length) out.push(old[at++]!);
  return out.join('');
}

/** Lines a shortest edit removes or adds: all but twice the longest common subsequence. */
function minimalChanges(a: string[], b: string[]): number {
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  return a.length + b.length - 2 * lcs[0]![0]!;
}

const text = fc.array(fc.constantFrom('a', 'b', 'c', 'apiVersion: v1', 'kind: X', '  name: y', ''), { maxLength: 30 }).map((lines) => lines.map((l) => `${l}\n`).join(''));

test('applied back, a diff gives the new text, with no more changes than needed', async () => {
  await assertProperty(
    fc.property(text, text, (before, after) => {
      const diff = unifiedDiff(before, after);
      assert.equal(diff === '', before === after);
      assert.equal(applied(before, diff), after);
      const changed = diff.split('\n').filter((l) => l.startsWith('-') || l.startsWith('+')).length;
      assert.equal(changed, minimalChanges(before.split('\n').slice(0, -1), after.split('\n').slice(0, -1)));
    }),
    500,
  );
});

test('GNU patch applies it', async () => {
  let n = 0;
  await assertProperty(
    fc.property(text, text, (before, after) => {
      const diff = unifiedDiff(before, after);
      if (diff === '') return;
      const file = join(work, `f${n++}`);
      writeFileSync(file, before);
      execFileSync('patch', ['-s', file], { input: `--- a/f\n+++ b/f\n${diff}` });
      assert.equal(readFileSync(file, 'utf8'), after);
    }),
    40,
  );
});

test('hunks as diff -u makes them: three lines of context, near changes in one hunk, a missing last newline marked', () => {
  const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15', '16'].map((l) => `${l}\n`).join('');
  const after = before.replace('2\n', 'two\n').replace('8\n', 'eight\n').replace('16\n', '16');
  assert.equal(
    unifiedDiff(before, after),
    '@@ -1,11 +1,11 @@\n 1\n-2\n+two\n 3\n 4\n 5\n 6\n 7\n-8\n+eight\n 9\n 10\n 11\n@@ -13,4 +13,4 @@\n 13\n 14\n 15\n-16\n+16\n\\ No newline at end of file\n',
  );
  assert.equal(unifiedDiff('', 'a\n'), '@@ -0,0 +1 @@\n+a\n');
  assert.equal(unifiedDiff('a\nb\n', ''), '@@ -1,2 +0,0 @@\n-a\n-b\n');
  // what GNU diff says of the same texts
  const [a, b] = [join(work, 'a'), join(work, 'b')];
  writeFileSync(a, before);
  writeFileSync(b, after);
  let gnu = '';
  try {
    execFileSync('diff', ['-u', a, b], { encoding: 'utf8' });
  } catch (e) {
    gnu = (e as { stdout: string }).stdout;
  }
  assert.equal(gnu.split('\n').slice(2).join('\n'), unifiedDiff(before, after));
});
