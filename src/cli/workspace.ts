import { DiskFileSystem } from '../fs/disk.js';
import type { FileSystem } from '../fs/filesystem.js';
import { editKustomization } from '../edit/edit.js';
import type { EditOp } from '../edit/ops.js';
import type { CliIO } from './command.js';

/** The file system and directory `create` and `edit` work in. */
export function workspace(io: CliIO): { fs: FileSystem; dir: string } {
  return { fs: io.fs ?? new DiskFileSystem(), dir: io.cwd ?? process.cwd().split('\\').join('/') };
}

/** Applies edits to the kustomization in the working directory; kustomize's log lines go to stderr. */
export async function runEdit(io: CliIO, ops: EditOp[]): Promise<number> {
  const { fs, dir } = workspace(io);
  await editKustomization(fs, dir, ops, { notice: (m) => io.err(`${m}\n`) });
  return 0;
}
