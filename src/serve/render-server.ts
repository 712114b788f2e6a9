import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildAll } from '../build/build-all.js';
import { BuildCache } from '../build/build-cache.js';
import type { BuildOptions } from '../build/build.js';
import { buildRoot, type RootError } from '../build/root-results.js';
import { KustomizeError } from '../errors.js';
import { ConfinedFileSystem } from '../fs/confined.js';
import { DiskFileSystem } from '../fs/disk.js';
import type { FileSystem } from '../fs/filesystem.js';
import { relative } from '../fs/path.js';
import type { GivenOptions } from '../options.js';
import { Admission } from './admission.js';
import { DEFAULT_LIMITS, type ServerLimits } from './limits.js';
import { ServerMetrics, type Route } from './metrics.js';
import { HttpError, outsideRoot, parseTargetRequest, readBody, targetDir } from './request.js';

export interface RenderServerOptions {
  /** the directory every request's path is under: nothing outside it is read */
  root: string;
  /** the build options every build starts from (a request may narrow them: see `parseTargetRequest`) */
  options?: GivenOptions;
  /** any not given take their defaults ({@link DEFAULT_LIMITS}) */
  limits?: Partial<ServerLimits>;
  /** where files are read from, under the confinement to `root` (default: the disk) */
  fs?: FileSystem;
}

/** The server's state: serving, or draining after a stop was asked for (new requests get 503). */
type State = 'serving' | 'draining';

/**
 * The render server: `POST /v1/build` and `/v1/build-all` over the tree at `root`, with one
 * `BuildCache` shared by every build (the only state builds share: each build has its own
 * context, so one's `openapi:` or `configurations:` never reaches another), bounded in builds
 * at once, waiting requests, time, body size and cache bytes.
 */
export class RenderServer {
  private readonly fs: ConfinedFileSystem;
  private readonly cache: BuildCache;
  private readonly admission: Admission;
  readonly metrics: ServerMetrics;
  private readonly http: Server;
  private readonly options: GivenOptions;
  private readonly timeoutMs: number;
  private readonly maxBody: number;
  private state: State = 'serving';
  /** requests being answered (queued or building), for the drain */
  private answering = 0;
  private drained: (() => void) | undefined;

  constructor(options: RenderServerOptions) {
    const limits: ServerLimits = { ...DEFAULT_LIMITS, ...definedOnly(options.limits ?? {}) };
    const inner = options.fs ?? new DiskFileSystem();
    let root: string;
    try {
      root = inner.realPath(options.root);
    } catch (e) {
      throw new KustomizeError('USAGE', `--root '${options.root}' does not exist`, { cause: e });
    }
    if (!inner.isDirectory(root)) throw new KustomizeError('USAGE', `--root '${options.root}' is not a directory`);
    this.fs = new ConfinedFileSystem(inner, root);
    this.options = { ...options.options };
    this.cache = new BuildCache({ bytes: positive(limits.cacheBytes, 'cache size') });
    this.admission = new Admission(whole(limits.maxConcurrency, 'max-concurrency', 1), whole(limits.queue, 'queue', 0));
    this.timeoutMs = positive(limits.timeoutSeconds, 'timeout') * 1000;
    this.maxBody = positive(limits.maxBodyBytes, 'max-body');
    this.metrics = new ServerMetrics({
      inFlight: () => this.admission.inFlight,
      queueDepth: () => this.admission.queueDepth,
      cache: () => ({ hits: this.cache.counts.answered, misses: this.cache.counts.built, bytes: this.cache.bytes }),
    });
    this.http = createServer((req, res) => void this.handle(req, res));
  }

  /** The root requests' paths are relative to: absolute, links resolved. */
  get root(): string {
    return this.fs.dir;
  }

