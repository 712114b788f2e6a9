import { KustomizeError } from '../errors.js';
import { decode, DecodeError, type StructShape } from '../yaml/decode.js';
import type { ReplacementField } from '../kinds/kustomization.js';
import { ReplacementFieldShape, ReplacementShape } from '../kinds/shapes.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { PluginContext, Transformer } from '../plugins/plugin.js';
import { applyReplacements, type ReplacementBehavior, type ReplacementSpec } from '../replacements/apply.js';
import { isMap, type Value, type YMap } from '../yaml/value.js';
import { decodeConfig } from '../plugins/builtin-config.js';
import { describeSelector } from '../model/selector.js';
import type { GiveNotice, StepNotice } from './step-notice.js';

const ConfigShape: StructShape = { struct: 'ReplacementTransformerPlugin', fields: { replacements: { list: ReplacementFieldShape } } };

/**
 * `replacements`: copies a field of one resource (or part of it) into fields of the resources
 * each target selects. Entries are inline or `path:` files holding one replacement or a list.
 */
export class ReplacementTransformer implements Transformer {
  static readonly kind = 'ReplacementTransformer';

  private constructor(
    private readonly replacements: ReplacementSpec[],
    /** where each replacement was written, for notices */
    private readonly written: WrittenAt[],
    private readonly notice: GiveNotice,
    private readonly behavior: ReplacementBehavior,
  ) {}

  /** From a `transformers:` config `{apiVersion: builtin, kind: ReplacementTransformer, replacements: [...]}`. */
  static fromConfig(config: YMap, ctx: PluginContext, notice: GiveNotice): ReplacementTransformer {
    const c = decodeConfig<{ replacements?: (ReplacementField | undefined)[] }>(config, ConfigShape, ReplacementTransformer.kind);
    const { replacements, written } = load(c.replacements ?? [], ctx);
    return new ReplacementTransformer(replacements, written, notice, ctx.profile);
  }

  transform(resources: ResourceMap): void {
    applyReplacements(resources.resources(), this.replacements, this.behavior, (i, j) => this.notice(unmatchedSelect(this.replacements[i]!, j, this.written[i]!)));
  }
}

/** Where a replacement was written: entry `entry` of the config, inline, or in the file it names (item `item` of the list the file holds, or the one replacement it holds). */
interface WrittenAt {
  entry: number;
  file?: { path: string; item?: number };
}

/** The notice of a target whose `select` selects nothing (once `reject` has left resources out): kustomize replaces nothing there, and says nothing. */
function unmatchedSelect(replacement: ReplacementSpec, target: number, written: WrittenAt): StepNotice {
  const t = replacement.targets![target]!;
  const rejected = (t.reject ?? []).some(Boolean) ? ', once rejected ones are left out' : '';
  const message = `the select of targets[${target}] (${describeSelector(t.select!)}) selects no resource${rejected}: nothing is replaced there`;
  const select = ['targets', target, 'select'];
  if (!written.file) return { code: 'REPLACEMENT_TARGET_UNMATCHED', message, at: ['replacements', written.entry, ...select] };
  const item = written.file.item;
  return {
    code: 'REPLACEMENT_TARGET_UNMATCHED',
    message: `in ${written.file.path}${item === undefined ? '' : `[${item}]`}, ${message}`,
    at: ['replacements', written.entry, 'path'],
    within: { text: 'named', document: 0, path: item === undefined ? select : [item, ...select], dialect: 'yaml11' },
  };
}

/**
 * A kustomization's `replacements:` as the plugin's config, and as kustomize shows that config
 * in errors (the Go struct's JSON: `Replacements`, empty fields left out). kustomize hands the
 * field to the plugin as YAML it marshals, which drops empty target lists.
 */
export function replacementsFieldConfig(entries: readonly ReplacementField[]): { config: YMap; shown: YMap } {
  const normalized = entries.map((e) => (e?.targets && e.targets.length === 0 ? withoutTargets(e) : e));
  return { config: { replacements: normalized as unknown as Value }, shown: { Replacements: normalized.map(asGoJson) } };
}

