import type { Hover } from 'vscode-languageserver-types';
import { markdownNodes } from './markdown.js';
import type { TextGrid, TextPosition } from './text-grid.js';

/** How long (ms) the mouse or the caret must rest on a place before its hover is asked for. */
const REST_MS = 300;

/**
 * The editor's hover: when the mouse rests on a character of the editor, or the caret rests after
 * a click or a key, the language service's hover for that place (what the value becomes in each
 * root, and who last changed it; a kustomization key's documentation) shows in a tooltip at it.
 * Escape, typing or scrolling hides it; the newest place asked for wins.
 */
export class EditorHover {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** the place asked for last, as `line:character`, and how many places have been asked for */
  private place = '';
  private asked = 0;

  constructor(
    private readonly editor: HTMLTextAreaElement,
    private readonly tip: HTMLElement,
    private readonly grid: TextGrid,
    private readonly ask: (position: TextPosition) => Promise<Hover | null>,
  ) {
    editor.addEventListener('mousemove', (e) => this.restAt(grid.positionAt(e.clientX, e.clientY)));
    editor.addEventListener('mouseleave', () => this.hide());
    editor.addEventListener('click', () => this.restAt(grid.caret()));
    editor.addEventListener('keyup', (e) => e.key !== 'Escape' && this.restAt(grid.caret()));
    editor.addEventListener('keydown', (e) => e.key === 'Escape' && this.hide());
    editor.addEventListener('input', () => this.hide());
    editor.addEventListener('scroll', () => this.hide());
  }

  /** Asks for the hover at `position` once it has rested there; nowhere (undefined) hides it. */
  restAt(position: TextPosition | undefined): void {
    const place = position ? `${position.line}:${position.character}` : '';
    if (place === this.place) return;
    this.hide();
    this.place = place;
    if (position) this.timer = setTimeout(() => void this.show(position), REST_MS);
  }

  hide(): void {
    clearTimeout(this.timer);
    this.asked++;
    this.place = '';
    this.tip.hidden = true;
  }

  private async show(position: TextPosition): Promise<void> {
    const asked = ++this.asked;
    const hover = await this.ask(position);
    if (asked !== this.asked) return;
    const markdown = hover && (typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : undefined);
    if (!markdown) {
      this.tip.hidden = true;
      return;
    }
    this.tip.replaceChildren(...markdownNodes(markdown));
    this.tip.hidden = false;
    // below the line, or above it when there is no room below; within the editor's width
    const cell = this.grid.cellOf(position);
    const box = { left: this.editor.offsetLeft, top: this.editor.offsetTop, width: this.editor.clientWidth, height: this.editor.clientHeight };
    const below = cell.bottom + this.tip.offsetHeight <= box.height;
    this.tip.style.left = `${box.left + Math.max(0, Math.min(cell.left, box.width - this.tip.offsetWidth))}px`;
    this.tip.style.top = `${box.top + (below ? cell.bottom : Math.max(0, cell.top - this.tip.offsetHeight))}px`;
  }
}