  /** Starts listening; resolves to the address (port 0 takes a free one). */
  listen(port: number, host: string): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(port, host, () => {
        this.http.off('error', reject);
        resolve(this.http.address() as AddressInfo);
      });
    });
  }

  /**
   * Stops gracefully: requests being answered finish, requests that arrive meanwhile get 503
   * (and `/readyz` says not ready), then the server closes. Resolves once it has.
   */
  async drain(): Promise<void> {
    if (this.state === 'serving') {
      this.state = 'draining';
      if (this.answering > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    }
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeIdleConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const route = routeOf(req.method, url.split('?')[0]!);
    try {
      if (route === 'healthz') return this.send(res, route, 200, { status: 'ok' });
      if (route === 'readyz') return this.send(res, route, this.state === 'serving' ? 200 : 503, { status: this.state === 'serving' ? 'ready' : 'draining' });
      if (route === 'metrics') return this.sendText(res, route, 200, this.metrics.text(), 'text/plain; version=0.0.4; charset=utf-8');
      if (route === 'other') throw new HttpError(404, 'NOT_FOUND', `no route ${req.method} ${url}: the routes are POST /v1/build, POST /v1/build-all, GET /healthz, /readyz, /metrics`);
      if (req.method !== 'POST') throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${url} takes POST`);
      if (this.state === 'draining') throw new HttpError(503, 'UNAVAILABLE', 'the server is shutting down');
      this.answering++;
      try {
        await this.answerBuild(req, res, route);
      } finally {
        if (--this.answering === 0) this.drained?.();
      }
    } catch (e) {
      this.sendError(res, route, e);
    }
  }

  /** `/v1/build` and `/v1/build-all`: the request read and checked, a slot waited for, the build run under the deadline. */
  private async answerBuild(req: IncomingMessage, res: ServerResponse, route: 'build' | 'build-all'): Promise<void> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    const gone = new AbortController();
    // the client hung up: its build is stopped, and its slot freed
    res.once('close', () => res.writableFinished || gone.abort('the client closed the connection'));
    const signal = AbortSignal.any([deadline, gone.signal]);
    const request = parseTargetRequest(await readBody(req, this.maxBody), this.options);
    const dir = targetDir(this.fs, request.path, route === 'build' ? 'kustomization' : 'directory');
    const release = await this.admission.enter(signal);
    if (release === 'queue-full') throw new HttpError(503, 'UNAVAILABLE', 'too many requests waiting: the queue is full (--queue)');
    if (release === 'aborted') throw timedOut(deadline, this.timeoutMs);
    const started = performance.now();
    try {
      const options: BuildOptions = { ...request.options, fs: this.fs, cache: this.cache, signal };
      if (route === 'build') await this.build(res, dir, options, deadline);
      else await this.buildAll(res, dir, options, deadline);
    } finally {
      this.metrics.duration(route, (performance.now() - started) / 1000);
      release();
    }
  }

  private async build(res: ServerResponse, dir: string, options: BuildOptions, deadline: AbortSignal): Promise<void> {
    const { result } = await buildRoot(this.root, relative(this.root, dir) || '.', options);
    if (result.ok) return this.send(res, 'build', 200, { yaml: result.yaml, warnings: result.warnings, inputs: result.inputs, remote: result.remote, ms: result.ms });
    throw this.failed(result.error, deadline);
  }

  /** `build-all` under `dir`: its ndjson, a line a root as they finish in path order; an error after the first line ends the stream with an error line. */
  private async buildAll(res: ServerResponse, dir: string, options: BuildOptions, deadline: AbortSignal): Promise<void> {
    const results = buildAll(dir, { ...options, jobs: 1 });
    // an error before the first root (the roots could not be found) is the answer's status
    let next = await results.next().catch((e: unknown) => {
      throw this.thrown(e, deadline);
    });
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    this.metrics.request('build-all', 200);
    try {
      while (!next.done) {
        if (!res.write(`${JSON.stringify(next.value)}\n`)) await new Promise((resolve) => res.once('drain', resolve));
        next = await results.next();
      }
    } catch (e) {
      const error = this.thrown(e, deadline);
      res.write(`${JSON.stringify(errorBody(error))}\n`);
    }
    res.end();
  }

  /** What a build that failed answers: 504 past the deadline, 403 when it reached outside the root, else 422 (500 for an internal error). */
  private failed(error: RootError, deadline: AbortSignal): HttpError {
    if (error.code === 'ABORTED') return timedOut(deadline, this.timeoutMs);
    if (!error.remote && outsideRoot(this.fs, error.file)) return new HttpError(403, 'OUTSIDE_ROOT', `the build reaches outside the root: ${error.message}`, error.file);
    return new HttpError(error.code === 'INTERNAL' ? 500 : 422, error.code, error.message, error.file);
  }

  private thrown(e: unknown, deadline: AbortSignal): HttpError {
    if (e instanceof HttpError) return e;
    if (e instanceof KustomizeError) return this.failed({ code: e.code, message: e.message, ...(e.file !== undefined && { file: relative(this.root, e.file) }) }, deadline);
    return new HttpError(500, 'INTERNAL', String(e));
  }

  private sendError(res: ServerResponse, route: Route, e: unknown): void {
    const error = e instanceof HttpError ? e : new HttpError(500, 'INTERNAL', String(e));
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // a body left unread (too large) or a server stopping: the connection is not kept
    if (error.status === 413 || this.state === 'draining') res.setHeader('connection', 'close');
    this.send(res, route, error.status, errorBody(error));
  }

  private send(res: ServerResponse, route: Route, status: number, body: unknown): void {
    this.sendText(res, route, status, JSON.stringify(body), 'application/json');
  }

  private sendText(res: ServerResponse, route: Route, status: number, text: string, type: string): void {
    if (this.state === 'draining') res.setHeader('connection', 'close');
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
    res.end(text);
    this.metrics.request(route, status);
  }
}

function routeOf(method: string | undefined, path: string): Route {
  switch (path) {
    case '/v1/build':
      return 'build';
    case '/v1/build-all':
      return 'build-all';
    case '/healthz':
    case '/readyz':
    case '/metrics':
      return method === 'GET' || method === 'HEAD' ? (path.slice(1) as Route) : 'other';
    default:
      return 'other';
  }
}

function timedOut(deadline: AbortSignal, ms: number): HttpError {
  return deadline.aborted
    ? new HttpError(504, 'TIMEOUT', `the request took longer than the server's timeout of ${ms / 1000} s (--timeout); its build was stopped`)
    : new HttpError(499, 'CLIENT_CLOSED', 'the client closed the connection');
}

function errorBody(error: HttpError): { error: { code: string; message: string; file?: string } } {
  return { error: { code: error.code, message: error.message, ...(error.file !== undefined && { file: error.file }) } };
}

function positive(n: number, name: string): number {
  if (!(n > 0) || !Number.isFinite(n)) throw new KustomizeError('USAGE', `${name} must be a number greater than 0, not ${n}`);
  return n;
}

function whole(n: number, name: string, least: number): number {
  if (!Number.isInteger(n) || n < least) throw new KustomizeError('USAGE', `${name} must be a whole number of at least ${least}, not ${n}`);
  return n;
}

/** The limits given, those left undefined dropped (they take their defaults). */
function definedOnly(limits: Partial<ServerLimits>): Partial<ServerLimits> {
  return Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined));
}
