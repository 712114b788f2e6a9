import type { Range } from 'vscode-languageserver-types';
import type { FileSystem } from '../../fs/filesystem.js';
import { dirname, join, resolve } from '../../fs/path.js';
import { absChartHome, HELM_DEFAULT_HOME } from '../../helm/chart-config.js';
import { compositionFilesIn, kustomizationFilesIn } from '../../load/entry.js';
import { isHttpUrl } from '../../load/remote/remote-source.js';
import { placedText } from '../../yaml/positions.js';
import { isMap, isSeq, type Value } from '../../yaml/value.js';
import { isKustomizationFile } from '../error-place.js';
import { linesOf } from '../text-range.js';
import { isCompositionFile } from './workspace-files.js';
import { writtenRange } from './written-range.js';

/** A path a kustomization, Composition or Catalog names: where it is written, and what it names. */
export interface PathReference {
  /** the path as written (a `files` entry's after its `key=`) */
  range: Range;
  /** the file it names, absolute (a directory's kustomization or Composition file, a local chart's `Chart.yaml`), or the http(s) URL it is */
  target: { file: string } | { url: string };
}

/**
 * What a written path may name: `entry` a file or a directory (its kustomization or Composition
 * file), `tree` a directory, `file` a file, `keyed` a file written `key=path` or `path`, `chart`
 * a chart in the kustomization's chart home.
 */
type Names = 'entry' | 'tree' | 'file' | 'keyed' | 'chart';

/** Where paths are written in a file of a kind: keys and `*` (every item of a list) down to the path. */
type PathFields = readonly (readonly [readonly string[], Names])[];

const GENERATOR_FIELDS = (field: string): PathFields => [
  [[field, '*', 'files', '*'], 'keyed'],
  [[field, '*', 'envs', '*'], 'file'],
  [[field, '*', 'env'], 'file'],
];

const KUSTOMIZATION_PATHS: PathFields = [
  [['resources', '*'], 'entry'],
  [['bases', '*'], 'entry'],
  [['components', '*'], 'tree'],
  [['crds', '*'], 'file'],
  [['configurations', '*'], 'file'],
  [['patchesStrategicMerge', '*'], 'file'],
  [['patches', '*', 'path'], 'file'],
  [['patchesJson6902', '*', 'path'], 'file'],
  ...GENERATOR_FIELDS('configMapGenerator'),
  ...GENERATOR_FIELDS('secretGenerator'),
  [['openapi', 'path'], 'file'],
  [['helmCharts', '*', 'name'], 'chart'],
  [['helmCharts', '*', 'valuesFile'], 'file'],
  [['helmCharts', '*', 'additionalValuesFiles', '*'], 'file'],
  [['transformers', '*'], 'entry'],
  [['generators', '*'], 'entry'],
  [['validators', '*'], 'entry'],
  [['replacements', '*', 'path'], 'file'],
  [['catalogs', '*'], 'file'],
];

const COMPOSITION_PATHS: PathFields = [
  [['transformers', '*'], 'file'],
  [['transformers', '*', 'paths', '*'], 'entry'],
  [['transformers', '*', 'provider', 'exec', 'path'], 'file'],
  [['transformers', '*', 'provider', 'starlark', 'path'], 'file'],
  [['transformersFrom', '*', 'path'], 'entry'],
  [['catalogs', '*'], 'file'],
];

const RUNTIME_PATHS: PathFields = [
  [['runtime', 'exec', 'platforms', '*', 'uri'], 'file'],
  [['runtime', 'starlark'], 'file'],
];
const CATALOG_PATHS: PathFields = [
  ...RUNTIME_PATHS.map(([path, names]) => [['spec', 'krmFunctions', '*', ...path], names] as const),
  ...RUNTIME_PATHS.map(([path, names]) => [['spec', 'krmFunctions', '*', 'versions', '*', ...path], names] as const),
];

/**
 * The paths a file names, when it is a kustomization, a Composition or a Catalog: each local one
 * that names a file or a directory that is there (and that `allowed` lets the editor read), and
 * each http(s) URL. A text that does not parse names none. `allowed` is asked of each file (for
 * a directory, of the directory).
 */
