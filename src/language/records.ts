import { resolve } from '../fs/path.js';
import { ResourceMap } from '../model/resource-map.js';
import type { Resource } from '../model/resource.js';
import type { FieldProvenance, ResourceProvenance, Written } from '../pipeline/provenance.js';

/** A value of a root's output whose text is at some place of a file: now, or before a later step changed it. */
export interface WrittenHere {
  resource: ResourceProvenance;
  field: FieldProvenance;
  /** what was written at the place (the field's value then) */
  written: Written;
  /** whether the output still holds it (no later step changed the value) */
  current: boolean;
}

/**
 * `explain`'s records of one root's build, found by the place each value was written: which
 * values of the output a line of a resource, patch, generator or kustomization file wrote.
 */
export class RecordIndex {
  /** by file (absolute), then line (1-based) */
  private readonly byFile = new Map<string, Map<number, WrittenHere[]>>();
  /** how many values it holds, histories counted */
  size = 0;
  /** the output's resources (ids, earlier names), as selectors select among them: what navigation asks */
  readonly resources: ResourceMap;
  /** each resource's records, and the resource of each record */
  private readonly recordsByResource = new Map<Resource, ResourceProvenance>();
  private readonly resourcesByRecord = new Map<ResourceProvenance, Resource>();

  /** `resources` are the build's, in output order, as `records` are */
  constructor(records: readonly ResourceProvenance[], dir: string, resources: readonly Resource[] = []) {
    this.resources = new ResourceMap(resources);
    records.forEach((record, i) => {
      const resource = resources[i];
      if (!resource) return;
      this.recordsByResource.set(resource, record);
      this.resourcesByRecord.set(record, resource);
    });
    for (const resource of records) {
      for (const field of resource.fields) {
        this.note(dir, { resource, field, written: field, current: true });
        for (const written of field.history) this.note(dir, { resource, field, written, current: false });
      }
    }
  }

  recordOf(resource: Resource): ResourceProvenance | undefined {
    return this.recordsByResource.get(resource);
  }

  resourceOf(record: ResourceProvenance): Resource | undefined {
    return this.resourcesByRecord.get(record);
  }

  private note(dir: string, here: WrittenHere): void {
    const by = here.written.by;
    // a value the build made (no source) or a fetched file's (a URL) is at no local place
    if (by.file === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(by.file)) return;
    const file = resolve(dir, by.file);
    let lines = this.byFile.get(file);
    if (!lines) this.byFile.set(file, (lines = new Map()));
    const list = lines.get(by.line);
    if (list) list.push(here);
    else lines.set(by.line, [here]);
    this.size++;
  }

  /**
   * What the value at the 1-based `line` and `column` of `file` wrote: the value starting at or
   * before the column (the key before a line's value counts as that value).
   */
  at(file: string, line: number, column: number): WrittenHere[] {
    const list = this.byFile.get(file)?.get(line);
    if (!list) return [];
    const starts = list.map((h) => h.written.by.column);
    const before = starts.filter((c) => c <= column);
    const start = before.length > 0 ? Math.max(...before) : Math.min(...starts);
    return list.filter((h) => h.written.by.column === start);
  }
}
