/**
 * Validation with known answers: each folder of cases/ holds an `input/` tree, `case.json` (the
 * directory validated, relative to input/, and the options of `validate()`) and
 * `expected.json`, the report as `validate --format json` prints it, files relative to the
 * directory validated. Each answer was checked by hand against the input's lines. Adding a case
 * is adding files.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { validate, type ValidateOptions } from '../../src/build/validate.js';
import { jsonReport } from '../../src/validate/report-formats.js';
import { helm, skipHelm } from '../helm/helm-env.js';

const CASES = fileURLToPath(new URL('../../../test/validate/cases/', import.meta.url));

for (const name of readdirSync(CASES).sort()) {
  const dir = join(CASES, name);
  const { path, options } = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8')) as { path: string; options: ValidateOptions };
  const usesHelm = options.enableHelm === true;
  test(`validate: ${name}`, { skip: usesHelm && skipHelm }, async () => {
    const input = join(dir, 'input');
    const { build: _build, ...report } = await validate(path, { ...options, ...(usesHelm && { helmCommand: helm() }), cwd: input });
    assert.equal(jsonReport([{ path, ...report }]), readFileSync(join(dir, 'expected.json'), 'utf8'));
  });
}
