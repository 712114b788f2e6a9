import { KustomizeError, withErrorPrefix } from '../errors.js';
import { basename, dirname } from '../fs/path.js';
import { checkTransformerConfig, compositionError, readComposition, type TransformerImport } from '../kinds/composition.js';
import type { CatalogEntry } from '../catalog/resolver.js';
import type { Loader } from '../load/loader.js';
import { parseYamlDocuments } from '../yaml/parse.js';
import { requireCompositionFile } from './composition-file.js';
import { describeTransformer, sameTransformer, type ConsolidatedTransformer } from './consolidated-transformer.js';
import { applyOverrides } from './overrides.js';
import { applyOrder } from './order.js';

/**
 * The transformer list of the Composition in the loader's directory (or the file `fileName`
 * there), consolidated as the KEP describes: each import in `transformersFrom` is consolidated
 * first (its own imports, overrides and order applied), then placed before (`prepend`, the
 * default) or after (`append`) this Composition's own `transformers`, in the order the
 * imports are listed; `transformerOverrides` patch the imported transformers; a
 * `transformerOrder` reorders the result. Nothing is run.
 */
export function consolidate(loader: Loader, fileName: string = requireCompositionFile(loader)): ConsolidatedTransformer[] {
  return consolidateFile(loader, fileName, []).transformers;
}

/** A consolidated Composition: its transformers, and the catalogs they are resolved through (its own first, then its imports'). */
export interface Consolidated {
  transformers: ConsolidatedTransformer[];
  catalogs: CatalogEntry[];
}

/** {@link consolidate}, with the catalogs of the Composition and its imports. */
export function consolidateWithCatalogs(loader: Loader, fileName: string): Consolidated {
  return consolidateFile(loader, fileName, []);
}

function consolidateFile(loader: Loader, fileName: string, importers: string[]): Consolidated {
  const file = loader.absolute(fileName);
  const seen = importers.indexOf(file);
  if (seen >= 0) {
    const cycle = [...importers.slice(seen), file].map((f) => loader.originPath(f)).join(' -> ');
    throw new KustomizeError('CYCLE', `Composition import cycle: ${cycle}`, { file, field: 'transformersFrom' });
  }
  const composition = readComposition(new TextDecoder().decode(loader.load(fileName)), file);
  const prepended: ConsolidatedTransformer[] = [];
  const appended: ConsolidatedTransformer[] = [];
  const catalogs: CatalogEntry[] = composition.catalogs.map((reference) => ({ reference, loader }));
  composition.transformersFrom.forEach((entry, i) => {
    const imported = importComposition(loader, entry, file, `transformersFrom[${i}]`, [...importers, file]);
    (entry.importMode === 'prepend' ? prepended : appended).push(...imported.transformers);
    catalogs.push(...imported.catalogs);
  });
  const own = composition.transformers.flatMap((entry, i) =>
    typeof entry === 'string' ? configsFromFile(loader, entry, file, `transformers[${i}]`) : [{ config: entry, file, loader, entry: `transformers[${i}]` }],
  );
  const patched = applyOverrides([...prepended, ...appended], composition.transformerOverrides, file);
  const list = [...patched.slice(0, prepended.length).filter(isPresent), ...own, ...patched.slice(prepended.length).filter(isPresent)];
  refuseDuplicates(list, file);
  return { transformers: composition.transformerOrder ? applyOrder(list, composition.transformerOrder, file) : list, catalogs };
}

function isPresent<T>(t: T | undefined): t is T {
  return t !== undefined;
}

/**
 * The consolidated list of an imported Composition: a Composition file, or a directory holding
 * one. It gets its own root, like a base under `resources:`, so `../app` loads under the
 * default load restrictor and its files may not escape its own directory.
 */
function importComposition(loader: Loader, entry: TransformerImport, file: string, field: string, importers: string[]): Consolidated {
  const target = loader.absolute(entry.path);
  if (!loader.fs.exists(target)) throw compositionError(file, `${field}.path`, `${entry.path}: no such file or directory`);
  const isDir = loader.fs.isDirectory(target);
  const child = withErrorPrefix(`${file}: ${field}.path`, () => loader.importRoot(isDir ? entry.path : dirname(entry.path)));
  return consolidateFile(child, isDir ? requireCompositionFile(child) : basename(target), importers);
}

/** The configs in a file a `transformers:` entry names (every document of it). */
function configsFromFile(loader: Loader, path: string, file: string, field: string): ConsolidatedTransformer[] {
  const configFile = loader.absolute(path);
  const text = withErrorPrefix(`${file}: ${field}`, () => new TextDecoder().decode(loader.load(path)));
  const docs = parseYamlDocuments(text, configFile);
  return docs.map((doc, i) => ({ config: checkTransformerConfig(doc, configFile, `[${i}]`), file: configFile, loader, entry: field }));
}

/** Two transformers with the same apiVersion, kind and name cannot be told apart by overrides and order. */
function refuseDuplicates(list: ConsolidatedTransformer[], file: string): void {
  list.forEach((t, i) => {
    const j = list.findIndex((u, k) => k > i && sameTransformer(u.config, t.config));
    if (j < 0) return;
    throw compositionError(
      file,
      'transformers',
      `duplicate transformer ${describeTransformer(t.config)} (from ${t.file} and ${list[j]!.file}): give one a different metadata.name`,
    );
  });
}
