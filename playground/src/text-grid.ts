/** A place in a text, as the language service counts: 0-based line and character. */
export interface TextPosition {
  line: number;
  character: number;
}

/** The offset in `text` of a position (clamped to the text). */
export function offsetOf(text: string, { line, character }: TextPosition): number {
  let offset = 0;
  for (let l = 0; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  const end = text.indexOf('\n', offset);
  return Math.min(offset + character, end < 0 ? text.length : end);
}

/** The position of an offset in `text`. */
export function positionOf(text: string, offset: number): TextPosition {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: before.at(-1)!.length };
}

/**
 * The editor (a textarea that does not wrap lines, in a monospace font) as a grid of cells: which
 * character lies under a point of the page, and where a character is drawn. Tabs count as the
 * editor draws them (to the next multiple of its tab size).
 */
export class TextGrid {
  private charWidth: number | undefined;

  constructor(private readonly editor: HTMLTextAreaElement) {}

  /** The position under a point of the page (client coordinates); undefined beyond a line's end or the last line. */
  positionAt(clientX: number, clientY: number): TextPosition | undefined {
    const m = this.metrics();
    const box = this.editor.getBoundingClientRect();
    const x = clientX - box.left - m.left + this.editor.scrollLeft;
    const y = clientY - box.top - m.top + this.editor.scrollTop;
    if (x < 0 || y < 0) return undefined;
    const line = Math.floor(y / m.lineHeight);
    const text = this.editor.value.split('\n')[line];
    if (text === undefined) return undefined;
    const character = characterAt(text, Math.floor(x / m.charWidth), m.tabSize);
    return character === undefined ? undefined : { line, character };
  }

  /** Where the cell of a position is drawn, relative to the editor's box: its left edge, and the top and bottom of its line. */
  cellOf({ line, character }: TextPosition): { left: number; top: number; bottom: number } {
    const m = this.metrics();
    const text = this.editor.value.split('\n')[line] ?? '';
    const top = m.top + line * m.lineHeight - this.editor.scrollTop;
    return { left: m.left + columnOf(text, character, m.tabSize) * m.charWidth - this.editor.scrollLeft, top, bottom: top + m.lineHeight };
  }

  /** Puts the caret at a position, its line in view (a few lines below the top). */
  reveal(position: TextPosition): void {
    const offset = offsetOf(this.editor.value, position);
    this.editor.focus();
    this.editor.setSelectionRange(offset, offset);
    this.editor.scrollTop = Math.max(0, (position.line - 3) * this.metrics().lineHeight);
  }

  /** The caret's position. */
  caret(): TextPosition {
    return positionOf(this.editor.value, this.editor.selectionStart);
  }

  private metrics(): { left: number; top: number; lineHeight: number; charWidth: number; tabSize: number } {
    const style = getComputedStyle(this.editor);
    const px = (v: string) => parseFloat(v) || 0;
    if (this.charWidth === undefined) {
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = style.font;
      this.charWidth = context.measureText('0'.repeat(100)).width / 100;
    }
    return {
      left: px(style.borderLeftWidth) + px(style.paddingLeft),
      top: px(style.borderTopWidth) + px(style.paddingTop),
      lineHeight: px(style.lineHeight),
      charWidth: this.charWidth,
      tabSize: Number(style.tabSize) || 8,
    };
  }
}

/** The character of `line` drawn in the 0-based `column`; undefined beyond the line's end. */
function characterAt(line: string, column: number, tabSize: number): number | undefined {
  let col = 0;
  for (let i = 0; i < line.length; i++) {
    col = line[i] === '\t' ? (Math.floor(col / tabSize) + 1) * tabSize : col + 1;
    if (column < col) return i;
  }
  return undefined;
}

/** The column a character of `line` is drawn in. */
function columnOf(line: string, character: number, tabSize: number): number {
  let col = 0;
  for (let i = 0; i < Math.min(character, line.length); i++) col = line[i] === '\t' ? (Math.floor(col / tabSize) + 1) * tabSize : col + 1;
  return col + Math.max(0, character - line.length);
}
