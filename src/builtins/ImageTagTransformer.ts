import { KustomizeError } from '../errors.js';
import { specsSelecting, visitField, type FieldSpec } from '../fieldspec/fieldspec.js';
import type { Image } from '../kinds/kustomization.js';
import { ImageShape } from '../kinds/shapes.js';
import { FieldSpecsShape } from '../fieldspec/fieldspec.js';
import { compileGoRegexp, dottedMatchAt, hasAstral, isDotted, type GoRegexp } from '../model/go-regexp.js';
import type { Gvk } from '../model/resid.js';
import type { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import { decodeConfig } from '../plugins/builtin-config.js';
import type { JoiningTransformer, Transformer } from '../plugins/plugin.js';
import { wrongKindMessage } from '../yaml/node.js';
import { isMap, markUntagged, valuesEqual, type Value, type YMap, type YSeq } from '../yaml/value.js';

interface ImageTagConfig {
  imageTag: Image;
  fieldSpecs: FieldSpec[];
}

/**
 * `images`: rewrites the name, tag or digest of matching images, both in every
 * `containers`/`initContainers` list (kustomize's legacy walk) and in the fields its field
 * specs list.
 */
export class ImageTagTransformer implements JoiningTransformer {
  static readonly kind = 'ImageTagTransformer';

  /** one entry per `images` entry joined into this step, applied in order */
  private constructor(
    private readonly retags: readonly Retag[],
    private readonly fieldSpecs: readonly FieldSpec[],
  ) {}

  static fromConfig(config: YMap): ImageTagTransformer {
    const c = decodeConfig<Partial<ImageTagConfig>>(
      config,
      { struct: 'ImageTagTransformerPlugin', fields: { imageTag: ImageShape, fieldSpecs: FieldSpecsShape } },
      ImageTagTransformer.kind,
    );
    const image = c.imageTag ?? {};
    return new ImageTagTransformer([{ image, matcher: imageMatcher(image.name ?? '') }], c.fieldSpecs ?? []);
  }

  /**
   * The entries of an `images` list share one walk of every resource, which is most of the cost.
   * Joined steps have the same field specs, so the fields where the first would fail are where
   * any would: a joined step fails as the first one would.
   */
  joinWith(next: Transformer): Transformer | undefined {
    if (!(next instanceof ImageTagTransformer) || !sameFieldSpecs(this.fieldSpecs, next.fieldSpecs)) return undefined;
    return new ImageTagTransformer([...this.retags, ...next.retags], this.fieldSpecs);
  }

  transform(resources: ResourceMap): void {
    const specsFor = specsSelecting(this.fieldSpecs);
    // the same few images appear in many resources: each is matched once per pass
    const matched = this.retags.map(() => new Map<string, boolean>());
    // what the entries change is found once (nothing is created, and only strings change)
    const found = resources.resources().map((r) => imageFields(r, specsFor, this.retags, matched));
    // kustomize walks every resource, then follows the field specs in every resource, per entry:
    // an entry fails at the first bad field in that order, and the first entry fails where any would
    for (const f of found) for (const holder of f.containers) mustBeScalar(holder['image']);
    for (const f of found) {
      for (const [holder, key] of f.fields) mustBeScalar(holder[key]);
      if (f.error !== undefined) throw f.error;
    }
    for (const f of found) {
      // each entry sees what the ones before it wrote, as when they run one by one
      this.retags.forEach((retag, i) => {
        for (const holder of f.containers) updateImage(holder, 'image', retag, matched[i]!);
        for (const [holder, key] of f.fields) updateImage(holder, key, retag, matched[i]!);
      });
    }
  }
}

/** A resource's image fields: in its containers, and where the field specs say; the error of a path that cannot be followed. */
interface ImageFields {
  containers: YMap[];
  fields: [YMap, string][];
  error?: unknown;
}

function imageFields(r: Resource, specsFor: (gvk: Gvk) => readonly FieldSpec[], retags: readonly Retag[], matched: readonly Map<string, boolean>[]): ImageFields {
  const found: ImageFields = { containers: [], fields: [] };
  // kustomize leaves CRDs alone (kubernetes-sigs/kustomize#890)
  if (r.kind === 'CustomResourceDefinition') return found;
  collectContainers(r.view, found.containers);
  // shared containers (a cache's parsed files) are copied only in a resource whose images change
  if (found.containers.some((c) => Object.isFrozen(c) && retags.some((t, i) => retagApplies(t, c['image'], matched[i]!)))) {
    found.containers = [];
    collectContainers(r.obj, found.containers);
  }
  try {
    for (const fs of specsFor(r.gvk)) visitField(r.view, fs, undefined, (holder, key) => found.fields.push([holder, key]));
  } catch (e) {
    found.error = e;
  }
  return found;
}

function mustBeScalar(value: Value | undefined): void {
  if (typeof value === 'object' && value !== null) throw new KustomizeError('TRANSFORMER_FAILED', wrongKindMessage('ScalarNode', value));
}

interface Retag {
  image: Image;
  matcher: GoRegexp | undefined;
}

function sameFieldSpecs(a: readonly FieldSpec[], b: readonly FieldSpec[]): boolean {
  return a === b || (a.length === b.length && a.every((x, i) => valuesEqual(x as YMap, b[i] as YMap)));
}

/** kustomize's legacy filter: the items with an `image` of any `containers`/`initContainers` sequence, at any depth, in walk order. */
function collectContainers(node: YMap | YSeq, out: YMap[]): void {
  // scalars are most of the nodes: they are skipped here rather than entered
  if (Array.isArray(node)) {
    for (const item of node) if (typeof item === 'object' && item !== null) collectContainers(item, out);
    return;
  }
  // for-in, not Object.keys: no array per map on a walk that visits every node
  for (const key in node) {
    const v = node[key]!;
    if (typeof v !== 'object' || v === null) continue;
    collectContainers(v, out);
    if ((key === 'containers' || key === 'initContainers') && Array.isArray(v)) {
      for (const c of v) if (isMap(c) && 'image' in c) out.push(c);
    }
  }
}

/** Whether an entry changes the image `value` (a scalar); `matched` remembers the answers by image. */
function retagApplies({ matcher }: Retag, value: Value | undefined, matched: Map<string, boolean>): boolean {
  if (value === null || value === undefined || typeof value === 'object') return false;
  const current = String(value);
  let matches = matched.get(current);
  if (matches === undefined) matched.set(current, (matches = matcher?.test(current) ?? false));
  return matches;
}

function updateImage(holder: YMap, key: string, retag: Retag, matched: Map<string, boolean>): void {
  const value = holder[key];
  // {@link mustBeScalar} has checked every field
  if (!retagApplies(retag, value, matched)) return;
  const img = retag.image;
  let [name, tag, digest] = splitImage(String(value));
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
  } else if (img.tagSuffix) {
    // at every visit, as kustomize: a field both walked and in the field specs gets it twice
    tag += img.tagSuffix;
    digest = '';
  }
  const image = name + (tag ? ':' + tag : '') + (digest ? '@' + digest : '');
  holder[key] = image;
  // kustomize writes the new image as an untagged node: a later replacement's text into it is read as plain YAML
  markUntagged(holder, key, image);
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
function splitImage(image: string): [string, string, string] {
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
