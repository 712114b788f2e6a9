import { isRelativePath, relative } from '../fs/path.js';
import type { Loader } from '../load/loader.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import { isListIndex, splitFieldPath, splitIndexNameValue } from '../replacements/field-path.js';
import { selectSource } from '../replacements/select.js';
import { placedText, positionAt, START, type PlacedText, type PositionTree, type TextPosition } from '../yaml/positions.js';
import { isMap, isSeq, type Value, type YMap } from '../yaml/value.js';
import type { VarSet } from '../vars/vars.js';
import { configDocument, fieldPathOf, type ConfigPositions, type LocatedStep, type PositionedText } from './config-positions.js';
import type { FieldPath, FieldValue, Locate, ProvenanceRecorder, WrittenBy } from './provenance.js';

/** A text, what it is named in what the locators give, and where its documents' values are written. */
interface Positioned {
  display: string;
  text: PositionedText;
}

/**
 * Where the values a step writes come from, for `explain`: each kind of step points at the
 * text its values were taken from (the kustomization field, the line of a patch that writes the
 * value, a generator's literal, the source field of a replacement…), falling back to the field
 * or the config that made the step.
 */
export class ProvenanceLocators {
  /** resource files' texts read by {@link resourceDocuments} and not yet recorded by {@link readFile} */
  private readonly justRead = new Map<string, PlacedText>();

  constructor(
    private readonly recorder: ProvenanceRecorder,
    /** the directory built: the files named are relative to it */
    private readonly buildDir: () => string,
    /** the build's texts of configs, patches and env files, read once, with positions */
    private readonly positions: ConfigPositions,
  ) {}

  /**
   * The documents of a resource file's `text`, read (once) with where their values are: the
   * build's own read of the file when it records provenance. Errors are the build's.
   */
  resourceDocuments(text: string, file: string): Value[] {
    const placed = placedText(text, { file });
    this.justRead.set(text, placed);
    return placed.docs;
  }

  /**
   * Records `resources`, just made from the resource file `file` (as `loader` reads it, or a
   * URL) whose text is `text`: each value written where the file has it.
   */
  readFile(loader: Loader, file: string, text: string, resources: readonly Resource[]): void {
    const read = this.justRead.get(text);
    this.justRead.delete(text);
    if (!read) return;
    const display = /^https?:\/\//.test(file) ? file : this.display(loader, file);
    const written = (at: TextPosition) => this.at(display, at, 'resource');
    // (the documents are as read: no step has run on the resources made from them yet)
    resourceDocumentsOf(read).forEach(([original, at], i) => resources[i] && this.recorder.readPlaced(resources[i], read, original, at, written));
  }

  /** What a step writes. */
  forStep(step: LocatedStep, resources: ResourceMap): Locate {
    const name = step.field ?? step.entry ?? step.config.kind;
    if (step.field && step.file) return this.fieldStep(step, name, resources);
    // a plugin: the config that made it, in its own file, or written in the list that names it (a Composition's)
    const configFile = this.positions.configFile(step);
    const text = configFile?.text;
    const own = text && configDocument(text.placed.docs, step.config);
    const ownDocument = own === undefined ? undefined : text?.trees[own]?.at;
    const listed = !ownDocument && step.entry && text?.trees[0] ? positionAt(text.trees[0], fieldPathOf(step.entry)) : undefined;
    // a builtin so written is located as the kustomization field it stands for: a patch's line in its patch
    if (listed?.whole && step.config.apiVersion === 'builtin') return this.fieldStep({ ...step, field: step.entry!, file: configFile!.file }, name, resources);
    const display = configFile ? this.display(step.loader, configFile.file) : step.file ? this.display(step.loader, step.file) : '';
    return () => this.at(display, ownDocument ?? (listed?.whole ? listed.at : START), name);
  }

  /** What the build's own last steps write: a hash suffix is its generator's, a name reference follows the name it refers to. */
  forFinishing(kind: string, resources: ResourceMap, file: string, loader: Loader): Locate {
    const fallback = (step: string) => this.at(this.display(loader, file), START, step);
    // a hash suffix is the generator's: the step that made the name first
    if (kind === 'HashTransformer') return (_p, _v, _r, earlier) => earlier[0]?.by ?? fallback('generator');
    if (kind === 'NameReferenceTransformer') {
      return (_p, value, _r, earlier) => {
        const named = resources.resources().find((o) => o.name === value);
        return (named && this.recorder.written(named, ['metadata', 'name'])?.by) ?? earlier.at(-1)?.by ?? fallback('nameReference');
      };
    }
    if (kind === 'LabelTransformer') return () => this.topField(loader, file, 'buildMetadata');
    return () => fallback(kind);
  }

