/**
 * `kustomize-ts build` stopped by SIGINT (Ctrl-C) or SIGTERM: a plugin's process group, which
 * the terminal's signal does not reach, is killed before the CLI dies of the signal it got.
 * The real CLI (`node bin/kustomize-ts.js`) and a real exec function that sleeps.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { execFunctionConfig, SLEEPER, writeTree } from '../plugins/plugin-tree.js';
import { alive, fileWritten, gone } from '../process/processes.js';

const BIN = fileURLToPath(new URL('../../../bin/kustomize-ts.js', import.meta.url));
const trees: string[] = [];
after(() => {
  for (const dir of trees) rmSync(dir, { recursive: true, force: true });
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test(`${signal}: the function's process group is killed, then the CLI dies of ${signal}`, { timeout: 60_000 }, async () => {
    const dir = writeTree({
      'app/kustomization.yaml': 'transformers:\n- fn.yaml\n',
      'app/fn.yaml': execFunctionConfig('Sleeper', './sleeper.sh'),
      'app/sleeper.sh': SLEEPER,
    });
    trees.push(dir);
    const app = join(dir, 'app');
    const cli = spawn(process.execPath, [BIN, 'build', app, '--enable-alpha-plugins', '--enable-exec'], { stdio: 'ignore' });
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => cli.on('exit', (code, sig) => resolve([code, sig])));
    const functionPid = Number(await fileWritten(join(app, 'ready.pid')));
    cli.kill(signal);
    assert.deepEqual(await exited, [null, signal]);
    assert.equal(alive(functionPid), false, 'the function was gone before the CLI died');
    await gone(Number(await fileWritten(join(app, 'child.pid'))));
  });
}
