import { parseDocument } from 'yaml';
import { isPrintable } from './characters.js';

/**
 * The value kustomize ends up with for a folded (`>`) block scalar in a resource.
 *
 * kustomize writes each resource out with yaml.v3, which keeps the folded style, and reads it
 * back. yaml.v3's folded writer decides whether a line break needs an extra empty line (so it
 * does not fold into a space) by looking at the start of the whole value instead of at the
 * next line. So when the value starts with a non-blank character, a break before a
 * more-indented line (or at the end, under `+` chomping) gains an extra `\n`; when it starts
 * with a blank, single breaks between ordinary lines fold into spaces. This reproduces that
 * write and read. (The writer also wraps lines longer than 80 columns, which changes the value
 * only for more-indented lines; that depends on the indentation in the whole document and is
 * not reproduced.)
 */
export function foldedRoundTrip(value: string): string {
  if (!writableAsBlock(value)) return value;
  const first = value.replace(/^\n+/, '')[0];
  const startsBlank = first === undefined || first === ' ' || first === '\t';
  let body = '';
  let inBreaks = true;
  let lineStartsBlank = true;
  for (const c of value) {
    if (c === '\n') {
      if (!inBreaks && !lineStartsBlank && !startsBlank) body += '\n';
      body += '\n';
      inBreaks = true;
      continue;
    }
    if (inBreaks) {
      body += '  ';
      lineStartsBlank = c === ' ' || c === '\t';
    }
    body += c;
    inBreaks = false;
  }
  const indent = value[0] === ' ' || value[0] === '\n' ? '2' : '';
  const chomp = !value.endsWith('\n') ? '-' : value === '\n' || value.endsWith('\n\n') ? '+' : '';
  const text = `k: >${indent}${chomp}\n${body}${body.endsWith('\n') ? '' : '\n'}`;
  const doc = parseDocument(text, { schema: 'failsafe' });
  const read = (doc.contents as { items?: { value?: { value?: unknown } }[] } | null)?.items?.[0]?.value?.value;
  return doc.errors.length === 0 && typeof read === 'string' ? read : value;
}

/** Whether yaml.v3 writes the value as a block scalar rather than double-quoted (tabs are fine; characters beyond the BMP are not). */
function writableAsBlock(value: string): boolean {
  if (value === '' || value.endsWith(' ') || value.includes(' \n')) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c !== 0x09 && !isPrintable(c)) return false;
  }
  return true;
}
