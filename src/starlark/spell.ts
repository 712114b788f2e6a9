/** "did you mean" hints: the candidate nearest to a misspelt name (Levenshtein, case and `_` ignored). */
export function nearestName(x: string, candidates: Iterable<string>): string | undefined {
  const fold = (s: string): string => s.replace(/_/g, '').toLowerCase();
  const fx = fold(x);
  let best: string | undefined;
  let bestD = Math.floor((fx.length + 1) / 2);
  for (const c of candidates) {
    const d = levenshtein(fx, fold(c));
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}
