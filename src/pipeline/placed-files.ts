/**
 * The texts a build's steps were configured from, read with where their values are written: for
 * `explain` (which step wrote a value, and where) and for notices placed at a line of a patch.
 */
import { relative } from '../fs/path.js';
import type { Loader } from '../load/loader.js';
import type { Resource } from '../model/resource.js';
import { placedDocuments, positionAt, START, type PositionTree, type TextPosition } from '../yaml/positions.js';
import { isSeq, type Value } from '../yaml/value.js';
import { fieldPathOf, inlineTextStart } from './config-text.js';

/** A text and where its documents' values are written; `display` names it as the build names files. */
export interface Positioned {
  display: string;
  docs: Value[];
  trees: PositionTree[];
}

/** A positioned text with its lines. */
export type PositionedLines = Positioned & { lines: string[] };

/** The files of one build, each read and placed once; named relative to the directory built (a fetched tree's by absolute path). */
export class PlacedFiles {
  private readonly texts = new Map<string, PositionedLines | undefined>();

  constructor(
    /** the directory built: the files named are relative to it */
    private readonly buildDir: () => string,
  ) {}

  /** A file's text with its documents and their positions, read once; undefined when it cannot be read. */
  positioned(loader: Loader, file: string): PositionedLines | undefined {
    const abs = loader.absolute(file);
    if (!this.texts.has(abs)) {
      let text: PositionedLines | undefined;
      try {
        text = positionedText(loader.loadText(file), this.display(loader, file));
      } catch {
        text = undefined;
      }
      this.texts.set(abs, text);
    }
    return this.texts.get(abs);
  }

  display(loader: Loader, file: string): string {
    const abs = loader.absolute(file);
    return loader.remote ? abs : relative(this.buildDir(), abs);
  }
}

function positionedText(text: string, display: string, offset?: TextPosition): PositionedLines {
  let lines: string[] | undefined;
  return {
    display,
    ...placedDocuments(text, offset),
    // (the lines of a resource file are seldom wanted: a patch's and an env file's are)
    get lines() {
      return (lines ??= text.split('\n'));
    },
  };
}

/** A patch step's patch text, placed: the step (or entry) it stands for, and the patch file as the config names it (none: the inline patch). */
interface PatchText extends Positioned {
  step: string;
  file?: string;
}

/** A patch step as {@link patchTexts} sees it: its config, its loader, the kustomization field and file that made it (if one did). */
export interface PatchStep {
  config: Resource;
  loader: Loader;
  field?: string;
  file?: string;
}

/**
 * The patch texts of a patch step (`patches`, `patchesStrategicMerge`, `patchesJson6902`, or
 * their builtins), placed: each file its config names (`path`, or each of `paths`: entry `name[i]`),
 * else its inline `patch` (or `jsonOp`) where the kustomization writing the step's field has it.
 */
export function patchTexts(step: PatchStep, name: string, files: PlacedFiles): PatchText[] {
  const fields = step.config.view;
  const out: PatchText[] = [];
  // `patchesStrategicMerge` is one step of many files: each is its entry
  const paths = typeof fields['path'] === 'string' ? [fields['path']] : isSeq(fields['paths']) ? fields['paths'].filter((p): p is string => typeof p === 'string') : [];
  paths.forEach((path, i) => {
    const text = files.positioned(step.loader, path);
    if (text) out.push({ ...text, step: isSeq(fields['paths']) ? `${name}[${i}]` : name, file: path });
  });
  const inline = typeof fields['patch'] === 'string' ? fields['patch'] : typeof fields['jsonOp'] === 'string' ? fields['jsonOp'] : undefined;
  if (inline !== undefined && paths.length === 0 && step.field && step.file) {
    // the kustomization writes it as `patch:` in `patches` and `patchesJson6902` entries alike
    const kustomization = files.positioned(step.loader, step.file);
    const tree = kustomization?.trees[0];
    const start = tree ? positionAt(tree, [...fieldPathOf(step.field), 'patch']).at : START;
    const offset = inlineTextStart(kustomization?.lines ?? [], start);
    out.push({ ...positionedText(inline, kustomization?.display ?? files.display(step.loader, step.file), offset), step: name });
  }
  return out;
}
