import { isMap, isSeq, type Node, type YAMLSeq } from 'yaml';
import { KustomizeError } from '../../errors.js';
import { resolve } from '../../fs/path.js';
import { COMPONENT_API_VERSION, KUSTOMIZATION_API_VERSION, splitHelmChartArgs, type HelmChartArgs, type Patch, type Var } from '../../kinds/kustomization.js';
import type { EditContext } from '../context.js';
import type { KustomizationField, PlainValue } from '../kustomization-document.js';
import { varsToReplacements } from './vars-to-replacements.js';

/**
 * `edit fix`: the missing `apiVersion`/`kind` added and the deprecated fields moved to their
 * successors, as kustomize's does — `bases` → `resources`, `imageTags` → `images`, a
 * generator's `env` → `envs`, `helmChartInflationGenerator` → `helmCharts`/`helmGlobals`,
 * `patchesJson6902` and `patchesStrategicMerge` → `patches`, `commonLabels` → `labels` (with
 * `includeSelectors: true`, so the output does not change). `vars` become `replacements` only
 * when asked (`vars: true`, kustomize's `--vars`), because that rewrites resource files.
 */
export interface Fix {
  op: 'fix';
  /** convert `vars` to `replacements`, putting placeholders in the files that use them */
  vars?: boolean;
}

export function fix(ctx: EditContext, op: Fix): void {
  const { doc } = ctx;
  fixKustomization(ctx);
  moveItems(ctx, 'patchesJson6902', 'patches');
  const smp = doc.value<string[]>('patchesStrategicMerge');
  if (doc.has('patchesStrategicMerge')) {
    // a path the file system has is a patch file, anything else an inline patch (kustomize's rule)
    const patches = (smp ?? []).map((p) => (isFile(ctx, p) ? { path: p } : { patch: p }));
    moveValues(ctx, 'patchesStrategicMerge', 'patches', patches);
  }
  const common = doc.value<Record<string, string>>('commonLabels');
  if (doc.has('commonLabels')) {
    const labels = doc.value<{ pairs?: Record<string, string> }[]>('labels') ?? [];
    for (const key of Object.keys(common ?? {})) {
      if (labels.some((l) => l.pairs && key in l.pairs)) throw new KustomizeError('EDIT_CONFLICT', `label name '${key}' exists in both commonLabels and labels`);
    }
    moveValues(ctx, 'commonLabels', 'labels', Object.keys(common ?? {}).length > 0 ? [{ includeSelectors: true, pairs: common! }] : []);
  }
  if (op.vars && doc.has('vars')) {
    const replacements = varsToReplacements(ctx, doc.value<Var[]>('vars') ?? [], {
      resources: [...(doc.value<string[]>('resources') ?? []), ...(doc.value<string[]>('components') ?? [])],
      patches: doc.value<Patch[]>('patches') ?? [],
    });
    moveValues(ctx, 'vars', 'replacements', replacements as PlainValue[]);
  }
}

/**
 * What kustomize's `edit` does to every file it reads (its `FixKustomization`): a missing
 * `apiVersion`/`kind` added, `bases` moved to the end of `resources`, `imageTags` to the end of
 * `images`, a generator's `env` to the end of its `envs`, `helmChartInflationGenerator` to
 * `helmCharts` (and `helmGlobals`). `edit fix` goes further ({@link fix}).
 */
export function fixKustomization(ctx: EditContext): void {
  const { doc } = ctx;
  const kind = doc.value<string>('kind') || 'Kustomization';
  if (!doc.value('kind')) doc.set('kind', kind);
  if (!doc.value('apiVersion')) doc.set('apiVersion', kind === 'Component' ? COMPONENT_API_VERSION : KUSTOMIZATION_API_VERSION);
  moveItems(ctx, 'bases', 'resources');
  moveItems(ctx, 'imageTags', 'images');
  fixGeneratorEnv(ctx, 'configMapGenerator');
  fixGeneratorEnv(ctx, 'secretGenerator');
  fixHelm(ctx);
}

function isFile(ctx: EditContext, path: string): boolean {
  try {
    ctx.fs.readFile(resolve(ctx.dir, path));
    return true;
  } catch {
    return false;
  }
}

/** Moves a deprecated list's items (as nodes, comments kept) to the end of its successor. */
function moveItems(ctx: EditContext, from: KustomizationField, to: KustomizationField): void {
  const seq = ctx.doc.seqNode(from);
  if (!ctx.doc.has(from)) return;
  moveValues(ctx, from, to, (seq?.items ?? []) as Node[]);
}

/** Puts values in place of a deprecated field: renamed in place when the successor is absent, else appended to it. */
function moveValues(ctx: EditContext, from: KustomizationField, to: KustomizationField, values: (PlainValue | Node)[]): void {
  const { doc } = ctx;
  if (values.length === 0) doc.delete(from);
  else if (!doc.has(to)) doc.rename(from, to, listOf(ctx, values));
  else {
    const seq = doc.list(to);
    for (const v of values) seq.add(doc.node(v));
    doc.delete(from);
  }
}

function listOf(ctx: EditContext, values: (PlainValue | Node)[]): YAMLSeq {
  const seq = ctx.doc.node([]) as YAMLSeq;
  for (const v of values) seq.add(ctx.doc.node(v));
  return seq;
}

function fixGeneratorEnv(ctx: EditContext, field: 'configMapGenerator' | 'secretGenerator'): void {
  for (const entry of ctx.doc.seqNode(field)?.items ?? []) {
    if (!isMap(entry) || !entry.has('env')) continue;
    const env = entry.get('env');
    entry.delete('env');
    if (typeof env !== 'string' || env === '') continue;
    const envs = entry.get('envs', true);
    if (isSeq(envs)) envs.add(ctx.doc.node(env));
    else entry.set('envs', ctx.doc.node([env]));
  }
}

function fixHelm(ctx: EditContext): void {
  const { doc } = ctx;
  const field = 'helmChartInflationGenerator';
  if (!doc.has(field)) return;
  const { charts, globals } = splitHelmChartArgs(doc.value<HelmChartArgs[]>(field) ?? []);
  if (!doc.has('helmGlobals') && (globals.chartHome || globals.configHome)) doc.set('helmGlobals', globals as PlainValue);
  moveValues(ctx, field, 'helmCharts', charts as PlainValue[]);
}
