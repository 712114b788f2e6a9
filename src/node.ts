/**
 * The parts of kustomize-ts that need Node: the disk file system and the default source of
 * remote resources (`fetch` plus the `git` executable). `build()` uses both by default; import
 * them from here to wrap or reuse them.
 */
export { DiskFileSystem } from './fs/disk.js';
export { NodeRemoteSource } from './load/remote/node-remote.js';
