import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

// The interpreter and the runtime adapter must run in a browser: no module of src/starlark
// may import a node: module, and outside the folder only the pure errors and YAML value modules.
test('src/starlark imports nothing from Node', () => {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'starlark');
  const offenders: string[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.js'))) {
    for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/from\s+['"]([^'"]+)['"]/g)) {
      const spec = m[1]!;
      if (spec.startsWith('node:') || (spec.startsWith('../') && spec !== '../errors.js' && spec !== '../yaml/value.js')) offenders.push(`${f}: ${spec}`);
    }
  }
  assert.deepEqual(offenders, []);
});
