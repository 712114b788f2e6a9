import type { GeneratorArgs } from '../kinds/kustomization.js';
import type { Resource } from '../model/resource.js';
import type { Generator, PluginContext } from '../plugins/plugin.js';
import { setKey, type YMap } from '../yaml/value.js';
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
    const data: YMap = {};
    const binaryData: YMap = {};
    for (const p of loadKvPairs(ctx.loader, this.args, 'ConfigMap')) {
      if (typeof p.value === 'string') setKey(data, p.key, p.value);
      else setKey(binaryData, p.key, base64EncodeWrapped(p.value));
    }
    const body: YMap = {};
    if (Object.keys(data).length > 0) body['data'] = data;
    if (Object.keys(binaryData).length > 0) body['binaryData'] = binaryData;
    return [generatedResource('ConfigMap', this.args, body)];
  }
}