  /** What vars write: a `$(NAME)` replaced is the value of the var's field, written where that field was. */
  forVars(vars: VarSet, resources: ResourceMap, file: string, loader: Loader): Locate {
    const fallback = this.topField(loader, file, 'vars');
    return (_path, _value, _r, earlier) => {
      const before = earlier.at(-1)?.value;
      for (const [, name] of typeof before === 'string' ? before.matchAll(/(?<!\$)\$\(([^)]*)\)/g) : []) {
        const source = vars.source(name!, resources);
        const at = source && resolvedPath(source.holder.view, splitFieldPath(source.fieldPath.replace(/\[(\d+)\]/g, '.$1')));
        const written = at && this.recorder.written(source.holder, at);
        if (written) return { ...written.by, step: source.entry };
      }
      return fallback;
    };
  }

  /**
   * What printing writes: the origin and transformation annotations `buildMetadata` asks for;
   * an annotation printed as a string keeps its writer. Located now, as the build's files may
   * be gone when the output is printed.
   */
  forPrinting(file: string, loader: Loader): Locate {
    const buildMetadata = this.topField(loader, file, 'buildMetadata');
    const annotation = (path: FieldPath) => path.length === 3 && path[0] === 'metadata' && path[1] === 'annotations';
    return (path, _value, _r, earlier) => (annotation(path) && earlier.length > 0 ? earlier.at(-1)!.by : buildMetadata);
  }

  /** The kustomization `file`'s field `key` as the step (its start when it has none: an option from the command line, a base's vars). */
  private topField(loader: Loader, file: string, key: string): WrittenBy {
    const tree = this.positions.kustomization(loader, file)?.trees[0];
    const at = tree?.children?.has(key) ? positionAt(tree, [key]).at : START;
    return this.at(this.display(loader, file), at, key);
  }

  private fieldStep(step: LocatedStep, name: string, resources: ResourceMap): Locate {
    const k = this.positions.kustomization(step.loader, step.file!);
    const display = this.display(step.loader, step.file!);
    const inConfig = (path: FieldPath): TextPosition => this.positions.configValue(step, path)?.at ?? START;
    const fields = step.config.view;
    switch (step.config.kind) {
      case 'LabelTransformer':
      case 'AnnotationsTransformer': {
        const key = step.config.kind === 'LabelTransformer' ? 'labels' : 'annotations';
        return (path) => this.at(display, inConfig([key, String(path[path.length - 1])]), name);
      }
      case 'ImageTagTransformer': {
        const entry = isMap(fields['imageTag']) ? fields['imageTag'] : {};
        const key = ['newTag', 'digest', 'newName'].find((f) => f in entry);
        return () => this.at(display, inConfig(key ? ['imageTag', key] : []), name);
      }
      case 'ReplicaCountTransformer':
        return () => this.at(display, inConfig(['replica', 'count']), name);
      case 'PatchTransformer':
      case 'PatchJson6902Transformer':
      case 'PatchStrategicMergeTransformer':
        return this.patchStep(step, name, display, inConfig);
      case 'ConfigMapGenerator':
      case 'SecretGenerator':
        return this.generatorStep(step, name, display, inConfig, (keys) => (k?.trees[0] ? positionAt(k.trees[0], keys) : undefined));
      case 'ReplacementTransformer':
        return this.replacementStep(name, display, inConfig, resources, fields);
      case 'HelmChartInflationGenerator': {
        // what helm printed is read from the chart: its Chart.yaml stands for it
        const home = typeof fields['chartHome'] === 'string' ? fields['chartHome'] : 'charts';
        const chart = `${home}/${String(fields['name'])}/Chart.yaml`;
        return () => this.at(isRelativePath(chart) ? this.display(step.loader, chart) : chart, START, 'resource');
      }
      default:
        return () => this.at(display, inConfig([]), name);
    }
  }

  /** A patch's values: the line of the patch that writes the value (an inline patch's, in the kustomization). */
  private patchStep(step: LocatedStep, name: string, display: string, inConfig: (path: FieldPath) => TextPosition): Locate {
    const fields = step.config.view;
    const sources: (Positioned & { step: string })[] = [];
    // `patchesStrategicMerge` is one step of many files: each is its entry
    const paths: FieldPath[] = typeof fields['path'] === 'string' ? [['path']] : isSeq(fields['paths']) ? fields['paths'].map((_p, i) => ['paths', i]) : [];
    for (const path of paths) {
      const named = this.positions.namedText(step, path);
      if (named) sources.push({ display: this.display(step.loader, named.file), text: named.text, step: path.length > 1 ? `${name}[${path[1]}]` : name });
    }
    const inline = typeof fields['patch'] === 'string' ? 'patch' : typeof fields['jsonOp'] === 'string' ? 'jsonOp' : undefined;
    const held = inline !== undefined && paths.length === 0 ? this.positions.heldText(step, [inline]) : undefined;
    if (held) sources.push({ display, text: held.text, step: name });
    return (path, value) => {
      for (const s of sources) {
        const at = valuePosition(s.text, path, value);
        if (at) return this.at(s.display, at, s.step);
      }
      return sources[0] ? this.at(sources[0].display, sources[0].text.trees[0]?.at ?? START, sources[0].step) : this.at(display, inConfig([]), name);
    };
  }

  /** A generator's values: a data key at its literal, file or env line; the name at `name:`; the rest at the entry. */
  private generatorStep(
    step: LocatedStep,
    name: string,
    display: string,
    inConfig: (path: FieldPath) => TextPosition,
    inKustomization: (keys: FieldPath) => { at: TextPosition; whole: boolean } | undefined,
  ): Locate {
    const fields = step.config.view;
    const list = (f: string) => (isSeq(fields[f]) ? (fields[f] as Value[]).map(String) : []);
    return (path) => {
      const [top, key] = path;
      if (path.length === 2 && (top === 'data' || top === 'binaryData' || top === 'stringData') && typeof key === 'string') {
        const literal = list('literals').findIndex((l) => l.split('=')[0]!.trim() === key);
        if (literal >= 0) return this.at(display, inConfig(['literals', literal]), name);
        const file = list('files').findIndex((f) => (f.includes('=') ? f.slice(0, f.indexOf('=')) : f.slice(f.lastIndexOf('/') + 1)) === key);
        if (file >= 0) return this.at(display, inConfig(['files', file]), name);
        for (const env of list('envs')) {
          const line = this.positions.text(step.loader, env)?.lines.findIndex((l) => l.trimStart().startsWith(`${key}=`));
          if (line !== undefined && line >= 0) return this.at(this.display(step.loader, env), { line: line + 1, column: 1 }, name);
        }
      }
      if (top === 'metadata' && key === 'name') return this.at(display, inConfig(['name']), name);
      // a label or annotation: the entry's options, else the kustomization's generatorOptions
      const [, kind, label] = path;
      if (top === 'metadata' && (kind === 'labels' || kind === 'annotations') && typeof label === 'string') {
        const own = inKustomization([...fieldPathOf(step.field!), 'options', kind, label]);
        const shared = inKustomization(['generatorOptions', kind, label]);
        const found = own?.whole ? own : shared?.whole ? shared : undefined;
        if (found) return this.at(display, found.at, name);
      }
      return this.at(display, inConfig([]), name);
    };
  }

  /** A replacement's values come from its source field: the place that field was written, by the step that wrote it. */
  private replacementStep(name: string, display: string, inConfig: (path: FieldPath) => TextPosition, resources: ResourceMap, fields: YMap): Locate {
    const replacements = isSeq(fields['replacements']) ? fields['replacements'] : [];
    return (_path, value) => {
      for (const [i, replacement] of replacements.entries()) {
        const source = isMap(replacement) && isMap(replacement['source']) ? replacement['source'] : undefined;
        if (!source) continue;
        try {
          const from = selectSource(resources.resources(), source as never);
          const at = resolvedPath(from.view, splitFieldPath(typeof source['fieldPath'] === 'string' ? source['fieldPath'] : 'metadata.name'));
          const written = at && this.recorder.written(from, at);
          if (written && String(value).includes(String(written.value))) return { ...written.by, step: `${name}[${i}]` };
        } catch {
          // not this one
        }
      }
      return this.at(display, inConfig([]), name);
    };
  }

  private at(file: string, at: TextPosition, step: string): WrittenBy {
    return { file, line: at.line, column: at.column, step };
  }

  private display(loader: Loader, file: string): string {
    const abs = loader.absolute(file);
    return loader.remote ? abs : relative(this.buildDir(), abs);
  }
}

