import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { buildAll } from '../build/build-all.js';
import { BuildCache } from '../build/build-cache.js';
import type { BuildOptions } from '../build/build.js';
import { buildRoot, type RootError } from '../build/root-results.js';
import { KustomizeError } from '../errors.js';
import { ConfinedFileSystem } from '../fs/confined.js';
import { DiskFileSystem } from '../fs/disk.js';
import type { FileSystem } from '../fs/filesystem.js';
import { relative } from '../fs/path.js';
import { SizedLru } from '../memo/sized-lru.js';
import type { GivenOptions } from '../options.js';
import { Admission } from './admission.js';
import { DEFAULT_LIMITS, type ServerLimits } from './limits.js';
import { ServerMetrics, type Route } from './metrics.js';
import { HttpError, outsideRoot, parseTargetRequest, readBody, targetDir } from './request.js';

export interface RenderServerOptions {
  /** the directory every request's path is under: nothing outside it is read */
  root: string;
  /** the build options every build starts from (a request may narrow them: see `parseTargetRequest`); `reorder` is the CLI's `unspecified` unless given */
  options?: GivenOptions;
  /** any not given take their defaults ({@link DEFAULT_LIMITS}) */
  limits?: Partial<ServerLimits>;
  /** where files are read from, under the confinement to `root` (default: the disk) */
  fs?: FileSystem;
}

/** One request being answered: where its answer goes, what it reads, and when it must be done. */
interface Exchange {
  res: ServerResponse;
  fs: ConfinedFileSystem;
  /** whether the request's time ran out (what stopped it, when something did) */
  deadline: { passed: boolean };
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
  /** `--root`, absolute, as given: its links are followed again for each request */
  readonly root: string;
  private readonly disk: FileSystem;
  private readonly cache: BuildCache;
  /** the YAML of recent answers, JSON-encoded, by its text: an answer from the cache is the same text, whose encoding need not be made again */
  private readonly encoded: SizedLru<string, Buffer>;
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
  /** connections accepted and requests read so far: the drain waits until they stop coming */
  private arrivals = 0;

  constructor(options: RenderServerOptions) {
    const limits: ServerLimits = { ...DEFAULT_LIMITS, ...definedOnly(options.limits ?? {}) };
    this.disk = options.fs ?? new DiskFileSystem();
    this.root = options.root;
    if (!this.disk.isDirectory(this.root)) throw new KustomizeError('USAGE', `--root '${options.root}' ${this.disk.exists(this.root) ? 'is not a directory' : 'does not exist'}`);
    // as the CLI builds: legacy order unless the kustomization sorts, as `kustomize build` prints
    this.options = { reorder: 'unspecified', ...options.options };
    const cacheBytes = positive(limits.cacheBytes, 'cache size');
    // an eighth of the bytes for the encoded answers (their texts are the cache's outputs), the rest for the builds
    this.cache = new BuildCache({ bytes: (cacheBytes * 7) / 8 });
    this.encoded = new SizedLru(cacheBytes / 8, (_, json) => json.length);
    this.admission = new Admission(whole(limits.maxConcurrency, 'max-concurrency', 1), whole(limits.queue, 'queue', 0));
    this.timeoutMs = positive(limits.timeoutSeconds, 'timeout') * 1000;
    this.maxBody = positive(limits.maxBodyBytes, 'max-body');
    this.metrics = new ServerMetrics({
      inFlight: () => this.admission.inFlight,
      queueDepth: () => this.admission.queueDepth,
      cache: () => ({ hits: this.cache.counts.answered, misses: this.cache.counts.built, bytes: this.cache.bytes + this.encoded.size }),
    });
    // a client that sends its request slowly is cut off (408) within the time a build gets (checked a few times in it)
    const checkEvery = Math.min(30_000, Math.max(100, this.timeoutMs / 4));
    this.http = createServer({ connectionsCheckingInterval: checkEvery }, (req, res) => void this.handle(req, res));
    this.http.on('connection', () => this.arrivals++);
    this.http.requestTimeout = this.timeoutMs;
    this.http.headersTimeout = Math.min(this.http.headersTimeout, this.timeoutMs);
  }

