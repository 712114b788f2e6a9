import { COMPOSITION_API_VERSION, COMPOSITION_KIND } from '../kinds/composition.js';
import { emitYaml } from '../yaml/emit.js';
import type { ConsolidatedTransformer } from './consolidated-transformer.js';

/**
 * A consolidated list as a flat Composition a user could paste back: each transformer under a
 * comment naming the file it was written in (relative to the top Composition's directory),
 * since relative paths in its config resolve from that file's Composition.
 */
export function printComposition(list: ConsolidatedTransformer[]): string {
  const head = `apiVersion: ${COMPOSITION_API_VERSION}\nkind: ${COMPOSITION_KIND}\n`;
  if (list.length === 0) return `${head}transformers: []\n`;
  const items = list.map((t) => `# from ${t.loader.originPath(t.file)}\n${asListItem(emitYaml(t.config))}`);
  return `${head}transformers:\n${items.join('')}`;
}

/** A printed map as an item of a block sequence at the top level. */
function asListItem(yaml: string): string {
  return yaml
    .split('\n')
    .map((line, i) => (i === 0 ? `- ${line}` : line === '' ? line : `  ${line}`))
    .join('\n');
}
