import { KustomizeError } from '../errors.js';
import { concatBytes } from './registry-session.js';

/** A file of a tree archive. Directories are implied by the paths; symlinks are resolved on reading. */
export interface TreeFile {
  /** relative, `/`-separated, normalised */
  path: string;
  bytes: Uint8Array;
  /** whether any execute bit is set */
  executable?: boolean;
}

/** Bounds on an archive's unpacked content. */
export interface ArchiveLimits {
  /** total bytes after decompression; default 256 MiB */
  maxBytes?: number;
  /** number of entries; default 100000 */
  maxEntries?: number;
}

type RawEntry = { path: string; type: 'file' | 'dir' | 'symlink'; bytes: Uint8Array; mode: number; linkTarget: string };

/**
 * The files of a `.tar.gz` (or plain `.tar`) archive, checked: no absolute paths and no `..`
 * that leaves the tree, no hard links, devices or FIFOs, symlinks only to files inside the
 * archive (they become copies of their targets), and the size bounds. `what` names the archive
 * in errors.
 */
export async function readTreeArchive(bytes: Uint8Array, what: string, limits: ArchiveLimits = {}): Promise<TreeFile[]> {
  const maxBytes = limits.maxBytes ?? 256 * 1024 * 1024;
  const tar = bytes[0] === 0x1f && bytes[1] === 0x8b ? await gunzip(bytes, maxBytes, what) : bytes;
  const entries = parseTar(tar, what, limits.maxEntries ?? 100000);
  const files = new Map<string, RawEntry>();
  for (const e of entries) if (e.type === 'file') files.set(e.path, e);
  const out: TreeFile[] = [];
  for (const e of entries) {
    if (e.type === 'dir') continue;
    const target = e.type === 'symlink' ? files.get(symlinkTarget(e, what)) : e;
    if (!target) throw invalid(what, `symlink '${e.path}' -> '${e.linkTarget}' does not name a file inside the archive`);
    out.push({ path: e.path, bytes: target.bytes, ...((target.mode & 0o111) !== 0 && { executable: true }) });
  }
  return out;
}

/** A deterministic `.tar.gz` of the files (sorted, zero times and owners), as `flux push artifact` makes. */
export async function writeTreeArchive(files: TreeFile[]): Promise<Uint8Array> {
  const blocks: Uint8Array[] = [];
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    blocks.push(tarHeader(f.path, f.bytes.byteLength, f.executable ? 0o755 : 0o644), f.bytes, new Uint8Array((512 - (f.bytes.byteLength % 512)) % 512));
  }
  blocks.push(new Uint8Array(1024));
  return pipeThrough(concatBytes(blocks), new CompressionStream('gzip'), Infinity, 'archive');
}

function invalid(what: string, why: string): KustomizeError {
  return new KustomizeError('REMOTE_FAILED', `${what}: unsafe or invalid archive: ${why}`, { remote: what });
}

async function gunzip(bytes: Uint8Array, max: number, what: string): Promise<Uint8Array> {
  try {
    return await pipeThrough(bytes, new DecompressionStream('gzip'), max, what);
  } catch (e) {
    if (e instanceof KustomizeError) throw e;
    throw invalid(what, `gzip: ${(e as Error).message}`);
  }
}

async function pipeThrough(bytes: Uint8Array, stream: GenericTransformStream, max: number, what: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const readable = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream as unknown as TransformStream<Uint8Array, Uint8Array>);
  for await (const chunk of readable as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > max) throw invalid(what, `more than ${max} bytes unpacked`);
    chunks.push(chunk);
  }
  return concatBytes(chunks, total);
}

