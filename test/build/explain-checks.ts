/**
 * What every explanation must satisfy, whatever the tree: `build` with provenance prints the
 * same bytes as without; every value the output prints has a record with that value, and only
 * those; each record points at a line and column that exist in its file, and a value read from a
 * resource file (`resource`) is written there.
 */
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import type { BuildResult } from '../../src/build/build.js';
import { pathText, type FieldProvenance, type WrittenBy } from '../../src/pipeline/provenance.js';
import { isMap, isSeq, type Value } from '../../src/yaml/value.js';
import { parseYamlDocuments } from '../../src/yaml/parse.js';

/** Every value of `v` (a scalar, an empty map or list) with its path as `explain` writes it, in the object's order. */
function leaves(v: Value, path: (string | number)[] = [], out: [string, Value][] = []): [string, Value][] {
  if (isMap(v) && Object.keys(v).length > 0) for (const k of Object.keys(v)) leaves(v[k]!, [...path, k], out);
  else if (isSeq(v) && v.length > 0) v.forEach((item, i) => leaves(item, [...path, i], out));
  else out.push([pathText(path), v]);
  return out;
}

/** The text at `by`'s position in its file (under `dir`), from there to the end of the line. */
function textAt(dir: string, by: WrittenBy, where: string): string {
  assert.ok(by.line >= 1 && by.column >= 1, `${where}: no position (${JSON.stringify(by)})`);
  if (/^[a-z]+:\/\//.test(by.file)) return '';
  const file = nodePath.resolve(dir, by.file);
  assert.ok(nodeFs.existsSync(file), `${where}: ${by.step} points at ${by.file}, which does not exist`);
  const lines = nodeFs.readFileSync(file, 'utf8').split('\n');
  const line = lines[by.line - 1];
  assert.ok(line !== undefined, `${where}: ${by.file} has no line ${by.line}`);
  assert.ok(by.column <= line.length + 1, `${where}: ${by.file}:${by.line} has no column ${by.column}`);
  return line.slice(by.column - 1);
}

/** Checks `explained` (built with provenance) against `plain` (built without) for the tree at `dir`. */
export function checkExplanation(plain: BuildResult, explained: BuildResult, dir: string): void {
  assert.equal(explained.yaml, plain.yaml, 'provenance changed the output');
  const docs = plain.yaml === '' ? [] : parseYamlDocuments(plain.yaml);
  const records = explained.provenance;
  assert.ok(records, 'no provenance');
  assert.equal(records.length, docs.length, 'a record per resource of the output');
  docs.forEach((doc, i) => {
    const r = records[i]!;
    const name = `${r.kind}/${r.name}`;
    const printed = leaves(doc);
    // (an integer past 2^53 reads back as the float it prints as)
    const number = (v: unknown) => (typeof v === 'bigint' ? Number(v) : v);
    assert.deepEqual(r.fields.map((f) => [f.path, number(f.value)]), printed.map(([p, v]) => [p, number(v)]), `${name}: the records' values are those printed`);
    for (const f of r.fields) checkRecord(dir, `${name} ${f.path}`, f);
  });
}

function checkRecord(dir: string, where: string, f: FieldProvenance): void {
  for (const w of [...f.history, f]) {
    const text = textAt(dir, w.by, where);
    // (what helm prints is read from its chart, whose Chart.yaml stands for it)
    if (w.by.step !== 'resource' || w.by.file.endsWith('Chart.yaml') || typeof w.value !== 'string' || w.value.includes('\n') || w.value === '') continue;
    // a value read from a resource file is written at its position, maybe quoted or escaped
    // (an annotation's value is printed as a string: `True` as "true", nothing as "null")
    if (/(^|\.)annotations[.[]/.test(where)) continue;
    const shown = text.replace(/^["']/, '');
    assert.ok(shown.startsWith(w.value.slice(0, 8)) || /^[|>]/.test(text) || /\\|''/.test(text), `${where}: ${w.by.file}:${w.by.line}:${w.by.column} holds ${JSON.stringify(text)}, not ${JSON.stringify(w.value)}`);
  }
}

/** A known answer (a fixture's explain.yaml): who wrote a field, `by` written as `explain` prints it (`step file:line:column`). */
interface KnownAnswer {
  resource: string;
  path: string;
  value: unknown;
  by: string;
  history?: { value: unknown; by: string }[];
}

const written = (by: WrittenBy) => `${by.step} ${by.file}:${by.line}:${by.column}`;

/** Checks the records of `explained` against the known answers in the YAML text `answers`. */
export function checkKnownAnswers(explained: BuildResult, answers: string): void {
  const known = parseYamlDocuments(answers)[0] as unknown as KnownAnswer[];
  assert.ok(Array.isArray(known) && known.length > 0, 'explain.yaml lists known answers');
  for (const a of known) {
    const r = explained.provenance!.find((p) => `${p.kind}/${p.name}` === a.resource || `${p.kind}/${p.namespace}/${p.name}` === a.resource);
    assert.ok(r, `no resource ${a.resource}`);
    const f = r.fields.find((x) => x.path === a.path);
    assert.ok(f, `${a.resource} has no field ${a.path}`);
    assert.deepEqual(
      { value: f.value, by: written(f.by), history: f.history.map((h) => ({ value: h.value, by: written(h.by) })) },
      { value: a.value, by: a.by, history: a.history ?? [] },
      `${a.resource} ${a.path}`,
    );
  }
}