  /**
   * What one request reads: the root as it is now, links followed (a root that is a link
   * swapped to a new checkout, as git-sync does, serves the new one from the next request on).
   */
  private view(): ConfinedFileSystem {
    let dir: string;
    try {
      dir = this.disk.realPath(this.root);
    } catch {
      throw new HttpError(503, 'UNAVAILABLE', `the root '${this.root}' is gone`);
    }
    return new ConfinedFileSystem(this.disk, dir);
  }

  /** Starts listening; resolves to the address (port 0 takes a free one). */
  listen(port: number, host: string): Promise<{ address: string; family: string; port: number }> {
    return new Promise((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(port, host, () => {
        this.http.off('error', reject);
        const { address, family, port: bound } = this.http.address() as { address: string; family: string; port: number };
        resolve({ address, family, port: bound });
      });
    });
  }

  /**
   * Stops gracefully: requests being answered finish, requests that arrive meanwhile get 503
   * (and `/readyz` says not ready), then the server closes. Resolves once it has. Requests sent
   * while a build held the event loop wait unread (connections in the listen backlog, requests
   * on kept-alive connections): the server reads and answers them before it stops listening and
   * closes its idle connections, which would reset them.
   */
  async drain(): Promise<void> {
    this.state = 'draining';
    do {
      if (this.answering > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      await this.untilNothingArrives();
    } while (this.answering > 0);
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeIdleConnections();
    });
  }

  /** Lets the event loop turn until no connection is accepted and no request read for a few turns: what was waiting unread has been. */
  private async untilNothingArrives(): Promise<void> {
    let seen;
    do {
      seen = this.arrivals;
      // one turn accepts the connections waiting, the next reads what they sent, the next parses it
      for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    } while (seen !== this.arrivals);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const route = routeOf(req.method, url.split('?')[0]!);
    this.arrivals++;
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
    // one controller, aborted by the deadline or by the client hanging up: the build stops, its slot is freed
    const stop = new AbortController();
    const deadline = { passed: false };
    const timer = setTimeout(() => {
      deadline.passed = true;
      stop.abort(`the server's timeout of ${this.timeoutMs / 1000} s passed`);
    }, this.timeoutMs);
    const hangUp = (): void => {
      if (!res.writableFinished) stop.abort('the client closed the connection');
    };
    res.once('close', hangUp);
    try {
      const request = parseTargetRequest(await readBody(req, this.maxBody), this.options);
      const fs = this.view();
      const dir = targetDir(fs, request.path, route === 'build' ? 'kustomization' : 'directory');
      const exchange: Exchange = { res, fs, deadline };
      const release = await this.admission.enter(stop.signal);
      if (release === 'queue-full') throw new HttpError(503, 'UNAVAILABLE', 'too many requests waiting: the queue is full (--queue)');
      if (release === 'aborted') throw this.stopped(exchange);
      const started = performance.now();
      try {
        const options: BuildOptions = { ...request.options, fs, cache: this.cache, signal: stop.signal };
        if (route === 'build') await this.build(exchange, dir, options);
        else await this.buildAll(exchange, dir, options);
      } finally {
        this.metrics.duration(route, (performance.now() - started) / 1000);
        release();
      }
    } finally {
      clearTimeout(timer);
      res.off('close', hangUp);
    }
  }

  private async build(exchange: Exchange, dir: string, options: BuildOptions): Promise<void> {
    const top = exchange.fs.dir;
    // an abort is thrown rather than reported (as build-all stops at one)
    const { result } = await buildRoot(top, relative(top, dir) || '.', options).catch((e: unknown) => {
      throw this.thrown(e, exchange);
    });
    if (!result.ok) throw this.failed(result.error, exchange);
    // the body, `yaml` first: its JSON is what a large output costs, and an answer from the cache has it already
    const rest = Buffer.from(JSON.stringify({ warnings: result.warnings, inputs: result.inputs, remote: result.remote, ms: result.ms }).slice(1));
    this.sendParts(exchange.res, 'build', [YAML_KEY, this.encodedYaml(result.yaml), COMMA, rest]);
  }

  /** A build's YAML as a JSON string, remembered by the text it encodes. */
  private encodedYaml(yaml: string): Buffer {
    let encoded = this.encoded.get(yaml);
    if (!encoded) this.encoded.set(yaml, (encoded = Buffer.from(JSON.stringify(yaml))));
    return encoded;
  }

  /** `build-all` under `dir`: its ndjson, a line a root as they finish in path order; an error after the first line ends the stream with an error line. */
  private async buildAll(exchange: Exchange, dir: string, options: BuildOptions): Promise<void> {
    const { res } = exchange;
    const results = buildAll(dir, { ...options, jobs: 1 });
    // an error before the first root (the roots could not be found) is the answer's status
    let next = await results.next().catch((e: unknown) => {
      throw this.thrown(e, exchange);
    });
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    this.metrics.request('build-all', 200);
    try {
      while (!next.done) {
        if (!res.write(`${JSON.stringify(next.value)}\n`)) await new Promise((resolve) => res.once('drain', resolve));
        next = await results.next();
      }
    } catch (e) {
      const error = this.thrown(e, exchange);
      res.write(`${JSON.stringify(errorBody(error))}\n`);
    }
    res.end();
  }

  /** What a build that failed answers: 504 past the deadline, 403 when it reached outside the root, else 422 (500 for an internal error). */
  private failed(error: RootError, exchange: Exchange): HttpError {
    if (error.code === 'ABORTED') return this.stopped(exchange);
    if (!error.remote && outsideRoot(exchange.fs, error.file)) return new HttpError(403, 'OUTSIDE_ROOT', `the build reaches outside the root: ${error.message}`, error.file);
    return new HttpError(error.code === 'INTERNAL' ? 500 : 422, error.code, error.message, error.file);
  }

  /** What a request stopped before its answer gets: 504 when its time ran out; else its client is gone, and the status is only counted. */
  private stopped(exchange: Exchange): HttpError {
    return exchange.deadline.passed
      ? new HttpError(504, 'TIMEOUT', `the request took longer than the server's timeout of ${this.timeoutMs / 1000} s (--timeout); its build was stopped`)
      : new HttpError(499, 'CLIENT_CLOSED', 'the client closed the connection');
  }

  private thrown(e: unknown, exchange: Exchange): HttpError {
    if (e instanceof HttpError) return e;
    if (e instanceof KustomizeError) return this.failed({ code: e.code, message: e.message, ...(e.file !== undefined && { file: relative(exchange.fs.dir, e.file) }) }, exchange);
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
    // the server is stopping or full: another try, here or at another replica, may be answered
    if (error.status === 503) res.setHeader('retry-after', RETRY_AFTER_SECONDS);
    this.send(res, route, error.status, errorBody(error));
  }

  /** A 200 JSON answer made of parts, written as they are. */
  private sendParts(res: ServerResponse, route: Route, parts: readonly Buffer[]): void {
    if (this.state === 'draining') res.setHeader('connection', 'close');
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': parts.reduce((n, p) => n + p.length, 0) });
    for (const part of parts) res.write(part);
    res.end();
    this.metrics.request(route, 200);
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

function errorBody(error: HttpError): { error: { code: string; message: string; file?: string } } {
  return { error: { code: error.code, message: error.message, ...(error.file !== undefined && { file: error.file }) } };
}

/** What a 503 says of when to try again (`Retry-After`): at once, as a rule at another replica. */
const RETRY_AFTER_SECONDS = '1';

const YAML_KEY = Buffer.from('{"yaml":');
const COMMA = Buffer.from(',');

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
