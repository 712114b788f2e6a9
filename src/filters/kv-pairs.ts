import { KustomizeError, withErrorPrefix } from '../errors.js';
import type { GeneratorArgs } from '../kinds/kustomization.js';
import type { Loader } from '../load/loader.js';
import { utf8DecodeStrict } from '../encoding/base64.js';

/** A key and its value: text, or bytes when a file is not valid UTF-8 (ConfigMaps put those in binaryData). */
interface KvPair {
  key: string;
  value: string | Uint8Array;
}

/**
 * The key/value pairs of a ConfigMap or Secret generator, in kustomize's order: env files,
 * then literals, then files. Keys must be unique; like kustomize, their characters are not checked.
 */
export function loadKvPairs(loader: Loader, args: GeneratorArgs, kind: string): KvPair[] {
  const pairs: KvPair[] = [];
  const envs = args.envs ?? [];
  const literals = args.literals ?? [];
  const files = args.files ?? [];
  // kustomize's prefixes, colons as it writes them
  withErrorPrefix(`loading KV pairs: env source files: [${envs.join(' ')}]`, () => {
    for (const env of envs) pairs.push(...envFilePairs(loader.load(env), env));
  });
  withErrorPrefix(`loading KV pairs: literal sources [${literals.join(' ')}]`, () => {
    for (const lit of literals) pairs.push(literalPair(lit));
  });
  withErrorPrefix(`loading KV pairs: file sources: [${files.join(' ')}]`, () => {
    for (const src of files) {
      const [key, path] = parseFileSource(src);
      const bytes = loader.load(path);
      pairs.push({ key, value: utf8DecodeStrict(bytes) ?? bytes });
    }
  });
  const seen = new Set<string>();
  for (const p of pairs) {
    if (seen.has(p.key)) {
      throw new KustomizeError('GENERATOR_FAILED', `${kind.toLowerCase()} ${args.name ?? ''} illegally repeats the key \`${p.key}\``);
    }
    seen.add(p.key);
  }
  return pairs;
}

/** `KEY=value`; surrounding quotes of the value dropped when they match. */
function literalPair(source: string): KvPair {
  const eq = source.indexOf('=');
  if (eq <= 0) throw new KustomizeError('GENERATOR_FAILED', `invalid literal source ${source}, expected key=value`);
  return { key: source.slice(0, eq), value: removeQuotes(source.slice(eq + 1)) };
}

function removeQuotes(s: string): string {
  if (s.length >= 2 && s[0] === s[s.length - 1] && (s[0] === '"' || s[0] === "'")) return s.slice(1, -1);
  return s;
}

/** `path` (key = base name) or `key=path`. */
export function parseFileSource(source: string): [string, string] {
  const parts = source.split('=');
  if (parts.length === 1) return [source.slice(source.lastIndexOf('/') + 1), source];
  if (parts.length > 2) throw new KustomizeError('GENERATOR_FAILED', `source "${source}" key name or file path contains '='`);
  const [key, path] = parts as [string, string];
  if (key === '') throw new KustomizeError('GENERATOR_FAILED', `missing key name for file path "${path}" in source "${source}"`);
  if (path === '') throw new KustomizeError('GENERATOR_FAILED', `missing file path for key name "${key}" in source "${source}"`);
  return [key, path];
}

/** An env file: `KEY=value` lines; blank lines and `#` comments skipped; a BOM on the first line dropped. */
function envFilePairs(bytes: Uint8Array, file: string): KvPair[] {
  const text = utf8DecodeStrict(bytes);
  if (text === undefined) throw new KustomizeError('GENERATOR_FAILED', `env source file ${file} has invalid utf8 bytes`, { file });
  const pairs: KvPair[] = [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((raw, i) => {
    let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (i === 0 && line.startsWith('\uFEFF')) line = line.slice(1);
    line = line.replace(/^\s+/, '');
    if (line === '' || line.startsWith('#')) return;
    const eq = line.indexOf('=');
    const key = eq < 0 ? line : line.slice(0, eq);
    pairs.push({ key, value: eq < 0 ? '' : line.slice(eq + 1) });
  });
  return pairs;
}
