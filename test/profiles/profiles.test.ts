/**
 * Version-profile cases: test/profiles/<case>/input is a kustomization tree, built under every
 * profile; expected/<version>.yaml is what that kustomize prints, expected/<version>.error.txt
 * its error message. The versions with an oracle were recorded from the real kustomize
 * (test/profiles/record.mjs, `--check` to check them again); the others (5.4.3, 5.7.0, 5.8.0,
 * 5.8.1) were written from that release's own tests, as each case's why.txt says. Errors are
 * compared whole, but for the ` (in FILE)` kustomize-ts adds to a kustomization's decode errors.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from '../../src/build/build.js';
import { KustomizeError } from '../../src/errors.js';
import type { ReorderOption } from '../../src/options.js';
import { KUSTOMIZE_PROFILES } from '../../src/versions/profiles.js';
import { requireTool } from '../require-tool.js';

/** from dist/test/profiles/ back to the repository's test/profiles/ */
const CASES = fileURLToPath(new URL('../../../test/profiles/', import.meta.url));
const helm = requireTool('helm');

const cases = readdirSync(CASES, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(CASES, d.name, 'input')))
  .map((d) => d.name)
  .sort();

test('there are profile cases', () => assert.ok(cases.length > 0));

for (const name of cases) {
  const dir = join(CASES, name);
  const options = existsSync(join(dir, 'options.json')) ? (JSON.parse(readFileSync(join(dir, 'options.json'), 'utf8')) as { build?: string; reorder?: ReorderOption; enableHelm?: boolean }) : {};
  // a case with Helm charts runs the real helm
  describe(`profile case ${name}`, { skip: options.enableHelm && helm.skip }, () => {
    for (const { version } of KUSTOMIZE_PROFILES) {
      test(`kustomize ${version}`, async () => {
        const yamlFile = join(dir, 'expected', `${version}.yaml`);
        const errorFile = join(dir, 'expected', `${version}.error.txt`);
        assert.ok(existsSync(yamlFile) !== existsSync(errorFile), `${name} needs one of expected/${version}.yaml and expected/${version}.error.txt`);
        const helmOptions = options.enableHelm ? { enableHelm: true, helmCommand: helm.path } : {};
        const run = build(join(dir, 'input', options.build ?? '.'), { kustomizeVersion: version, reorder: options.reorder ?? 'unspecified', warn: () => {}, ...helmOptions });
        if (existsSync(yamlFile)) {
          assert.equal((await run).yaml, readFileSync(yamlFile, 'utf8'));
          return;
        }
        await assert.rejects(run, (e: unknown) => {
          assert.ok(e instanceof KustomizeError);
          // kustomize-ts names the kustomization file a decode error is in, where kustomize does not
          const message = e.message.replace(` (in ${join(dir, 'input', options.build ?? '.', 'kustomization.yaml')})`, '');
          assert.equal(`${message}\n`, readFileSync(errorFile, 'utf8'));
          return true;
        });
      });
    }
  });
}
