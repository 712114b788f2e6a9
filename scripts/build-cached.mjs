#!/usr/bin/env node
// `kustomize-ts build` through a library `BuildCache`, for the conformance runner
// (`node scripts/conformance.mjs --cached`): the build runs twice with one cache, the second
// time after an edit (a comment appended to the top kustomization file, through a wrapping
// file system), and both outputs must be the same. With a cache, resources share their
// parsed files frozen and steps copy what they write, and the second build reuses the first
// one's parsed files and printed texts: every case checks those paths.
//
//   node scripts/build-cached.mjs build [flags] DIR
import { build, BuildCache } from '../dist/src/index.js';
import { DiskFileSystem } from '../dist/src/node.js';
import { BUILD_OPTION_FLAGS, optionsFromFlags } from '../dist/src/cli/build-options.js';
import { parseFlags } from '../dist/src/cli/flags.js';
import { KUSTOMIZATION_FILE_NAMES } from '../dist/src/load/entry.js';
import { join, resolve } from 'node:path';

const [command, ...rest] = process.argv.slice(2);
if (command !== 'build') {
  process.stderr.write('usage: build-cached.mjs build [flags] DIR\n');
  process.exit(2);
}
const { flags, positional } = parseFlags(rest, BUILD_OPTION_FLAGS.map((f) => f.flag));
const dir = positional[0] ?? '.';
const topFiles = KUSTOMIZATION_FILE_NAMES.map((name) => join(resolve(dir), name));
const options = { ...optionsFromFlags(flags, process.env), warn: (m) => process.stderr.write(`${m}\n`) };

/** The disk, but the top kustomization file reads with `edit` appended (an edit that changes no resource). */
class EditedFileSystem extends DiskFileSystem {
  edit = '';
  readFile(path) {
    const bytes = super.readFile(path);
    return this.edit && topFiles.includes(resolve(path)) ? Buffer.concat([bytes, Buffer.from(this.edit)]) : bytes;
  }
}

const fs = new EditedFileSystem();
const cache = new BuildCache();
try {
  const first = await build(dir, { ...options, fs, cwd: process.cwd(), cache });
  fs.edit = '\n# edited\n';
  const second = await build(dir, { ...options, fs, cwd: process.cwd(), cache, warn: () => {} });
  if (second.warnings.join('\n') !== first.warnings.join('\n')) {
    process.stderr.write('build-cached: the build after an edit warned otherwise than the first build\n');
    process.exit(3);
  }
  if (cache.counts.answered !== 0) {
    process.stderr.write('build-cached: the second build did not see the edit\n');
    process.exit(3);
  }
  if (second.yaml !== first.yaml) {
    process.stderr.write('build-cached: the build after an edit printed something else than the first build\n');
    process.exit(3);
  }
  process.stdout.write(first.yaml);
} catch (e) {
  process.stderr.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
