import type { Resource } from '../model/resource.js';
import { identicalValues } from '../yaml/value.js';
import { DOCUMENT_SEPARATOR, type Rendered } from './render.js';

/**
 * What an earlier build of the same tree printed, for a build after an edit: a resource whose
 * object is identical to the one the earlier build printed under the same id gets that text
 * again. Printing is most of what such a build does, and most resources (CRDs above all) come
 * through an edit unchanged; comparing two objects costs a fraction of printing one.
 */
export class PrintedBefore {
  /** each id's resource in the earlier output; -1 for an id that more than one had */
  private byId: Map<string, number> | undefined;

  constructor(private readonly earlier: Readonly<Rendered>) {}

  /** The earlier text of a resource, when the earlier build printed the same object under its id. */
  textOf(r: Resource): string | undefined {
    const byId = (this.byId ??= this.index());
    const i = byId.get(r.id.key);
    if (i === undefined || i < 0 || !identicalValues(this.earlier.resources[i]!.view, r.view)) return undefined;
    const { yaml, starts } = this.earlier;
    return yaml.slice(starts[i]!, i + 1 < starts.length ? starts[i + 1]! - DOCUMENT_SEPARATOR.length : yaml.length);
  }

  private index(): Map<string, number> {
    const byId = new Map<string, number>();
    this.earlier.resources.forEach((r, i) => {
      const key = r.id.key;
      byId.set(key, byId.has(key) ? -1 : i);
    });
    return byId;
  }
}