/** The resources of a resource file, as read, and where each starts, as the reader makes them: empty documents dropped, `List`s opened. */
function resourceDocumentsOf(text: PlacedText): [Value, TextPosition][] {
  const out: [Value, TextPosition][] = [];
  const queue: [Value, TextPosition][] = text.docs.map((d, i) => [d, text.documentAt(i)]);
  while (queue.length > 0) {
    const [doc, at] = queue.shift()!;
    if (doc === null || (isMap(doc) && Object.keys(doc).length === 0)) continue;
    const kind = isMap(doc) ? doc['kind'] : undefined;
    if (isMap(doc) && typeof kind === 'string' && kind.endsWith('List') && isSeq(doc['items'])) {
      const items = doc['items'];
      items.forEach((item, i) => queue.push([item, text.placeOf(items, i) ?? at]));
      continue;
    }
    out.push([doc, at]);
  }
  return out;
}

/**
 * Where a patch writes the value at `path` of the resource: a strategic-merge patch holds it at
 * the same keys (list items in any order), a JSON patch in the value of an operation on that
 * path or one above it.
 */
const WRITING_OPS = new Set(['add', 'replace', 'copy', 'move']);

function valuePosition(text: PositionedText, path: FieldPath, value: FieldValue): TextPosition | undefined {
  const keys = path.filter((p) => typeof p === 'string');
  for (const [d, doc] of text.placed.docs.entries()) {
    const tree = text.trees[d];
    if (!tree) continue;
    if (isSeq(doc)) {
      // the last operation that writes at the path or above it; a copy or a move at its `from`
      for (let o = doc.length - 1; o >= 0; o--) {
        const op = doc[o];
        if (!isMap(op) || typeof op['path'] !== 'string' || !WRITING_OPS.has(String(op['op']))) continue;
        const opPath = op['path'].split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
        if (opPath.length > path.length || !opPath.every((p, i) => p === String(path[i]) || p === '-')) continue;
        if (op['op'] === 'copy' || op['op'] === 'move') return positionAt(tree, [o, 'from']).at;
        const found = positionAt(tree, [o, 'value', ...path.slice(opPath.length)]);
        if (found.whole) return found.at;
      }
      continue;
    }
    const found = findScalar(doc, tree, keys, value);
    if (found) return found;
  }
  return undefined;
}

