import type { FileSystem } from './filesystem.js';
import { resolve } from './path.js';

/**
 * Shell-style patterns as Go's `filepath.Match` reads them: `*` (any run of characters but
 * `/`), `?` (one such character), `[a-z]`/`[^a-z]` classes and `\` escapes.
 */
export function matchPattern(pattern: string, name: string): boolean {
  return patternRegExp(pattern).test(name);
}

function hasMeta(pattern: string): boolean {
  return /[*?[\\]/.test(pattern);
}

function patternRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '\\' && i + 1 < pattern.length) re += escapeRegExp(pattern[++i]!);
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) return /(?!)/; // Go: ErrBadPattern, which matches nothing
      const body = pattern.slice(i + 1, end);
      const negated = body.startsWith('^');
      re += `[${negated ? '^/' : ''}${(negated ? body.slice(1) : body).replace(/[\]\\^]/g, '\\$&')}]`;
      i = end;
    } else re += escapeRegExp(c);
  }
  return new RegExp(`^${re}$`, 's');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * The paths a pattern names, relative to `cwd` as the pattern is, in directory order — as Go's
 * `filepath.Glob`: a pattern without metacharacters names itself if it exists.
 */
export function glob(fs: FileSystem, cwd: string, pattern: string): string[] {
  if (!hasMeta(pattern)) return fs.exists(resolve(cwd, pattern)) ? [pattern] : [];
  const slash = pattern.lastIndexOf('/');
  const dirPattern = slash < 0 ? '' : pattern.slice(0, slash);
  const filePattern = pattern.slice(slash + 1);
  const dirs = slash < 0 ? [''] : hasMeta(dirPattern) ? glob(fs, cwd, dirPattern) : [dirPattern || '/'];
  const out: string[] = [];
  for (const dir of dirs) {
    const abs = resolve(cwd, dir || '.');
    if (!fs.isDirectory(abs)) continue;
    for (const name of fs.readDir(abs)) {
      if (matchPattern(filePattern, name)) out.push(dir === '' ? name : dir === '/' ? `/${name}` : `${dir}/${name}`);
    }
  }
  return out;
}
