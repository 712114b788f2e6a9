import type { FileSystem } from '../fs/filesystem.js';
import type { KustomizationDocument } from './kustomization-document.js';
import type { StagedFiles } from './staged-files.js';

/** What an edit operation works on: the document being edited and the directory it lives in. */
export interface EditContext {
  fs: FileSystem;
  /** the kustomization's directory (absolute); paths in operations are relative to it */
  dir: string;
  /** the kustomization file's name in `dir` */
  fileName: string;
  doc: KustomizationDocument;
  /** other files the edit rewrites, written with the kustomization */
  files: StagedFiles;
  /** things kustomize logs without failing (`resource x already in kustomization file`) */
  notice(message: string): void;
  /** called by an operation that found nothing to do where kustomize then leaves the file unwritten (`remove patch` of a patch not there) */
  nothingToWrite(): void;
}
