import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** the repository's root, from dist/test/package/ */
export const REPO = fileURLToPath(new URL('../../../', import.meta.url));

export interface PackageJson {
  main: string;
  types: string;
  bin: Record<string, string>;
  browser: Record<string, string | false>;
  exports: Record<string, unknown>;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
}

export function packageJson(): PackageJson {
  return JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as PackageJson;
}

export interface Installed {
  /** a fresh consumer project: its node_modules holds the unpacked tarball as kustomize-ts */
  dir: string;
  /** the tarball's files, relative to the package */
  files: string[];
  /** deletes `dir` */
  remove(): void;
}

/**
 * The package as `npm pack` publishes it (from the dist that `npm test` has just built;
 * lifecycle scripts are skipped so this does not rebuild it), unpacked into
 * `<fresh dir>/node_modules/kustomize-ts`, with its dependencies linked from this checkout's
 * node_modules.
 */
export function installPacked(): Installed {
  const dir = mkdtempSync(join(tmpdir(), 'kustomize-ts-consumer-'));
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
    cwd: REPO,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [packed] = JSON.parse(out) as [{ filename: string; files: { path: string }[] }];
  const pkgDir = join(dir, 'node_modules', 'kustomize-ts');
  mkdirSync(pkgDir, { recursive: true });
  execFileSync('tar', ['-xzf', join(dir, packed.filename), '-C', pkgDir, '--strip-components=1']);
  for (const dep of Object.keys(packageJson().dependencies)) {
    symlinkSync(join(REPO, 'node_modules', dep), join(dir, 'node_modules', dep));
  }
  return { dir, files: packed.files.map((f) => f.path), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