function withoutTargets(e: ReplacementField): ReplacementField {
  const { targets: _targets, ...rest } = e;
  return rest;
}

/** Inline entries as they are; `path:` entries read from their file. */
function load(entries: readonly (ReplacementField | undefined)[], ctx: PluginContext): { replacements: ReplacementSpec[]; written: WrittenAt[] } {
  const replacements: ReplacementSpec[] = [];
  const written: WrittenAt[] = [];
  for (const [entry, field] of entries.entries()) {
    if (!field?.path) {
      replacements.push(field as ReplacementSpec);
      written.push({ entry });
      continue;
    }
    if (field.source || (field.targets?.length ?? 0) > 0) {
      throw new KustomizeError('KUSTOMIZATION_INVALID', 'cannot specify both path and inline replacement');
    }
    const path = field.path;
    const read = fromFile(path, ctx, ctx.profile.replacementSourceValue);
    replacements.push(...read.replacements);
    written.push(...read.replacements.map((_r, item) => ({ entry, file: read.list ? { path, item } : { path } })));
  }
  return { replacements, written };
}

/** A replacement file: one replacement (a map) or a list of them (`list`); unknown fields are ignored, `sourceValue` among them before kustomize 5.7. */
function fromFile(path: string, ctx: PluginContext, sourceValue: boolean): { replacements: ReplacementSpec[]; list: boolean } {
  const text = ctx.loader.loadText(path);
  const content: Value | undefined = ctx.documents(text, path, { dialect: 'yaml11' })[0];
  const shape = Array.isArray(content) ? { list: ReplacementShape } : isMap(content) ? ReplacementShape : undefined;
  if (!shape) {
    throw new KustomizeError('KUSTOMIZATION_INVALID', `unsupported replacement type encountered within replacement path: ${goKind(content)}`, { file: path });
  }
  let decoded: ReplacementSpec | ReplacementSpec[];
  try {
    decoded = decode<ReplacementSpec | ReplacementSpec[]>(content, shape, { lenient: true }) ?? [];
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    // a value that is not a replacement at all: Go names the type, not a field
    const message = e.message.includes(' into Go struct field ') ? e.message : e.message.replace(/ of type (\w+)$/, ' into Go value of type types.$1');
    throw new KustomizeError('KUSTOMIZATION_INVALID', `error unmarshaling JSON: while decoding JSON: ${message}`, { file: path, cause: e });
  }
  const known = (r: ReplacementSpec) => (sourceValue || r?.sourceValue === undefined ? r : withoutSourceValue(r));
  return Array.isArray(decoded) ? { replacements: decoded.map(known), list: true } : { replacements: [known(decoded)], list: false };
}

function withoutSourceValue(r: ReplacementSpec): ReplacementSpec {
  const { sourceValue: _unknown, ...rest } = r;
  return rest;
}

/** The reflect kind Go reports for what a YAML document decodes to. */
function goKind(v: Value | undefined): string {
  if (v === undefined || v === null) return 'invalid';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return 'float64';
}

/** An entry the way Go marshals `types.ReplacementField` (empty fields omitted, `select` always present). */
function asGoJson(e: ReplacementField | undefined): Value {
  if (!e) return {};
  const out: YMap = {};
  if (e.path) out['path'] = e.path;
  if (e.source) out['source'] = compact({ ...e.source, options: e.source.options && compact({ ...e.source.options }) });
  if (e.targets && e.targets.length > 0) {
    out['targets'] = e.targets.map((t) => {
      if (!t) return null;
      const o: YMap = { select: t.select ? compact({ ...t.select }) : null };
      if (t.reject && t.reject.length > 0) o['reject'] = t.reject.map((s) => (s ? compact({ ...s }) : null));
      if (t.fieldPaths && t.fieldPaths.length > 0) o['fieldPaths'] = [...t.fieldPaths];
      if (t.options) o['options'] = compact({ ...t.options });
      return o;
    });
  }
  return out;
}

/** Drops the fields Go's `omitempty` leaves out. */
function compact(o: Record<string, unknown>): YMap {
  const out: YMap = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || v === '' || v === 0 || v === false) continue;
    out[k] = v as Value;
  }
  return out;
}