function parseTar(tar: Uint8Array, what: string, maxEntries: number): RawEntry[] {
  const entries: RawEntry[] = [];
  const seen = new Set<string>();
  let longName: string | undefined;
  let paxPath: string | undefined;
  let paxLink: string | undefined;
  if (tar.byteLength < 1024 || tar.byteLength % 512 !== 0) throw invalid(what, 'not a tar archive (its length is not a whole number of 512-byte blocks)');
  for (let at = 0; at + 512 <= tar.byteLength; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    if (!checksumOk(header)) throw invalid(what, `bad tar header checksum at offset ${at}`);
    const size = octal(header.subarray(124, 136));
    const type = String.fromCharCode(header[156] || 0x30);
    const body = tar.subarray(at + 512, at + 512 + size);
    if (body.byteLength !== size) throw invalid(what, 'truncated tar');
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = cString(body);
      continue;
    }
    if (type === 'x') {
      const pax = paxRecords(body);
      paxPath = pax.get('path');
      paxLink = pax.get('linkpath');
      continue;
    }
    if (type === 'g') continue;
    const prefix = cString(header.subarray(345, 500));
    const name = paxPath ?? longName ?? (prefix ? `${prefix}/${cString(header.subarray(0, 100))}` : cString(header.subarray(0, 100)));
    const linkTarget = paxLink ?? cString(header.subarray(157, 257));
    longName = paxPath = paxLink = undefined;
    const path = safePath(name, what);
    if (type !== '0' && type !== '\0' && type !== '7' && type !== '5' && type !== '2') {
      throw invalid(what, `'${name}' is a ${type === '1' ? 'hard link' : `special file (type ${type})`}`);
    }
    if (path === '') continue;
    if (entries.length >= maxEntries) throw invalid(what, `more than ${maxEntries} entries`);
    const kind = type === '5' ? 'dir' : type === '2' ? 'symlink' : 'file';
    if (kind !== 'dir' && seen.has(path)) throw invalid(what, `'${path}' appears twice`);
    seen.add(path);
    entries.push({ path, type: kind, bytes: body, mode: octal(header.subarray(100, 108)), linkTarget });
  }
  return entries;
}

/** A relative path with `.` removed, refusing absolute paths, `..` and odd characters. */
function safePath(name: string, what: string): string {
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) throw invalid(what, `absolute path '${name}'`);
  if (/[\x00-\x1f\\]/.test(name)) throw invalid(what, `path '${JSON.stringify(name)}' has control characters or backslashes`);
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw invalid(what, `path '${name}' contains '..'`);
  return parts.join('/');
}

function symlinkTarget(e: RawEntry, what: string): string {
  if (e.linkTarget.startsWith('/')) throw invalid(what, `symlink '${e.path}' -> '${e.linkTarget}' is absolute`);
  const parts = e.path.split('/').slice(0, -1);
  for (const p of e.linkTarget.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') {
      if (parts.length === 0) throw invalid(what, `symlink '${e.path}' -> '${e.linkTarget}' leaves the tree`);
      parts.pop();
    } else parts.push(p);
  }
  return parts.join('/');
}

function tarHeader(path: string, size: number, mode: number): Uint8Array {
  const h = new Uint8Array(512);
  const enc = new TextEncoder();
  const put = (text: string, at: number, len: number) => h.set(enc.encode(text).subarray(0, len), at);
  let name = path;
  let prefix = '';
  if (enc.encode(path).byteLength > 100) {
    const cut = path.lastIndexOf('/', 155);
    if (cut <= 0 || enc.encode(path.slice(cut + 1)).byteLength > 100) throw new KustomizeError('REMOTE_INVALID', `path too long for a tar archive: ${path}`);
    prefix = path.slice(0, cut);
    name = path.slice(cut + 1);
  }
  put(name, 0, 100);
  put(mode.toString(8).padStart(7, '0'), 100, 8);
  put('0000000', 108, 8);
  put('0000000', 116, 8);
  put(size.toString(8).padStart(11, '0'), 124, 12);
  put('00000000000', 136, 12);
  put('0', 156, 1);
  put('ustar\x0000', 257, 8);
  put(prefix, 345, 155);
  h.fill(0x20, 148, 156);
  const sum = h.reduce((n, b) => n + b, 0);
  put(`${sum.toString(8).padStart(6, '0')}\x00 `, 148, 8);
  return h;
}

function checksumOk(header: Uint8Array): boolean {
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return sum === octal(header.subarray(148, 156));
}

function octal(field: Uint8Array): number {
  const text = cString(field).trim();
  return text === '' ? 0 : parseInt(text, 8);
}

function cString(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end < 0 ? bytes : bytes.subarray(0, end));
}

function paxRecords(body: Uint8Array): Map<string, string> {
  const records = new Map<string, string>();
  const text = new TextDecoder().decode(body);
  for (const line of text.split('\n')) {
    const m = /^\d+ ([^=]+)=(.*)$/s.exec(line);
    if (m) records.set(m[1]!, m[2]!);
  }
  return records;
}
