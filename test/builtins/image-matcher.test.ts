/**
 * kustomize matches an `images` entry's name as the regexp `^NAME(:TAG)?(@sha256:DIGEST)?$`.
 * Names whose only metacharacter is `.` are matched by hand; the answers must be RE2's.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { imageMatcher } from '../../src/builtins/ImageTagTransformer.js';
import { assertProperty } from '../property.js';

const re2 = (name: string, image: string): boolean => RE2JS.compile(`^${name}(:[a-zA-Z0-9_.{}-]*)?(@sha256:[a-zA-Z0-9_.{}-]*)?$`).test(image);

const NAME_PARTS = ['ghcr', '.', 'io', '/', 'org', 'app', '-', '_', 'nginx', ':5000', 'é'];
const IMAGE_PARTS = [...NAME_PARTS, 'gHcr', 'x', ':', ':1.2.3', '@sha256:', 'abc', '@', '{', '}', '\n', ' ', '😀', '+'];

test('names with `.` as their only metacharacter match as RE2 matches them', async () => {
  await assertProperty(
    fc.property(fc.array(fc.constantFrom(...NAME_PARTS), { minLength: 1, maxLength: 5 }), fc.array(fc.constantFrom(...IMAGE_PARTS), { maxLength: 8 }), fc.boolean(), (nameParts, extra, fromName) => {
      const name = nameParts.join('');
      // images near the name are the interesting ones
      const image = (fromName ? name : '') + extra.join('');
      assert.equal(imageMatcher(name)!.test(image), re2(name, image), `${JSON.stringify(name)} ${JSON.stringify(image)}`);
    }),
    20000,
  );
});

test('examples: a tag, a digest, both; `.` matches any character; names with other metacharacters use RE2', () => {
  const m = imageMatcher('ghcr.io/org/app')!;
  for (const image of ['ghcr.io/org/app', 'ghcr.io/org/app:1.2', 'ghcr.io/org/app@sha256:abc', 'ghcr.io/org/app:1.2@sha256:abc', 'ghcrXio/org/app']) assert.ok(m.test(image), image);
  for (const image of ['ghcr.io/org/app2', 'ghcr.io/org/app:1.2:3', 'ghcr.io/org/ap', 'ghcr\nio/org/app', 'ghcr.io/org/app@sha1:abc']) assert.ok(!m.test(image), image);
  assert.ok(imageMatcher('app|other')!.test('other:1'));
  assert.equal(imageMatcher('app('), undefined);
});
