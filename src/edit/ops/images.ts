import { isScalar, type YAMLMap } from 'yaml';
import { KustomizeError } from '../../errors.js';
import type { EditContext } from '../context.js';
import { mapItems, setSorted, stringField } from './seq.js';

/** An `images` entry to set; `*` as newName, newTag or digest keeps the value already in the file. */
export interface ImageEdit {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

/** `edit set image`: each image replaces the entry of the same name (or is added); the list is kept sorted by name, as kustomize writes it. */
export interface SetImages {
  op: 'setImages';
  images: ImageEdit[];
}

const KEEP = '*';

export const IMAGE_FORMAT_ERROR = `invalid format of image, use one of the following options:
- <image>=<newimage>:<newtag>
- <image>=<newimage>@<digest>
- <image>=<newimage>:<newtag>@<digest>
- <image>=<newimage>
- <image>:<newtag>
- <image>:<newtag>@<digest>
- <image>@<digest>`;

/** Reads one `edit set image` argument: `name=newName:tag@digest` and its shorter forms. */
export function parseImageArg(arg: string): ImageEdit {
  const eq = arg.indexOf('=');
  const [key, value] = eq < 0 ? ['', arg] : [arg.slice(0, eq), arg.slice(eq + 1)];
  const { name, tag, digest } = splitImageName(value);
  if (name === arg) throw new KustomizeError('EDIT_INVALID', IMAGE_FORMAT_ERROR);
  const edit: ImageEdit = key ? { name: key, newName: name } : { name };
  if (tag) edit.newTag = tag;
  if (digest) edit.digest = digest;
  return edit;
}

/** An image reference's name, tag and digest; a `:` before the first `/` is a registry port, not a tag. */
function splitImageName(image: string): { name: string; tag: string; digest: string } {
  const slash = image.indexOf('/');
  const offset = slash > 0 ? slash : 0;
  const search = image.slice(offset);
  const at = search.indexOf('@');
  const colon = search.indexOf(':');
  if (at < 0 && colon < 0) return { name: image, tag: '', digest: '' };
  if (at >= 0 && (colon < 0 || at < colon)) return { name: image.slice(0, offset + at), tag: '', digest: image.slice(offset + at + 1) };
  if (at >= 0) return { name: image.slice(0, offset + colon), tag: image.slice(offset + colon + 1, offset + at), digest: image.slice(offset + at + 1) };
  return { name: image.slice(0, offset + colon), tag: image.slice(offset + colon + 1), digest: '' };
}

export function setImages(ctx: EditContext, op: SetImages): void {
  if (op.images.length === 0) throw new KustomizeError('EDIT_INVALID', 'no image specified');
  const seq = ctx.doc.list('images');
  const byName = new Map<string, ImageEdit>();
  for (const image of op.images) byName.set(image.name, image);
  for (const [name, image] of byName) {
    let entry = mapItems(seq).find((m) => stringField(m, 'name') === name);
    if (!entry) {
      entry = ctx.doc.node({ name }) as YAMLMap;
      seq.add(entry);
    }
    for (const field of ['newName', 'newTag', 'digest'] as const) {
      const value = image[field] === KEEP ? stringField(entry, field) : image[field];
      if (value) setSorted(entry, field, value);
      else entry.delete(field);
    }
    entry.delete('tagSuffix');
  }
  sortByName(seq.items);
}

/** Sorts list items by their `name` (stable; items without one keep their relative place at the front). */
export function sortByName(items: unknown[]): void {
  const nameOf = (item: unknown): string => {
    const name = (item as YAMLMap).get?.('name', true);
    return isScalar(name) ? String(name.value) : '';
  };
  items.sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0));
}
