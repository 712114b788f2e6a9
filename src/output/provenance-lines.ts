import type { ResourceProvenance, WrittenBy } from '../pipeline/provenance.js';
import { documentPositions, type PositionTree } from '../yaml/positions.js';
import { DOCUMENT_SEPARATOR } from './render.js';

/**
 * Who wrote the value on each line of a resource's printed YAML (`yaml`, as `build` prints it):
 * 1-based line numbers to the origin of the first value on that line.
 */
export function lineOrigins(resource: ResourceProvenance, yaml: string): Map<number, WrittenBy> {
  const byLine = new Map<number, WrittenBy>();
  const tree = documentPositions(yaml)[0];
  if (!tree) return byLine;
  for (const f of resource.fields) {
    const line = lineOf(tree, f.path);
    if (line !== undefined && !byLine.has(line)) byLine.set(line, f.by);
  }
  return byLine;
}

/**
 * Who wrote the value on each line of a build's output (`yaml` and `provenance` of a build with
 * `provenance: true`): an entry per line, undefined for a line that holds no value.
 */
export function outputLineOrigins(yaml: string, provenance: readonly ResourceProvenance[]): (WrittenBy | undefined)[] {
  const out: (WrittenBy | undefined)[] = [];
  outputDocuments(yaml).forEach((text, i) => {
    if (i > 0) out.push(undefined);
    const origins = provenance[i] ? lineOrigins(provenance[i], text) : new Map<number, WrittenBy>();
    const lines = text.split('\n').length - 1;
    for (let line = 1; line <= lines; line++) out.push(origins.get(line));
  });
  return out;
}

/** A build's output (as `build` prints it) cut into its resources' texts. */
export function outputDocuments(yaml: string): string[] {
  return yaml === '' ? [] : yaml.split(SEPARATOR_AT_LINE_START);
}

const SEPARATOR_AT_LINE_START = new RegExp(`(?<=\\n)${DOCUMENT_SEPARATOR}`);

/** The line where the value at a printed path is, in a document's position tree. */
function lineOf(tree: PositionTree, path: string): number | undefined {
  let node: PositionTree | undefined = tree;
  for (const part of parsePath(path)) node = node?.children?.get(part);
  return node?.at.line;
}

/** A printed path back into its keys and indexes. */
function parsePath(path: string): (string | number)[] {
  const parts: (string | number)[] = [];
  const re = /\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|\.?([^.[\]]+)/g;
  for (let m; (m = re.exec(path)); ) {
    if (m[1] !== undefined) parts.push(Number(m[1]));
    else if (m[2] !== undefined) parts.push(JSON.parse(m[2]) as string);
    else parts.push(m[3]!);
  }
  return parts;
}
