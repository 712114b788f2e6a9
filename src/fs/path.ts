/** POSIX path helpers that work the same in Node and in a browser. */

export function normalize(p: string): string {
  const abs = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!abs) out.push('..');
    } else out.push(part);
  }
  const joined = out.join('/');
  return abs ? '/' + joined : joined || '.';
}

export function join(...parts: string[]): string {
  return normalize(parts.filter((p) => p !== '').join('/'));
}

/** `relative` (a name, or a normalised relative path) inside `dir` (absolute, normalised): {@link join} without normalising again. */
export function childOf(dir: string, relative: string): string {
  return dir === '/' ? `/${relative}` : `${dir}/${relative}`;
}

/** `p` resolved against `base` unless already absolute. */
export function resolve(base: string, p: string): string {
  return p.startsWith('/') ? normalize(p) : join(base, p);
}

export function dirname(p: string): string {
  const n = normalize(p);
  const i = n.lastIndexOf('/');
  if (i < 0) return '.';
  return i === 0 ? '/' : n.slice(0, i);
}

export function basename(p: string): string {
  const n = normalize(p);
  return n.slice(n.lastIndexOf('/') + 1);
}

/** Whether `p` is `dir` or inside it (both absolute, normalised). */
export function isWithin(dir: string, p: string): boolean {
  if (dir === '/') return true;
  return p === dir || p.startsWith(dir + '/');
}

/** `p` relative to `from` (both absolute). */
export function relative(from: string, p: string): string {
  const a = normalize(from).split('/').filter(Boolean);
  const b = normalize(p).split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const rel = [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
  return rel || '.';
}

/** Whether a file name is a relative path: not absolute, and no URL (`https://…`, `oci://…`). */
export function isRelativePath(name: string): boolean {
  return !name.startsWith('/') && !/^[a-z][a-z0-9+.-]*:\/\//i.test(name);
}
