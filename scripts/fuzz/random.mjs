// A seeded pseudo-random source (mulberry32): the same seed gives the same sequence, on every
// machine and Node version, so a fuzz case is named by its seed alone.

/** Mixes a run's seed and a case's index into the case's own seed (a 32-bit integer). */
export function caseSeed(seed, index) {
  let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca77)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

export class Random {
  constructor(seed) {
    this.state = seed >>> 0;
  }

  /** a float in [0, 1) */
  next() {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** an integer in [lo, hi] */
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** true with probability p */
  chance(p) {
    return this.next() < p;
  }

  pick(items) {
    return items[Math.floor(this.next() * items.length)];
  }

  /** between lo and hi distinct items, in their order */
  some(items, lo, hi) {
    const n = Math.min(items.length, this.int(lo, hi));
    return this.shuffle(items).slice(0, n).sort((a, b) => items.indexOf(a) - items.indexOf(b));
  }

  shuffle(items) {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /** a short lowercase word, for keys and values */
  word() {
    return this.pick(WORDS);
  }
}

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'blue', 'green', 'red', 'fast', 'slow', 'edge', 'core', 'east', 'west', 'main', 'spare'];
