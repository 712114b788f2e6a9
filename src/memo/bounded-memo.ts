/**
 * `compute`, remembered: a memo of a pure function, shared by everything in the process that
 * calls it (builds included). It is bounded, so a long-lived process that meets endless distinct
 * keys does not grow: when `limit` keys are held, it starts over.
 */
export function boundedMemo<K, V>(limit: number, compute: (key: K) => V): (key: K) => V {
  const memo = new Map<K, V>();
  return (key) => {
    let value = memo.get(key);
    if (value === undefined) {
      value = compute(key);
      if (memo.size >= limit) memo.clear();
      memo.set(key, value);
    }
    return value;
  };
}
