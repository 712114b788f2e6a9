/**
 * The markdown the language service's hovers are written in, as page elements: paragraphs
 * (split by blank lines), `- ` list items, `**bold**` and `` `code` ``. Text is only ever set as
 * text: a value in a hover cannot make markup.
 */
export function markdownNodes(markdown: string): HTMLElement[] {
  return markdown.split(/\n{2,}/).map((block) => {
    const lines = block.split('\n');
    const items = lines.filter((l) => l.startsWith('- '));
    const para = document.createElement('p');
    para.append(...inline(lines.filter((l) => !l.startsWith('- ')).join(' ')));
    if (items.length === 0) return para;
    const list = document.createElement('ul');
    for (const item of items) {
      const li = document.createElement('li');
      li.append(...inline(item.slice(2)));
      list.append(li);
    }
    const part = document.createElement('div');
    if (para.textContent) part.append(para);
    part.append(list);
    return part;
  });
}

/** A line's text with its `**bold**` and `` `code` `` spans. */
function inline(text: string): (string | HTMLElement)[] {
  return text.split(/(\*\*[^*]+\*\*|`[^`]+`)/).flatMap((part): (string | HTMLElement)[] => {
    if (part === '') return [];
    const tag = part.startsWith('**') && part.length > 4 ? 'strong' : part.startsWith('`') && part.length > 2 ? 'code' : undefined;
    if (!tag) return [part];
    const el = document.createElement(tag);
    el.textContent = tag === 'strong' ? part.slice(2, -2) : part.slice(1, -1);
    return [el];
  });
}
