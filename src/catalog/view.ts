import { emitYaml } from '../yaml/emit.js';
import type { Value } from '../yaml/value.js';
import type { CatalogFunction, FunctionRuntime, FunctionVersion } from './catalog.js';
import type { LoadedCatalog } from './catalog-store.js';

/** How `catalog view` prints: for people, or the catalog as read (runtimes applied to each version) for machines. */
export type CatalogViewFormat = 'text' | 'yaml' | 'json';

/** A catalog printed for review before trusting it (the KEP's `view catalog`). */
export function viewCatalog(loaded: LoadedCatalog, format: CatalogViewFormat): string {
  if (format === 'json') return JSON.stringify(loaded.catalog, null, 2) + '\n';
  if (format === 'yaml') return emitYaml(loaded.catalog as unknown as Value);
  return describeCatalog(loaded);
}

function describeCatalog(loaded: LoadedCatalog): string {
  const { catalog, reference, digest } = loaded;
  const meta = catalog.metadata ?? {};
  const functions = catalog.spec.krmFunctions;
  const publishers = [...new Set(functions.map((f) => f.publisher).filter((p): p is string => !!p))];
  const lines = [
    `Catalog:    ${meta.name || '(no name)'}`,
    `Reference:  ${reference.raw}${digest ? ` (${digest})` : ''}`,
    `Labels:     ${Object.entries(meta.labels ?? {}).map(([k, v]) => `${k}=${v}`).join(', ') || '(none)'}`,
    `Publishers: ${publishers.join(', ') || '(none given)'}`,
    `Functions:  ${functions.length}`,
  ];
  for (const fn of functions) lines.push('', ...describeFunction(fn));
  return lines.join('\n') + '\n';
}

function describeFunction(fn: CatalogFunction): string[] {
  const lines = [`${fn.group ? `${fn.group}/` : ''}${fn.names.kind}`];
  const field = (name: string, value: string | undefined) => {
    if (value) lines.push(`  ${name}: ${value}`);
  };
  field('description', fn.description);
  field('publisher', fn.publisher);
  field('home', fn.home);
  field('maintainers', fn.maintainers?.join(', '));
  field('tags', fn.tags?.join(', '));
  lines.push(`  versions: ${fn.versions.map((v) => v.name).join(', ')}`);
  for (const v of fn.versions) lines.push(...describeVersion(v));
  return lines;
}

function describeVersion(v: FunctionVersion): string[] {
  const lines = [`  ${v.name}:`, ...describeRuntime(v.runtime).map((l) => `    ${l}`)];
  const field = (name: string, value: string | undefined) => {
    if (value) lines.push(`    ${name}: ${value}`);
  };
  field('idempotent', v.idempotent === undefined ? undefined : String(v.idempotent));
  field('license', v.license);
  field('usage', v.usage);
  field('examples', v.examples?.join(', '));
  field('maintainers', v.maintainers?.join(', '));
  if (v.schema?.openAPIV3Schema !== undefined) lines.push('    schema: openAPIV3Schema given');
  return lines;
}

function describeRuntime(runtime: FunctionRuntime): string[] {
  const lines: string[] = [];
  const c = runtime.container;
  if (c) {
    lines.push(`runtime: container ${c.image}${c.sha256 ? ` (sha256 ${c.sha256})` : ' (not pinned by digest)'}`);
    const needs = [c.requireNetwork && 'network (--network)', c.requireStorageMount && 'a storage mount (--mount)'].filter(Boolean);
    lines.push(`requires: ${needs.join(', ') || 'no network, no mounts'}`);
  }
  if (runtime.exec) {
    lines.push('runtime: exec (runs a program on this machine, outside any container)');
    for (const p of runtime.exec.platforms) lines.push(`  ${p.os}/${p.arch}: ${p.bin} from ${p.uri} (sha256 ${p.sha256})`);
  }
  if (runtime.starlark) lines.push(`runtime: starlark ${runtime.starlark}`);
  return lines;
}
