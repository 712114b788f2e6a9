import { isMap, isSeq, type Value } from '../yaml/value.js';
import { withoutLeadingEmpty } from '../fieldspec/fieldspec.js';

/**
 * The value at a var's `fieldref.fieldpath` (`spec.ports[0].port`, `metadata.name`):
 * dot-separated fields, `[n]` or a bare number for a list index, `[key=value]` to pick a list
 * element. Undefined when the path does not exist.
 */
export function fieldValue(obj: Value, path: string): Value | undefined {
  let node: Value | undefined = obj;
  for (const step of pathSteps(path)) {
    if (node === undefined || node === null) return undefined;
    const select = /^\[([^=\]]+)=([^\]]*)\]$/.exec(step);
    if (select) {
      if (!isSeq(node)) return undefined;
      const [, key, want] = select;
      node = node.find((e) => isMap(e) && e[key!] !== undefined && String(e[key!]) === want);
    } else if (isSeq(node)) {
      if (!/^\d+$/.test(step)) return undefined;
      node = node[Number(step)];
    } else if (isMap(node)) {
      node = Object.prototype.hasOwnProperty.call(node, step) ? node[step] : undefined;
    } else return undefined;
  }
  return node;
}

function pathSteps(path: string): string[] {
  const out: string[] = [];
  for (const part of withoutLeadingEmpty(path.split('.'))) {
    const m = /^(.*)\[(\d+)\]$/.exec(part);
    if (!m) out.push(part);
    else {
      if (m[1]) out.push(m[1]);
      out.push(m[2]!);
    }
  }
  return out;
}
