/** Lines of context around each change, as `diff -u` and git show them. */
const CONTEXT = 3;

type Edit = { op: ' ' | '-' | '+'; line: string };

/**
 * The unified diff of two texts, line by line: hunks (`@@ -a,b +c,d @@`) of the lines removed
 * (`-`), added (`+`) and {@link CONTEXT} lines of context around them (` `); empty when the
 * texts are equal. Lines are compared whole, each with its newline; a last line without one is
 * marked as git marks it.
 */
export function unifiedDiff(before: string, after: string): string {
  if (before === after) return '';
  const a = lines(before);
  const b = lines(after);
  const edits = shortestEdits(a, b);
  let out = '';
  // group the edits into hunks: runs of changes with at most 2 * CONTEXT equal lines between them
  let i = 0;
  while (i < edits.length) {
    while (i < edits.length && edits[i]!.op === ' ') i++;
    if (i === edits.length) break;
    let start = i;
    for (let k = 0; k < CONTEXT && start > 0 && edits[start - 1]!.op === ' '; k++) start--;
    let end = i;
    for (;;) {
      while (end < edits.length && edits[end]!.op !== ' ') end++;
      let equal = 0;
      while (end + equal < edits.length && edits[end + equal]!.op === ' ') equal++;
      if (end + equal < edits.length && equal <= 2 * CONTEXT) {
        end += equal;
        continue;
      }
      end += Math.min(equal, CONTEXT);
      break;
    }
    out += hunk(edits, start, end);
    i = end;
  }
  return out;
}

function hunk(edits: readonly Edit[], start: number, end: number): string {
  // line numbers (1-based) where the hunk starts on each side
  let oldLine = 1;
  let newLine = 1;
  for (let k = 0; k < start; k++) {
    if (edits[k]!.op !== '+') oldLine++;
    if (edits[k]!.op !== '-') newLine++;
  }
  let oldCount = 0;
  let newCount = 0;
  let body = '';
  for (let k = start; k < end; k++) {
    const { op, line } = edits[k]!;
    if (op !== '+') oldCount++;
    if (op !== '-') newCount++;
    body += op + line + (line.endsWith('\n') ? '' : '\n\\ No newline at end of file\n');
  }
  return `@@ -${range(oldLine, oldCount)} +${range(newLine, newCount)} @@\n${body}`;
}

/** A side's range: `start,count`, `start` alone for one line, and the line before for none (as diff -u). */
function range(start: number, count: number): string {
  if (count === 1) return String(start);
  return `${count === 0 ? start - 1 : start},${count}`;
}

function lines(text: string): string[] {
  return text === '' ? [] : (text.match(/[^\n]*\n|[^\n]+$/g) ?? []);
}

/** Myers' shortest edit script of `a` into `b`, as a list of kept, removed and added lines. */
function shortestEdits(a: readonly string[], b: readonly string[]): Edit[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  // walk the trace back from the end
  const edits: Edit[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[offset + k - 1]! < vd[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : vd[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) edits.push({ op: ' ', line: a[--x]! }), y--;
    if (d > 0) {
      if (x === prevX) edits.push({ op: '+', line: b[--y]! });
      else edits.push({ op: '-', line: a[--x]! });
    }
  }
  return edits.reverse();
}