/** The position of a scalar equal to `value` at the keys `keys` (list items skipped over) in `doc`. */
function findScalar(doc: Value, tree: PositionTree, keys: readonly (string | number)[], value: FieldValue): TextPosition | undefined {
  if (keys.length === 0) return sameFieldValue(doc, value) ? tree.at : undefined;
  if (isSeq(doc)) {
    for (const [i, item] of doc.entries()) {
      const child = tree.children?.get(i);
      const found = child && findScalar(item, child, keys, value);
      if (found) return found;
    }
    return undefined;
  }
  if (!isMap(doc)) return undefined;
  const [key, ...rest] = keys;
  const child = tree.children?.get(key!);
  return child && key! in doc ? findScalar(doc[key as string]!, child, rest, value) : undefined;
}

function sameFieldValue(doc: Value, value: FieldValue): boolean {
  if (typeof value === 'object' && value !== null) return Array.isArray(value) ? isSeq(doc) && doc.length === 0 : isMap(doc) && Object.keys(doc).length === 0;
  return doc === value || (typeof doc !== 'object' && String(doc) === String(value));
}

/** The keys and indexes a replacement's field path leads to in `obj` (`[name=x]` items found), or undefined. */
function resolvedPath(obj: Value, parts: readonly string[]): (string | number)[] | undefined {
  const out: (string | number)[] = [];
  let node = obj;
  for (const part of parts) {
    if (isSeq(node)) {
      let i: number;
      if (isListIndex(part)) {
        const [field, wanted] = splitIndexNameValue(part);
        i = node.findIndex((item) => isMap(item) && String(item[field]) === wanted);
      } else i = Number(part);
      if (!(i >= 0 && i < node.length)) return undefined;
      out.push(i);
      node = node[i]!;
    } else if (isMap(node) && part in node) {
      out.push(part);
      node = node[part]!;
    } else return undefined;
  }
  return out;
}
