/**
 * What `npm pack` publishes: the license, every file the package.json and the docs point at,
 * no source maps, and no script that runs when a consumer installs the package.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { installPacked, packageJson, type Installed } from './packed.js';

/**
 * The anchors GitHub gives a markdown file's headings (outside code blocks): the text in lower
 * case, without punctuation, spaces as hyphens; a repeated one gets -1, -2, ….
 */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const times = new Map<string, number>();
  for (const m of markdown.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6} +(.+?)\s*$/gm)) {
    const anchor = m[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const before = times.get(anchor) ?? 0;
    times.set(anchor, before + 1);
    anchors.add(before === 0 ? anchor : `${anchor}-${before}`);
  }
  return anchors;
}

describe('the npm tarball', () => {
  let packed: Installed;
  before(() => {
    packed = installPacked();
  });
  after(() => packed.remove());
  const read = (file: string) => readFileSync(join(packed.dir, 'node_modules/kustomize-ts', file), 'utf8');

  test('has the Apache-2.0 LICENSE and a NOTICE', () => {
    assert.match(read('LICENSE'), /Apache License\s+Version 2\.0, January 2004/);
    assert.match(read('NOTICE'), /Apache License, Version 2\.0/);
  });

  test('ships no source maps and no references to them', () => {
    assert.deepEqual(packed.files.filter((f) => f.endsWith('.map')), []);
    assert.deepEqual(packed.files.filter((f) => /\.[cm]?js$/.test(f) && read(f).includes('sourceMappingURL')), []);
  });

  test('runs nothing when a consumer installs it', () => {
    const scripts = Object.keys(packageJson().scripts);
    assert.deepEqual(scripts.filter((s) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(s)), []);
  });

  test('holds every file that main, types, bin, browser and exports name', () => {
    const pkg = packageJson();
    const named = new Set<string>([pkg.main, pkg.types, ...Object.values(pkg.bin), ...Object.keys(pkg.browser)]);
    const walk = (v: unknown): void => {
      if (typeof v === 'string') named.add(v);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    walk(pkg.exports);
    assert.ok(named.size > 15, `found ${named.size} names`);
    const shipped = new Set(packed.files);
    assert.deepEqual([...named].map((f) => posix.normalize(f)).filter((f) => !shipped.has(f)), []);
  });

  test('holds what its markdown links to, with the headings its links name', () => {
    const docs = packed.files.filter((f) => f.endsWith('.md'));
    assert.ok(docs.includes('README.md') && docs.includes('docs/plugins.md') && docs.includes('docs/browser.md'), docs.join(' '));
    const dangling: string[] = [];
    for (const doc of docs) {
      for (const m of read(doc).matchAll(/\]\(([^)\s]+)\)/g)) {
        const [target, fragment] = m[1]!.split('#') as [string, string | undefined];
        if (/^[a-z]+:/i.test(target)) continue;
        const path = target === '' ? doc : posix.normalize(posix.join(dirname(doc), target));
        const present = packed.files.some((f) => f === path || f.startsWith(`${path.replace(/\/$/, '')}/`));
        if (!present) dangling.push(`${doc} → ${m[1]}`);
        else if (fragment !== undefined && !headingAnchors(read(path)).has(fragment)) dangling.push(`${doc} → ${m[1]}: no such heading`);
      }
    }
    assert.deepEqual(dangling, []);
  });
});
