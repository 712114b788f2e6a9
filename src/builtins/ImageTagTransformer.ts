import { KustomizeError } from '../errors.js';
import { specsSelecting, visitField, type FieldSpec } from '../fieldspec/fieldspec.js';
import type { Image } from '../kinds/kustomization.js';
import { FieldSpecsShape, ImageShape } from '../kinds/shapes.js';
import { compileGoRegexp, dottedMatchAt, hasAstral, isDotted, type GoRegexp } from '../model/go-regexp.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Transformer } from '../plugins/plugin.js';
import { isMap, isSeq, type Value, type YMap } from '../yaml/value.js';
import { decodeConfig } from '../plugins/builtin-config.js';

export interface ImageTagConfig {
  imageTag: Image;
  fieldSpecs: FieldSpec[];
}

/**
 * `images`: rewrites the name, tag or digest of matching images, both in every
 * `containers`/`initContainers` list (kustomize's legacy walk) and in the fields its field
 * specs list.
 */
export class ImageTagTransformer implements Transformer {
  static readonly kind = 'ImageTagTransformer';
  private readonly matcher: GoRegexp | undefined;

  private constructor(readonly config: ImageTagConfig) {
    this.matcher = imageMatcher(config.imageTag.name ?? '');
  }

  static fromConfig(config: YMap): ImageTagTransformer {
    const c = decodeConfig<Partial<ImageTagConfig>>(
      config,
      { struct: 'ImageTagTransformerPlugin', fields: { imageTag: ImageShape, fieldSpecs: FieldSpecsShape } },
      ImageTagTransformer.kind,
    );
    return new ImageTagTransformer({ imageTag: c.imageTag ?? {}, fieldSpecs: c.fieldSpecs ?? [] });
  }

  transform(resources: ResourceMap): void {
    const specsFor = specsSelecting(this.config.fieldSpecs);
    // the same few images appear in many resources: each is matched once per pass
    const matched = new Map<string, boolean>();
    const update = (holder: YMap, key: string) => this.update(holder, key, matched);
    for (const r of resources) {
      if (r.kind !== 'CustomResourceDefinition') this.walkContainers(r.obj, matched);
      for (const fs of specsFor(r.gvk)) visitField(r.obj, fs, undefined, update);
    }
  }

  /** kustomize's legacy filter: any `containers`/`initContainers` sequence, at any depth. */
  private walkContainers(node: Value, matched: Map<string, boolean>): void {
    if (Array.isArray(node)) {
      for (const item of node) this.walkContainers(item, matched);
    } else if (typeof node === 'object' && node !== null) {
      // for-in, not Object.keys: no array per map on a walk that visits every node
      for (const key in node) {
        const v = node[key]!;
        this.walkContainers(v, matched);
        if ((key === 'containers' || key === 'initContainers') && isSeq(v)) {
          for (const c of v) if (isMap(c) && 'image' in c) this.update(c, 'image', matched);
        }
      }
    }
  }

  private update(holder: YMap, key: string, matched: Map<string, boolean>): void {
    const value = holder[key];
    if (value === null || value === undefined) return;
    if (typeof value === 'object') throw new KustomizeError('TRANSFORMER_FAILED', `wrong node kind: expected ScalarNode for image field '${key}'`);
    const current = String(value);
    let matches = matched.get(current);
    if (matches === undefined) matched.set(current, (matches = this.matcher?.test(current) ?? false));
    if (!matches) return;
    const img = this.config.imageTag;
    let [name, tag, digest] = splitImage(current);
    if (img.newName) name = img.newName;
    if (img.newTag && img.digest) {
      tag = img.newTag;
      digest = img.digest;
    } else if (img.newTag) {
      tag = img.newTag;
      digest = '';
    } else if (img.digest) {
      tag = '';
      digest = img.digest;
    }
    if (img.tagSuffix && tag && !tag.endsWith(img.tagSuffix)) tag += img.tagSuffix;
    holder[key] = name + (tag ? ':' + tag : '') + (digest ? '@' + digest : '');
  }
}

/** kustomize splices the image name into a regular expression as is (so `.` matches anything); an invalid one matches nothing. */
export function imageMatcher(name: string): GoRegexp | undefined {
  // the usual name (`ghcr.io/org/app`) needs no regexp engine: `.` is its only metacharacter
  if (isDotted(name)) return { test: (image) => (hasAstral(image) ? regexpMatcher(name)!.test(image) : matchesImage(name, image)) };
  return regexpMatcher(name);
}

function regexpMatcher(name: string): GoRegexp | undefined {
  try {
    return compileGoRegexp(`^${name}(:${TAG_CHARS}*)?(@sha256:${TAG_CHARS}*)?$`, false);
  } catch {
    return undefined;
  }
}

const TAG_CHARS = '[a-zA-Z0-9_.{}-]';
const IS_TAG_CHAR = new RegExp(`^${TAG_CHARS}$`);

/** The image regexp of a {@link isDotted} name, by hand: what RE2 computes. */
function matchesImage(name: string, image: string): boolean {
  if (!dottedMatchAt(name, image, 0)) return false;
  let i = name.length;
  const tagChars = (from: number): number => {
    let j = from;
    while (j < image.length && IS_TAG_CHAR.test(image[j]!)) j++;
    return j;
  };
  if (image[i] === ':') i = tagChars(i + 1);
  if (image.startsWith('@sha256:', i)) i = tagChars(i + '@sha256:'.length);
  return i === image.length;
}

/** `[host[:port]/]path[:tag][@digest]` into name, tag and digest. */
export function splitImage(image: string): [string, string, string] {
  const slash = image.indexOf('/');
  const offset = slash > 0 ? slash : 0;
  const search = image.slice(offset);
  const at = search.indexOf('@');
  const colon = search.indexOf(':');
  if (colon < 0 && at < 0) return [image, '', ''];
  if (at >= 0 && (at < colon || colon < 0)) return [image.slice(0, at + offset), '', image.slice(at + offset + 1)];
  if (at >= 0) return [image.slice(0, colon + offset), image.slice(colon + offset + 1, at + offset), image.slice(at + offset + 1)];
  return [image.slice(0, colon + offset), image.slice(colon + offset + 1), ''];
}
