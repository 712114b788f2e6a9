import { KustomizeError, type Warning } from '../../errors.js';
import { findRoots } from '../../build/roots.js';
import { join, resolve } from '../../fs/path.js';
import { lock, type LockAction, type LockResult } from '../../edit/lock.js';
import type { LockDifference } from '../../load/remote/lock-file.js';
import { BUILD_OPTION_FLAGS, optionsFromFlags } from '../build-options.js';
import type { Command } from '../command.js';
import { interruptible } from '../interrupt.js';
import { workspace } from '../workspace.js';

/** The build flags `lock` takes: all but those that say how to follow a lock, which `lock` decides. */
const LOCK_BUILD_FLAGS = BUILD_OPTION_FLAGS.filter((f) => f.option !== 'lock').map((f) => f.flag);

/** `lock [DIR]`: pins the remote inputs of a kustomization in kustomization.lock.yaml. */
export const lockCommand: Command = {
  name: 'lock',
  summary: 'Pin the remote inputs of a kustomization (git bases, HTTP files, OCI artifacts, catalogs, helm charts) in kustomization.lock.yaml',
  usage: 'lock [DIR] [flags]',
  description: `Builds the kustomization in DIR (default '.') and writes kustomization.lock.yaml
beside it: each remote input the build reached, through every base and component, with
what it resolved to (a git base's commit, an HTTP file's sha256, an OCI artifact's digest,
a catalog exec program's sha256, a pulled helm chart's archive digest). Builds then follow
the lock: see docs/remote.md.

Without flags, what the lock file already pins stays pinned; inputs it lacks are resolved
and added, and inputs no longer reached are dropped. --update resolves every input anew.
--check resolves every input anew and writes nothing: it prints how the lock file differs
(changed, missing, not reached) and exits 1 when it does.
With --all, DIR is a repository: every kustomization root under it is locked.`,
  examples: `# Lock the current directory's kustomization
  kustomize-ts lock

  # In CI: is the lock file up to date?
  kustomize-ts lock overlays/prod --check

  # Move every root of a repository to what its references name now
  kustomize-ts lock --all . --update`,
  flags: [
    { name: 'update', type: 'bool', help: 'resolve every remote input anew (tags, branches, files as they are now) and write the lock file' },
    { name: 'check', type: 'bool', help: 'write nothing; print how the lock file differs from the inputs as they resolve now, and exit 1 when it does' },
    { name: 'all', type: 'bool', help: 'lock every kustomization root under DIR' },
    ...LOCK_BUILD_FLAGS,
  ],
  async run({ flags, positional }, io) {
    if (positional.length > 1) throw new KustomizeError('USAGE', `specify one directory; got ${positional.length}`);
    if (flags.get('update') === true && flags.get('check') === true) throw new KustomizeError('USAGE', '--update and --check cannot be combined');
    const action: LockAction = flags.get('check') === true ? 'check' : flags.get('update') === true ? 'update' : 'write';
    const { fs, dir: cwd } = workspace(io);
    const dir = resolve(cwd, positional[0] ?? '.');
    const roots = flags.get('all') === true ? findRoots(fs, dir).map((r) => (r === '.' ? dir : join(dir, r))) : [dir];
    const options = optionsFromFlags(flags, process.env);
    const warn = (w: Warning) => io.err(`${w.message}\n`);
    let differs = false;
    for (const root of roots) {
      const result = await interruptible((signal) => lock(root, { ...options, fs, cwd, signal, warn, action }));
      if (action === 'check') {
        differs ||= result.differences.length > 0;
        io.out(checkReport(result, cwd));
      } else {
        io.err(writeReport(result, cwd));
      }
    }
    return differs ? 1 : 0;
  },
};

function shown(file: string, cwd: string): string {
  return file.startsWith(`${cwd}/`) ? file.slice(cwd.length + 1) : file;
}

function writeReport(result: LockResult, cwd: string): string {
  const n = result.inputs.length;
  const what = `${n} remote input${n === 1 ? '' : 's'}`;
  return result.written ? `wrote ${shown(result.file, cwd)}: ${what}\n` : `${shown(result.file, cwd)} is up to date: ${what}\n`;
}

function checkReport(result: LockResult, cwd: string): string {
  const file = shown(result.file, cwd);
  if (result.differences.length === 0) return `${file}: matches (${result.inputs.length} remote inputs)\n`;
  return `${file}: does not match\n${result.differences.map((d) => `  ${differenceLine(d)}\n`).join('')}`;
}

function differenceLine(d: LockDifference): string {
  const input = `${d.type} ${d.url}${d.type === 'helm' ? ` ${d.chart} ${d.version || '(no version)'}` : ''}`;
  switch (d.kind) {
    case 'changed':
      return `changed: ${input}: locked ${d.locked}, now ${d.found}`;
    case 'missing':
      return `not locked: ${input} (now ${d.found})`;
    case 'unreached':
      return `not reached: ${input} (locked ${d.locked})`;
  }
}
