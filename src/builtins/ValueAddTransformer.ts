import { KustomizeError } from '../errors.js';
import { splitFieldPath } from '../fieldspec/fieldspec.js';
import type { Selector } from '../model/selector.js';
import { decode } from '../yaml/decode.js';
import { SelectorShape } from '../kinds/shapes.js';
import { basename } from '../fs/path.js';
import type { ResourceMap } from '../model/resource-map.js';
import { ResourceSelector } from '../model/selector.js';
import type { PluginContext, Transformer } from '../plugins/plugin.js';
import { parseYamlDocument } from '../yaml/parse.js';
import { isMap, isSeq, ownValue, setKey, type YMap } from '../yaml/value.js';
import { decodeConfig } from '../plugins/builtin-config.js';
import { NamespaceTransformer } from './NamespaceTransformer.js';

interface ValueAddTarget {
  selector?: Selector;
  fieldPath?: string;
  filePathPosition?: number;
}

const TargetsShape = { list: { struct: 'Target', fields: { selector: SelectorShape, fieldPath: 'string', filePathPosition: 'int' } } } as const;

/**
 * Adds a value (by default the name of the kustomization's directory) at a field path of the
 * selected resources, optionally as one segment of a file path held there. `metadata/namespace`
 * gets the namespace transformer's treatment.
 */
export class ValueAddTransformer implements Transformer {
  static readonly kind = 'ValueAddTransformer';

  private constructor(
    private readonly value: string,
    private readonly targets: ValueAddTarget[],
  ) {}

  static fromConfig(config: YMap, ctx: PluginContext): ValueAddTransformer {
    const c = decodeConfig<{ value?: string; targets?: ValueAddTarget[]; targetFilePath?: string }>(
      config,
      { struct: 'ValueAddTransformerPlugin', fields: { value: 'string', targets: TargetsShape, targetFilePath: 'string' } },
      ValueAddTransformer.kind,
    );
    const value = (c.value ?? '').trim() || basename(ctx.loader.root);
    const targets = [...(c.targets ?? [])];
    if (c.targetFilePath) {
      const doc = parseYamlDocument(ctx.loader.loadText(c.targetFilePath), c.targetFilePath);
      const more = decode<{ targets?: ValueAddTarget[] }>(doc ?? {}, { struct: 'Targets', fields: { targets: TargetsShape } }, { lenient: true });
      targets.push(...(more?.targets ?? []));
    }
    if (targets.length === 0) throw new KustomizeError('KUSTOMIZATION_INVALID', 'must specify at least one target');
    for (const t of targets) {
      if (!t.fieldPath) throw new KustomizeError('KUSTOMIZATION_INVALID', 'fieldPath cannot be empty');
      if ((t.filePathPosition ?? 0) < 0) {
        throw new KustomizeError('KUSTOMIZATION_INVALID', `value of FilePathPosition (${t.filePathPosition}) cannot be negative`);
      }
    }
    return new ValueAddTransformer(value, targets);
  }

  transform(resources: ResourceMap): void {
    for (const t of this.targets) {
      const selected = t.selector ? new ResourceSelector(t.selector).select(resources) : [...resources.resources()];
      if (t.fieldPath === 'metadata/namespace') {
        NamespaceTransformer.fromConfig({ namespace: this.value, fieldSpecs: [] }).transformSome(resources, selected);
        continue;
      }
      const path = splitFieldPath(t.fieldPath!);
      for (const r of selected) {
        r.ownPath(path);
        this.addAt(r.view, path, t.filePathPosition ?? 0);
      }
    }
  }

  private addAt(obj: YMap, path: readonly string[], position: number): void {
    let node: YMap = obj;
    for (const step of path.slice(0, -1)) {
      let next = ownValue(node, step);
      if (next === undefined || next === null) setKey(node, step, (next = {}));
      if (!isMap(next)) throw new KustomizeError('TRANSFORMER_FAILED', `wrong node kind at '${step}': expected MappingNode`);
      node = next;
    }
    const key = path[path.length - 1]!;
    const current = ownValue(node, key);
    if (isMap(current) || isSeq(current)) throw new KustomizeError('TRANSFORMER_FAILED', `wrong node kind at '${key}': expected ScalarNode`);
    setKey(node, key, position > 0 ? insertPathPart(current === undefined || current === null ? '' : String(current), position - 1, this.value) : this.value);
  }
}

/** Inserts `part` as segment `pos` of a slash-separated path, keeping a leading slash; out-of-range positions prefix or append. */
function insertPathPart(path: string, pos: number, part: string): string {
  const absolute = path.startsWith('/');
  const parts = path.split('/').filter((p) => p !== '');
  parts.splice(Math.min(Math.max(pos, 0), parts.length), 0, part);
  return (absolute ? '/' : '') + parts.join('/');
}
