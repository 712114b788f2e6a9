import type { GeneratorArgs } from '../kinds/kustomization.js';
import type { Resource } from '../model/resource.js';
import type { Generator, PluginContext } from '../plugins/plugin.js';
import type { YMap } from '../yaml/value.js';
import { freshStringMap } from '../yaml/string-styles.js';
import { base64EncodeWrapped } from '../encoding/base64.js';
import { decodeConfig } from '../plugins/builtin-config.js';
import { generatedResource } from '../filters/generated-object.js';
import { loadKvPairs } from '../filters/kv-pairs.js';
import { ConfigMapArgsShape } from '../kinds/shapes.js';

/** `configMapGenerator`: a ConfigMap from literals, files and env files; non-UTF-8 files go to binaryData. */
export class ConfigMapGenerator implements Generator {
  static readonly kind = 'ConfigMapGenerator';

  private constructor(readonly args: GeneratorArgs) {}

  static fromConfig(config: YMap): ConfigMapGenerator {
    return new ConfigMapGenerator(decodeConfig<GeneratorArgs>(config, ConfigMapArgsShape, ConfigMapGenerator.kind));
  }

  generate(ctx: PluginContext): Resource[] {
    const pairs = loadKvPairs(ctx.loader, this.args, 'ConfigMap');
    const data = freshStringMap(pairs.flatMap((p) => (typeof p.value === 'string' ? [[p.key, p.value] as const] : [])));
    const binaryData = freshStringMap(pairs.flatMap((p) => (typeof p.value === 'string' ? [] : [[p.key, base64EncodeWrapped(p.value)] as const])));
    const body: YMap = {};
    if (Object.keys(data).length > 0) body['data'] = data;
    if (Object.keys(binaryData).length > 0) body['binaryData'] = binaryData;
    return [generatedResource('ConfigMap', this.args, body)];
  }
}