export function pathReferences(fs: FileSystem, file: string, text: string, allowed: (path: string, directory: boolean) => boolean): PathReference[] {
  const kustomization = isKustomizationFile(file);
  const placed = placedText(text, { keys: true, ...(kustomization && { dialect: 'yaml11' as const }) });
  const lines = linesOf(text);
  const dir = dirname(file);
  const found: PathReference[] = [];
  const composition = isCompositionFile(file);
  placed.docs.forEach((doc, i) => {
    if (!isMap(doc)) return;
    // a kustomization or a Composition is its file's first document; a Catalog may be any
    const fields = kustomization ? KUSTOMIZATION_PATHS : composition ? COMPOSITION_PATHS : doc['kind'] === 'Catalog' ? CATALOG_PATHS : [];
    if (i > 0 && fields !== CATALOG_PATHS) return;
    for (const [path, names] of fields) {
      for (const { holder, key, value } of stringsAt(doc, path)) {
        const at = placed.placeOf(holder, key);
        if (!at) continue;
        const keyed = names === 'keyed' && value.includes('=') ? value.indexOf('=') + 1 : 0;
        const written = value.slice(keyed);
        const target = targetOf(fs, dir, written, names, doc, holder, allowed);
        if (!target) continue;
        const range = writtenRange(lines, at, value);
        found.push({ range: { start: { ...range.start, character: range.start.character + keyed }, end: range.end }, target });
      }
    }
  });
  return found;
}

/** The reference under a position, if one is written there. */
export function referenceAt(references: readonly PathReference[], line: number, character: number): PathReference | undefined {
  return references.find((r) => r.range.start.line === line && r.range.start.character <= character && character <= r.range.end.character);
}

/** The strings at `path` (`*` crossing every item of a list) below `value`, with the map or list holding each. */
function stringsAt(value: Value, path: readonly string[]): { holder: Value; key: string | number; value: string }[] {
  const [head, ...rest] = path;
  if (head === undefined || typeof value !== 'object' || value === null) return [];
  const keys: (string | number)[] = head === '*' ? (isSeq(value) ? value.map((_, i) => i) : []) : isMap(value) ? [head] : [];
  return keys.flatMap((key) => {
    const child = (value as Record<string | number, Value>)[key];
    if (rest.length > 0) return child === undefined ? [] : stringsAt(child, rest);
    return typeof child === 'string' && child !== '' && !/[\r\n]/.test(child) ? [{ holder: value, key, value: child }] : [];
  });
}

/** What a path written in a file of `dir` names, when it is there: a local file or directory, else an http(s) URL. */
function targetOf(fs: FileSystem, dir: string, written: string, names: Names, doc: Value, holder: Value, allowed: (path: string, directory: boolean) => boolean): PathReference['target'] | undefined {
  if (names === 'chart') {
    const chart = chartOf(dir, written, doc, holder);
    return allowed(dirname(chart), true) && fs.exists(chart) && !fs.isDirectory(chart) ? { file: chart } : undefined;
  }
  const local = written.startsWith('file://') ? written.slice('file://'.length) : written;
  const path = resolve(dir, local);
  // nothing outside the workspace is asked about (a directory may be anywhere in it)
  if (!/^[a-z][a-z0-9+.-]*:/i.test(local) && allowed(path, true) && fs.exists(path)) {
    const directory = fs.isDirectory(path);
    if (!allowed(path, directory)) return undefined;
    if (!directory) return names === 'tree' ? undefined : { file: path };
    if (names !== 'entry' && names !== 'tree') return undefined;
    const inside = kustomizationFilesIn(fs, path)[0] ?? compositionFilesIn(fs, path)[0];
    return inside === undefined ? undefined : { file: join(path, inside) };
  }
  return isHttpUrl(written) ? { url: written } : undefined;
}

/** Where a `helmCharts` entry's chart has its `Chart.yaml` in the chart home (a chart to pull is not there until pulled). */
function chartOf(dir: string, name: string, doc: Value, entry: Value): string {
  const globals = isMap(doc) ? doc['helmGlobals'] : undefined;
  const home = isMap(globals) && typeof globals['chartHome'] === 'string' ? globals['chartHome'] : HELM_DEFAULT_HOME;
  const str = (key: string) => (isMap(entry) && typeof entry[key] === 'string' ? entry[key] : undefined);
  return join(absChartHome({ name, version: str('version'), repo: str('repo'), chartHome: home }, dir), name, 'Chart.yaml');
}

