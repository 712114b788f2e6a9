import { KustomizeError } from '../errors.js';
import { readText, type FileSystem } from '../fs/filesystem.js';
import { join, normalize } from '../fs/path.js';
import { KUSTOMIZATION_FILE_NAMES } from '../load/entry.js';
import { checkOptionNames, optionNames } from '../options.js';
import { parseYamlDocuments } from '../yaml/parse.js';
import { isMap } from '../yaml/value.js';
import type { EditContext } from './context.js';
import { replaceFile } from './kustomization-file.js';
import { StagedFiles } from './staged-files.js';
import { KustomizationDocument } from './kustomization-document.js';
import { addEntries } from './ops/entries.js';
import { fixKustomization } from './ops/fix.js';
import { checkNamespace, metadataWarnings } from './validate.js';

/** What `kustomize create` puts in a new kustomization. */
export interface CreateOptions {
  /** paths, glob patterns, directories or remote URLs, as `edit add resource` takes them */
  resources?: string[];
  namespace?: string;
  namePrefix?: string;
  nameSuffix?: string;
  /** written to `commonLabels`, as kustomize's `create --labels` does */
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** add the files in the directory that hold Kubernetes resources */
  autodetect?: boolean;
  /** with `autodetect`: look into subdirectories too; one holding a kustomization is added as a directory */
  recursive?: boolean;
  notice?: (message: string) => void;
}

const CREATE_OPTION_NAMES = optionNames<CreateOptions>({
  resources: true,
  namespace: true,
  namePrefix: true,
  nameSuffix: true,
  labels: true,
  annotations: true,
  autodetect: true,
  recursive: true,
  notice: true,
});

/** What {@link createKustomization} wrote. */
export interface CreateResult {
  /** the new kustomization file (absolute) */
  file: string;
  text: string;
}

/**
 * Creates `kustomization.yaml` in `dir` (absolute); fails if the directory has a kustomization
 * file already. Asynchronous like the library's other entries, though the work is synchronous today.
 */
export async function createKustomization(fs: FileSystem, dir: string, options: CreateOptions = {}): Promise<CreateResult> {
  checkOptionNames(options, CREATE_OPTION_NAMES, 'createKustomization()');
  const root = normalize(dir);
  const file = join(root, KUSTOMIZATION_FILE_NAMES[0]);
  const doc = KustomizationDocument.parse('', file);
  const ctx: EditContext = { fs, dir: root, fileName: KUSTOMIZATION_FILE_NAMES[0], doc, files: new StagedFiles(fs), notice: options.notice ?? (() => {}), nothingToWrite: () => {} };
  fixKustomization(ctx);
  if (options.resources?.length) addEntries(ctx, { op: 'addEntries', field: 'resources', entries: options.resources });
  if (KUSTOMIZATION_FILE_NAMES.some((name) => fs.exists(join(root, name)))) {
    throw new KustomizeError('EDIT_CONFLICT', 'kustomization file already exists', { file });
  }
  if (options.autodetect) {
    const listed = new Set(options.resources ?? []);
    const detected = detectResources(fs, root, '', options.recursive ?? false).filter((p) => !listed.has(p));
    if (detected.length > 0) addEntries(ctx, { op: 'addEntries', field: 'resources', entries: detected, noVerify: true });
  }
  if (options.namespace) {
    checkNamespace(options.namespace);
    doc.set('namespace', options.namespace);
  }
  if (options.namePrefix) doc.set('namePrefix', options.namePrefix);
  if (options.nameSuffix) doc.set('nameSuffix', options.nameSuffix);
  if (options.labels && Object.keys(options.labels).length > 0) {
    for (const warning of metadataWarnings('label', options.labels)) ctx.notice(warning);
    doc.set('commonLabels', options.labels);
  }
  if (options.annotations && Object.keys(options.annotations).length > 0) {
    for (const warning of metadataWarnings('annotation', options.annotations)) ctx.notice(warning);
    doc.set('commonAnnotations', options.annotations);
  }
  const text = doc.editedText();
  replaceFile(fs, file, text);
  return { file, text };
}

/** Files under `rel` that hold Kubernetes resources (and, recursively, directories with a kustomization), in walk order. */
function detectResources(fs: FileSystem, root: string, rel: string, recursive: boolean): string[] {
  const found: string[] = [];
  for (const name of fs.readDir(join(root, rel))) {
    const path = rel ? `${rel}/${name}` : name;
    const abs = join(root, path);
    if (fs.isDirectory(abs)) {
      if (!recursive) continue;
      if (KUSTOMIZATION_FILE_NAMES.some((k) => fs.exists(join(abs, k)))) found.push(path);
      else found.push(...detectResources(fs, root, path, recursive));
    } else if (holdsResources(readText(fs, abs), abs)) found.push(path);
  }
  return found;
}

function holdsResources(text: string, file: string): boolean {
  try {
    const docs = parseYamlDocuments(text, file).filter((d) => d !== null);
    return docs.length > 0 && docs.every((d) => isMap(d) && typeof d['kind'] === 'string' && d['kind'] !== '');
  } catch {
    return false;
  }
}
