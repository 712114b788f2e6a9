/** The command table in-process: help for every command, version, --stack-trace, completion. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Command } from '../../src/cli/command.js';
import { COMMANDS, main } from '../../src/cli/main.js';
import { KUSTOMIZE_VERSION, VERSION } from '../../src/options.js';

async function run(...args: string[]) {
  let out = '';
  let err = '';
  const code = await main(args, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

function walk(commands: readonly Command[], path: string[]): [string[], Command][] {
  return commands.filter((c) => !c.hidden).flatMap((c) => [[[...path, c.name], c] as [string[], Command], ...walk(c.subcommands ?? [], [...path, c.name])]);
}

describe('help', () => {
  for (const [path, command] of walk(COMMANDS, [])) {
    test(`${path.join(' ')} --help and help ${path.join(' ')}`, async () => {
      const viaFlag = await run(...path, '--help');
      assert.equal(viaFlag.code, 0);
      assert.ok(viaFlag.out.startsWith(`${command.description ?? command.summary}\n\nUsage:\n  kustomize-ts ${[...path.slice(0, -1), command.usage].join(' ')}\n`), viaFlag.out);
      assert.match(viaFlag.out, new RegExp(`\nFlags:\n(.*\n)*  -h, --help +help for ${command.name}\n`));
      // cobra lists the root's persistent flag under every command, as kustomize's help does
      assert.match(viaFlag.out, /\n\nGlobal Flags:\n {6}--stack-trace   print a stack-trace on error\n/);
      for (const sub of command.subcommands ?? []) if (!sub.hidden) assert.match(viaFlag.out, new RegExp(`\n  ${sub.name} +${sub.summary.replace(/[.*()[\]]/g, '\\$&')}\n`));
      const viaHelp = await run('help', ...path);
      assert.equal(viaHelp.out, viaFlag.out);
    });
  }
});

describe('help: flags', () => {
  test('the root lists --stack-trace with its own flags; a subcommand under Global Flags, after its sorted flags; deprecated flags unlisted', async () => {
    const root = await run('--help');
    assert.match(root.out, /\nFlags:\n  -h, --help          help for kustomize-ts\n      --stack-trace   print a stack-trace on error\n\nUse "kustomize-ts \[command\] --help"/);
    assert.doesNotMatch(root.out, /Global Flags/);
    const fix = await run('edit', 'fix', '-h');
    assert.ok(
      fix.out.endsWith(
        '\nFlags:\n' +
          '  -h, --help   help for fix\n' +
          '      --vars   If specified, kustomize will attempt to convert vars to replacements. \n' +
          '               We recommend doing this in a clean git repository where the change is easy to undo.\n' +
          '\nGlobal Flags:\n      --stack-trace   print a stack-trace on error\n',
      ),
      fix.out,
    );
    const create = await run('create', '--help');
    assert.match(create.out, /\nAliases:\n  create, init\n\nExamples:\n/);
    assert.equal((await run('__complete', '--', 'edit', 'fix', '--st')).out, '--stack-trace\n');
    // deprecated flags are accepted but not listed, as pflag does
    assert.doesNotMatch((await run('build', '--help')).out, /--reorder|--enable-managedby-label/);
    assert.doesNotMatch((await run('version', '--help')).out, /--short/);
  });
});

describe('version', () => {
  test('plain, --short (deprecated), -o yaml|json: the kustomize version followed, then ours', async () => {
    assert.equal((await run('version')).out, `v${KUSTOMIZE_VERSION} (kustomize-ts v${VERSION})\n`);
    const short = await run('version', '--short');
    // Go's %v of kustomize's short provenance: version, commit, date, os, arch, Go version
    assert.equal(short.out, `{kustomize/v${KUSTOMIZE_VERSION}  kustomize-ts/v${VERSION}   }\n`);
    assert.equal(short.err, 'Flag --short has been deprecated, and will be removed in the future.\n');
    const goArch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string] ?? process.arch;
    const fields = {
      version: `kustomize/v${KUSTOMIZE_VERSION}`,
      gitCommit: 'unknown',
      buildDate: 'unknown',
      goOs: process.platform,
      goArch,
      kustomizeTsVersion: `v${VERSION}`,
      nodeVersion: process.version,
    };
    const json = (await run('version', '-o', 'json')).out;
    assert.deepEqual(Object.entries(JSON.parse(json) as object), Object.entries(fields), 'kustomize\'s fields in its order, then ours');
    assert.ok(json.endsWith('\n}\n'));
    const yaml = (await run('version', '-oyaml')).out;
    assert.equal(yaml, `${Object.entries(fields).map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n`);
    assert.equal((await run('version', '--short', '-o', 'json')).err, 'Flag --short has been deprecated, and will be removed in the future.\nError: --short and --output are mutually exclusive\n');
  });
});

describe('--stack-trace', () => {
  test('prints the error and then its stack, wherever the flag stands', async () => {
    const plain = await run('edit', 'set', 'image');
    assert.equal(plain.err, 'Error: no image specified\n');
    const traced = await run('edit', '--stack_trace', 'set', 'image');
    assert.equal(traced.code, 1);
    assert.match(traced.err, /^Error: no image specified\nKustomizeError: no image specified\n {4}at /);
  });
});

describe('completion', () => {
  test('__complete gives subcommands and flags of the command the words name', async () => {
    assert.equal((await run('__complete', '--', 'edit', 'a')).out, 'add\nalpha-list-builtin-plugin\n');
    assert.equal((await run('__complete', '--', 'edit', 'set', 'image', '--h')).out, '--help\n');
    assert.equal((await run('__complete', '--', 'build', '--enable-h')).out, '--enable-helm\n');
    assert.doesNotMatch((await run('__complete', '--', '')).out, /__complete/);
  });

  test('the bash script completes through the real CLI', () => {
    const dir = nodeFs.mkdtempSync(nodePath.join(os.tmpdir(), 'kts-completion-'));
    try {
      const bin = fileURLToPath(new URL('../../../bin/kustomize-ts.js', import.meta.url));
      nodeFs.writeFileSync(nodePath.join(dir, 'kustomize-ts'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`, { mode: 0o755 });
      const script = 'source <(kustomize-ts completion bash); COMP_WORDS=(kustomize-ts edit se); COMP_CWORD=2; _kustomize_ts; echo "${COMPREPLY[@]}"';
      const r = spawnSync('bash', ['-c', script], { env: { ...process.env, PATH: `${dir}:${process.env['PATH']}` }, encoding: 'utf8' });
      assert.equal(r.stderr, '');
      assert.equal(r.stdout, 'set\n');
    } finally {
      nodeFs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a script for each shell; other shells are refused', async () => {
    for (const shell of ['bash', 'zsh', 'fish', 'powershell']) assert.match((await run('completion', shell)).out, /kustomize-ts'? __complete -- /);
    assert.equal((await run('completion', 'tcsh')).err, 'Error: specify one shell: bash, zsh, fish or powershell\n');
  });
});
