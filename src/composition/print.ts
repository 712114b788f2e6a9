import { COMPOSITION_API_VERSION, COMPOSITION_KIND } from '../kinds/composition.js';
import { emitYaml } from '../yaml/emit.js';
import type { Consolidated } from './consolidate.js';

/**
 * A consolidated Composition as a flat one a user could paste back: each transformer under a
 * comment naming the file it was written in (relative to the top Composition's directory),
 * since relative paths in its config resolve from that file's Composition; likewise each
 * catalog under the directory its reference is relative to.
 */
export function printComposition({ transformers, catalogs }: Consolidated): string {
  const head = `apiVersion: ${COMPOSITION_API_VERSION}\nkind: ${COMPOSITION_KIND}\n`;
  const items = transformers.map((t) => `# from ${t.loader.originPath(t.file)}\n${asListItem(emitYaml(t.config))}`);
  const refs = catalogs.map((c) => `# relative to ${c.loader.originPath('.')}\n${asListItem(emitYaml(c.reference))}`);
  return `${head}transformers:${items.length === 0 ? ' []\n' : `\n${items.join('')}`}${refs.length === 0 ? '' : `catalogs:\n${refs.join('')}`}`;
}

/** A printed map as an item of a block sequence at the top level. */
function asListItem(yaml: string): string {
  return yaml
    .split('\n')
    .map((line, i) => (i === 0 ? `- ${line}` : line === '' ? line : `  ${line}`))
    .join('\n');
}
