import type { SecretArgs } from '../kinds/kustomization.js';
import { SecretArgsShape } from '../kinds/shapes.js';
import type { Resource } from '../model/resource.js';
import type { Generator, PluginContext } from '../plugins/plugin.js';
import type { YMap } from '../yaml/value.js';
import { freshStringMap } from '../yaml/string-styles.js';
import { base64EncodeWrapped, utf8Encode } from '../encoding/base64.js';
import { decodeConfig } from '../plugins/builtin-config.js';
import { generatedResource } from '../filters/generated-object.js';
import { loadKvPairs } from '../filters/kv-pairs.js';

/** `secretGenerator`: a Secret (type Opaque unless given) from literals, files and env files, base64-encoded. */
export class SecretGenerator implements Generator {
  static readonly kind = 'SecretGenerator';

  private constructor(readonly args: SecretArgs) {}

  static fromConfig(config: YMap): SecretGenerator {
    return new SecretGenerator(decodeConfig<SecretArgs>(config, SecretArgsShape, SecretGenerator.kind));
  }

  generate(ctx: PluginContext): Resource[] {
    const data = freshStringMap(loadKvPairs(ctx.loader, this.args, 'Secret').map((p) => [p.key, base64EncodeWrapped(typeof p.value === 'string' ? utf8Encode(p.value) : p.value)] as const));
    // kustomize creates `data` even when there is nothing to put in it (unlike for ConfigMaps)
    const body: YMap = { type: this.args.type || 'Opaque', data };
    return [generatedResource('Secret', this.args, body)];
  }
}
