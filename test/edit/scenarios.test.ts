/**
 * kustomize's own `create`/`edit` tests, as data (test/edit/scenarios, see its README): each
 * scenario's commands run through the CLI, and the kustomization file must be the one kustomize
 * writes, or, where the scenario records a documented divergence, the one we chose to write.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { main } from '../../src/cli/main.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { readScenarios, runScenario, type CliUnderTest } from './scenario-corpus.js';

const cli: CliUnderTest = {
  main: (args, io) => main(args, io as Parameters<typeof main>[1]),
  memoryFs: (files) => MemoryFileSystem.from(files),
};

describe("kustomize's create/edit scenarios", () => {
  const scenarios = readScenarios();
  test('the corpus is there', () => assert.ok(scenarios.length >= 200, `${scenarios.length} scenarios`));
  for (const s of scenarios) {
    test(`${s.name} (${s.from})`, async () => {
      const outcome = await runScenario(s, cli);
      assert.notEqual(outcome.status, 'fail', outcome.status === 'fail' ? outcome.why : '');
    });
  }
});
