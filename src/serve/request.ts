import type { IncomingMessage } from 'node:http';
import type { ConfinedFileSystem } from '../fs/confined.js';
import { normalize, relative } from '../fs/path.js';
import { kustomizationFilesIn } from '../load/entry.js';
import { loadRestriction, type GivenOptions, type ReorderOption } from '../options.js';

/** An answer other than 200, with what the error body says. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly file?: string,
  ) {
    super(message);
  }
}

/** The body of a request, refused (413) past `maxBytes` whether or not it said its length. */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const tooLarge = (): HttpError => new HttpError(413, 'BODY_TOO_LARGE', `the request body is over the server's limit of ${maxBytes} bytes (--max-body)`);
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (e) {
    // the connection broke before the body was whole: no one is left to answer
    throw e instanceof HttpError ? e : new HttpError(499, 'CLIENT_CLOSED', `the client closed the connection: ${(e as Error).message}`);
  }
  return Buffer.concat(chunks);
}

/** A request for a build, checked: the directory, relative to the root, and its options. */
interface TargetRequest {
  /** as given, for messages */
  path: string;
  options: GivenOptions;
}

/**
 * What a request may set for its own build, and how each is checked. Whatever may run a
 * program, read more or reach the network can only be turned off: a request never enables
 * more than the server was started with.
 */
const REQUEST_OPTIONS: Readonly<Record<string, (value: unknown, server: GivenOptions) => unknown>> = {
  reorder: (v) => oneOf<ReorderOption>(v, ['legacy', 'none', 'unspecified']),
  addManagedByLabel: (v) => boolean(v),
  helmApiVersions: (v) => strings(v),
  helmKubeVersion: (v) => text(v),
  loadRestrictor: (v, server) => {
    const asked = loadRestriction(v, 'option loadRestrictor');
    return asked === 'none' && loadRestriction(server.loadRestrictor ?? 'rootOnly', 'loadRestrictor') !== 'none' ? refused('loadRestrictor') : asked;
  },
  enableHelm: (v, server) => narrowing('enableHelm', v, server.enableHelm),
  enablePlugins: (v, server) => narrowing('enablePlugins', v, server.enablePlugins),
  enableExec: (v, server) => narrowing('enableExec', v, server.enableExec),
  enableStar: (v, server) => narrowing('enableStar', v, server.enableStar),
  network: (v, server) => narrowing('network', v, server.network),
};

/** Reads a `/v1/build` or `/v1/build-all` body: `{"path": "...", "options": {...}}`. */
export function parseTargetRequest(body: Buffer, server: GivenOptions): TargetRequest {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw new HttpError(400, 'BAD_REQUEST', `the body is not JSON: ${(e as Error).message}`);
  }
  if (!isObject(json)) throw new HttpError(400, 'BAD_REQUEST', 'the body must be a JSON object: {"path": "<directory under the root>"}');
  const unknown = Object.keys(json).filter((k) => k !== 'path' && k !== 'options');
  if (unknown.length > 0) throw new HttpError(400, 'BAD_REQUEST', `unknown field '${unknown[0]}': a request has 'path' and 'options'`);
  if (typeof json['path'] !== 'string') throw new HttpError(400, 'BAD_REQUEST', "'path' must be a string: a directory relative to the root");
  const given = json['options'] ?? {};
  if (!isObject(given)) throw new HttpError(400, 'BAD_REQUEST', "'options' must be a JSON object");
  const options: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(given)) {
    const check = Object.hasOwn(REQUEST_OPTIONS, name) ? REQUEST_OPTIONS[name]! : undefined;
    if (!check) throw new HttpError(400, 'BAD_REQUEST', `option '${name}' cannot be set by a request; those that can: ${Object.keys(REQUEST_OPTIONS).join(', ')}`);
    try {
      options[name] = check(value, server);
    } catch (e) {
      throw e instanceof HttpError ? e : new HttpError(400, 'BAD_REQUEST', `option '${name}': ${(e as Error).message}`);
    }
  }
  return { path: json['path'], options: { ...server, ...options } };
}

/**
 * The directory a request names, absolute, once it is known to be inside the root, links
 * followed (403 otherwise) and to hold a kustomization (404 otherwise). The path is relative
 * to the root and may be percent-encoded, as a path taken from a URL is: `%2e%2e` is `..`.
 */
export function targetDir(fs: ConfinedFileSystem, path: string, what: 'kustomization' | 'directory'): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    throw new HttpError(400, 'BAD_REQUEST', `path '${path}' has a malformed percent-encoding`);
  }
  if (decoded.includes('\0')) throw new HttpError(400, 'BAD_REQUEST', 'path holds a NUL character');
  if (decoded.startsWith('/') || /^[A-Za-z]:[\\/]/.test(decoded)) throw new HttpError(403, 'OUTSIDE_ROOT', `path '${path}' is absolute: paths are relative to the root`);
  const abs = normalize(`${fs.dir}/${decoded}`);
  if (!fs.holds(abs)) throw new HttpError(403, 'OUTSIDE_ROOT', `path '${path}' leads outside the root`);
  if (!fs.isDirectory(abs)) throw new HttpError(404, 'NOT_FOUND', `path '${path}' is not a directory under the root`);
  if (what === 'kustomization' && kustomizationFilesIn(fs, abs).length === 0) {
    throw new HttpError(404, 'KUSTOMIZATION_NOT_FOUND', `no kustomization file in '${path}' (kustomization.yaml, kustomization.yml or Kustomization)`, relative(fs.dir, abs) || '.');
  }
  return abs;
}

/** Whether an error's file, relative to the root, is a path outside it: a build that failed there reached outside. */
export function outsideRoot(fs: ConfinedFileSystem, file: string | undefined): boolean {
  if (file === undefined || /^[a-z][a-z0-9+.-]*:\/\//i.test(file)) return false;
  return !fs.holds(normalize(file.startsWith('/') ? file : `${fs.dir}/${file}`));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function oneOf<T extends string>(v: unknown, values: readonly T[]): T {
  if (typeof v !== 'string' || !values.includes(v as T)) throw new Error(`expected one of ${values.join(', ')}`);
  return v as T;
}

function boolean(v: unknown): boolean {
  if (typeof v !== 'boolean') throw new Error('expected true or false');
  return v;
}

function text(v: unknown): string {
  if (typeof v !== 'string') throw new Error('expected a string');
  return v;
}

function strings(v: unknown): string[] {
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw new Error('expected a list of strings');
  return v;
}

/** A switch a request may turn off, or leave as the server has it, but not turn on. */
function narrowing(name: string, v: unknown, server: boolean | undefined): boolean {
  const asked = boolean(v);
  return asked && !server ? refused(name) : asked;
}

function refused(name: string): never {
  throw new HttpError(403, 'OPTION_REFUSED', `option '${name}' asks for more than the server allows: it was not started with it`);
}
