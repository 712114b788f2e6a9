/**
 * The tools that run kustomize read its version, and decide what to pass it by that version:
 * they must read the kustomize version kustomize-ts follows from `kustomize-ts version`, run as
 * they run it (the launcher as a program).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { KUSTOMIZE_VERSION, VERSION } from '../../src/options.js';

const BIN = fileURLToPath(new URL('../../../bin/kustomize-ts.js', import.meta.url));
const version = (...args: string[]) => execFileSync(BIN, ['version', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

/** Masterminds/semver's pattern, which Argo CD copies into util/kustomize/kustomize.go. */
const ARGO_SEMVER = /v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?(\+([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?/;

/** What Argo CD's versionWithBinaryPath and getSemver make of `version --short`'s output, step by step. */
function argoCdVersion(out: string): [number, number, number] {
  let v = out.trim();
  if (v.startsWith('{')) v = v.slice(1);
  if (v.endsWith('}')) v = v.slice(0, -1);
  v = v.trim().replaceAll('  ', ' ');
  if (v.startsWith('kustomize/')) v = v.slice('kustomize/'.length);
  const match = ARGO_SEMVER.exec(v);
  assert.ok(match, `Argo CD finds no version in '${v}' and assumes v99.99.99`);
  // semver.NewVersion: major, then the optional .minor and .patch (0 when absent)
  return [Number(match[1]), Number((match[2] ?? '.0').slice(1)), Number((match[3] ?? '.0').slice(1))];
}

const atLeast = (v: [number, number, number], min: [number, number, number]) => v[0] !== min[0] ? v[0] > min[0] : v[1] !== min[1] ? v[1] > min[1] : v[2] >= min[2];

test("Argo CD's parsing of version --short finds the kustomize version we follow", () => {
  const parsed = argoCdVersion(version('--short'));
  assert.deepEqual(parsed, KUSTOMIZE_VERSION.split('.').map(Number));
  // the gates Argo CD puts on it: components from v3.7.0, the helm flags from v5.3.0
  assert.ok(atLeast(parsed, [3, 7, 0]) && atLeast(parsed, [5, 3, 0]) && atLeast(parsed, [3, 8, 5]));
});

test('a person, and a Makefile that greps for kustomize/v, see both versions', () => {
  const short = version('--short');
  assert.match(short, new RegExp(`kustomize/v${KUSTOMIZE_VERSION.replaceAll('.', '\\.')}\\b`));
  assert.ok(short.includes(`kustomize-ts/v${VERSION}`));
  const plain = version();
  // `kustomize version` prints the semver alone first: `version | grep -q v5.8.1` and `cut -d' ' -f1` work
  assert.equal(plain.split(' ')[0], `v${KUSTOMIZE_VERSION}`);
  assert.ok(plain.includes(`kustomize-ts v${VERSION}`));
  const json = JSON.parse(version('-o', 'json')) as { version: string; kustomizeTsVersion: string };
  assert.equal(json.version, `kustomize/v${KUSTOMIZE_VERSION}`);
  assert.equal(json.kustomizeTsVersion, `v${VERSION}`);
});
