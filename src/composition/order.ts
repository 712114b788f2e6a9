import { compositionError, type TransformerRef } from '../kinds/composition.js';
import { describeTransformer, transformerId, type ConsolidatedTransformer } from './consolidated-transformer.js';

/**
 * Reorders the consolidated list by `transformerOrder`, which must name every transformer
 * exactly once: each entry must match one transformer (by name, narrowed by kind and
 * apiVersion when given). Every problem is reported at once.
 */
export function applyOrder(list: ConsolidatedTransformer[], order: TransformerRef[], file: string): ConsolidatedTransformer[] {
  const problems: string[] = [];
  const chosen: number[] = [];
  const namedBy = new Map<number, number[]>();
  /** transformers an ambiguous entry matched: not also reported as missing */
  const contested = new Set<number>();
  order.forEach((ref, i) => {
    const matches = list.flatMap((t, k) => (refersTo(ref, t) ? [k] : []));
    if (matches.length === 1) {
      chosen.push(matches[0]!);
      namedBy.set(matches[0]!, [...(namedBy.get(matches[0]!) ?? []), i]);
    } else if (matches.length === 0) {
      problems.push(`transformerOrder[${i}] (${describeRef(ref)}) names no transformer`);
    } else {
      const names = matches.map((k) => describeTransformer(list[k]!.config)).join(', ');
      problems.push(`transformerOrder[${i}] (${describeRef(ref)}) is ambiguous: it matches ${names}; add kind or apiVersion`);
      for (const k of matches) contested.add(k);
    }
  });
  list.forEach((t, k) => {
    const by = namedBy.get(k) ?? [];
    if (by.length > 1) problems.push(`${describeTransformer(t.config)} is named more than once: ${by.map((i) => `transformerOrder[${i}]`).join(', ')}`);
    if (by.length === 0 && !contested.has(k)) problems.push(`${describeTransformer(t.config)} is missing`);
  });
  if (problems.length > 0) throw compositionError(file, 'transformerOrder', `must name every transformer exactly once: ${problems.join('; ')}`);
  return chosen.map((k) => list[k]!);
}

function refersTo(ref: TransformerRef, t: ConsolidatedTransformer): boolean {
  const id = transformerId(t.config);
  return id.name === ref.name && (ref.kind === undefined || ref.kind === id.kind) && (ref.apiVersion === undefined || ref.apiVersion === id.apiVersion);
}

function describeRef(ref: TransformerRef): string {
  return [`name ${ref.name}`, ...(ref.kind ? [`kind ${ref.kind}`] : []), ...(ref.apiVersion ? [`apiVersion ${ref.apiVersion}`] : [])].join(', ');
}
