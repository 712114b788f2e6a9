import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as api from '../../src/index.js';

// The library entry must load in a browser: nothing it imports statically may need Node.
// Node-only parts (disk, git, plugin processes) are imported dynamically, when a build asks.

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');

function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  for (const m of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  return out;
}

test('the static import graph of the library entry has no node: modules', () => {
  const seen = new Set<string>();
  const offenders: string[] = [];
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('node:')) offenders.push(`${file.slice(dist.length)} imports ${spec}`);
      else if (spec.startsWith('.')) visit(join(dirname(file), spec));
    }
  };
  visit(join(dist, 'index.js'));
  assert.ok(seen.size > 20, 'the walk followed the imports');
  assert.deepEqual(offenders, []);
});

test('the entry exports the build and the in-memory file system', async () => {
  const fs = api.MemoryFileSystem.from({ 'app/kustomization.yaml': 'namePrefix: x-\nresources:\n- cm.yaml\n', 'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n' });
  const { yaml, resources } = await api.build('/app', { fs });
  assert.equal(yaml, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x-c\n');
  assert.ok(resources[0] instanceof api.Resource);
  assert.equal(resources[0]!.name, 'x-c');
});
