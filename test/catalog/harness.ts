import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CatalogStore } from '../../src/catalog/catalog-store.js';
import { CatalogResolver, type StarlarkRunner } from '../../src/catalog/resolver.js';
import { DiskFileSystem } from '../../src/fs/disk.js';
import { Loader } from '../../src/load/loader.js';
import { NodeRemoteSource } from '../../src/load/remote/node-remote.js';
import { resourcesFromText } from '../../src/model/resource-factory.js';
import { ResourceMap } from '../../src/model/resource-map.js';
import { OpenApiSchemaSetting } from '../../src/openapi/schema.js';
import { resolveOptions, type ResolvedOptions } from '../../src/options.js';
import type { PluginContext } from '../../src/plugins/plugin.js';
import { parseYamlDocuments } from '../../src/yaml/parse.js';
import { kustomizeProfile } from '../../src/versions/profiles.js';

/** Writes files under a fresh temp directory (executable when the text starts with `#!`) and returns it. */
export function tree(files: Record<string, string | Uint8Array>): string {
  const root = mkdtempSync(join(tmpdir(), 'kts-catalog-'));
  for (const [path, content] of Object.entries(files)) {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content, { mode: typeof content === 'string' && content.startsWith('#!') ? 0o755 : 0o644 });
  }
  return root;
}

export const sha256 = (bytes: string | Uint8Array) => createHash('sha256').update(bytes).digest('hex');
export const fileSha256 = (path: string) => sha256(readFileSync(path));

/** A `.tar.gz` of `files` (relative to `dir`), made with the system's tar. */
export function tarGz(dir: string, archive: string, files: string[]): string {
  execFileSync('tar', ['-czf', archive, '-C', dir, ...files]);
  return archive;
}

/**
 * A KRM exec function as a shell script: touches `marker` (so a test can tell whether it ran)
 * and prefixes every item's name with `prefix`.
 */
export function renamerScript(marker: string, prefix: string): string {
  return `#!/bin/sh\ntouch '${marker}'\nsed 's/^    name: /    name: ${prefix}/'\n`;
}

export const CONFIG = 'apiVersion: example.com/v1\nkind: Renamer\nmetadata:\n  name: renamer\n';

/** One catalog function entry (YAML list item under `krmFunctions:`), indented for the catalog below. */
export function catalogYaml(name: string, functions: string): string {
  return `apiVersion: config.kubernetes.io/v1alpha1
kind: Catalog
metadata:
  name: ${name}
  labels:
    author: example
spec:
  krmFunctions:
${functions}`;
}

/** A `krmFunctions` entry for example.com/v1 Renamer with the given runtime (YAML, indented 6). */
export function renamerFunction(runtime: string, kind = 'Renamer'): string {
  return `  - group: example.com
    names:
      kind: ${kind}
    description: prefixes names
    publisher: example.com
    versions:
    - name: v1
      runtime:
${runtime}`;
}

/** An exec runtime for this host (linux/amd64 on the CI) with one platform. */
export function execRuntime(p: { bin: string; uri: string; sha256: string; os?: string; arch?: string }): string {
  return `        exec:
          platforms:
          - bin: ${p.bin}
            os: ${p.os ?? hostOs()}
            arch: ${p.arch ?? hostArch()}
            uri: ${p.uri}
            sha256: ${p.sha256}
`;
}

export const hostOs = () => (process.platform === 'win32' ? 'windows' : process.platform);
export const hostArch = () => (process.arch === 'x64' ? 'amd64' : process.arch);

/** Everything one resolver test needs: a store over the real remote source, a loader at `dir`. */
export function setup(dir: string, options: Partial<ResolvedOptions> = {}, runStarlark?: StarlarkRunner) {
  const remote = new NodeRemoteSource();
  const store = new CatalogStore({ remote: async () => remote });
  const loader = Loader.atRoot(new DiskFileSystem(), dir, options.loadRestrictor ?? 'rootOnly');
  const warnings: string[] = [];
  const resolved = resolveOptions(options);
  const ctx: PluginContext = { loader, options: resolved, profile: kustomizeProfile(resolved.kustomizeVersion, 'kustomizeVersion'), openapi: new OpenApiSchemaSetting(), customResources: { crdMerge: false, schemaOf: () => undefined, listReplaced: () => {} }, signal: new AbortController().signal, warn: (m) => warnings.push(m), documents: parseYamlDocuments };
  const resolver = (references: string[]) => new CatalogResolver(references.map((reference) => ({ reference, loader })), store, runStarlark);
  return { store, loader, ctx, resolver, warnings, cleanup: () => remote.cleanup() };
}

/** Resolves `configText` through `resolver` and runs it as a transformer over one ConfigMap `cm`; the resulting names. */
export async function runOnConfigMap(resolver: CatalogResolver, ctx: PluginContext, configText = CONFIG): Promise<string[] | undefined> {
  const config = resourcesFromText(configText, 'fn.yaml')[0]!;
  const plugin = await resolver.resolve(config, 'fn.yaml', ctx);
  if (!plugin) return undefined;
  const resources = new ResourceMap(resourcesFromText('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  k: v\n', 'cm.yaml'));
  await plugin.transform!(resources, ctx);
  return resources.resources().map((r) => r.name);
}
