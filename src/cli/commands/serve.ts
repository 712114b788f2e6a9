import { resolve } from 'node:path';
import { KustomizeError } from '../../errors.js';
import { BUILD_OPTION_FLAGS, optionsFromFlags } from '../build-options.js';
import { programOf, type Command } from '../command.js';
import { STOPPING } from '../interrupt.js';
import type { FlagValue } from '../flags.js';
import { DEFAULT_LIMITS } from '../../serve/limits.js';

/** `serve --root DIR`: the render server. */
export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve builds of the kustomizations under a directory over HTTP',
  usage: 'serve --root DIR [--listen HOST:PORT] [flags]',
  description: `Answer builds of the kustomizations under --root over HTTP/1.1 and JSON, keeping
what they read and parsed in memory between requests (a file changed on disk is seen by the
next request). Routes:
  POST /v1/build      {"path": "<directory under --root>", "options": {...}}
                      -> 200 {"yaml", "warnings", "inputs", "remote", "ms"}
  POST /v1/build-all  {"path": "<directory under --root>"} -> ndjson, as build-all --format ndjson
  GET  /healthz, /readyz, /metrics (Prometheus)
Errors are JSON {"error": {"code", "message", "file"}}: 400 a malformed request, 403 a path
outside --root, 404 no kustomization, 413 a body over --max-body, 422 the build failed, 503 the
queue is full or the server is stopping, 504 over --timeout. The build flags set what every
request may use: a request can turn plugins, helm and the like off, never on. Nothing outside
--root is read. On SIGTERM the requests in flight finish, new ones get 503, and the server
exits 0.`,
  examples: `# Serve a repository's kustomizations on 127.0.0.1:8080
  kustomize-ts serve --root .

  # In a container, with helm charts allowed
  kustomize-ts serve --root /repo --listen 0.0.0.0:8080 --enable-helm`,
  usageExit: 2,
  flags: [
    { name: 'root', type: 'string', help: 'the directory every request path is under (required)' },
    { name: 'listen', type: 'string', default: '127.0.0.1:8080', help: 'the address to listen on, HOST:PORT (port 0: any free port)' },
    { name: 'max-concurrency', type: 'string', default: String(DEFAULT_LIMITS.maxConcurrency), help: 'builds running at once' },
    { name: 'queue', type: 'string', default: String(DEFAULT_LIMITS.queue), help: 'requests waiting for a build slot; more get 503' },
    {
      name: 'timeout',
      type: 'string',
      default: String(DEFAULT_LIMITS.timeoutSeconds),
      help: 'seconds a request may take, waiting included; past it the build (its plugins and fetches too) is stopped and the answer is 504',
    },
    { name: 'max-body', type: 'string', default: String(DEFAULT_LIMITS.maxBodyBytes), help: 'bytes of request body; more get 413' },
    { name: 'cache-mb', type: 'string', default: String(DEFAULT_LIMITS.cacheBytes / 2 ** 20), help: 'MiB the build cache holds at most, as it estimates them; the least recently used goes first' },
    ...BUILD_OPTION_FLAGS.map((f) => f.flag),
  ],
  async run({ flags, positional }, io) {
    if (positional.length > 0) throw new KustomizeError('USAGE', `serve takes no arguments (the directory is --root); got ${positional.join(' ')}`);
    const root = flags.get('root') as string | undefined;
    if (root === undefined) throw new KustomizeError('USAGE', '--root DIR is required: the directory every request path is under');
    const { host, port } = listenAddress((flags.get('listen') as string | undefined) ?? '127.0.0.1:8080');
    // loaded only by this command: the HTTP server is nothing any other command needs
    const { RenderServer } = await import('../../serve/render-server.js');
    const server = new RenderServer({
      root: resolve(root),
      options: optionsFromFlags(flags, process.env, io.program),
      limits: {
        maxConcurrency: number(flags, 'max-concurrency'),
        queue: number(flags, 'queue'),
        timeoutSeconds: number(flags, 'timeout'),
        maxBodyBytes: number(flags, 'max-body'),
        cacheBytes: mebibytes(number(flags, 'cache-mb')),
      },
    });
    const address = await server.listen(port, host);
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    io.err(`${programOf(io)} serve: listening on http://${shown}:${address.port}, root ${server.root}\n`);
    await new Promise<void>((resolveStop) => {
      const stop = (): void => {
        for (const signal of STOPPING) process.off(signal, stop);
        io.err(`${programOf(io)} serve: stopping: finishing the requests in flight\n`);
        void server.drain().then(resolveStop);
      };
      for (const signal of STOPPING) process.on(signal, stop);
    });
    io.err(`${programOf(io)} serve: stopped\n`);
    return 0;
  },
};

/** `HOST:PORT`, `[IPv6]:PORT` or `:PORT` (every address). */
function listenAddress(text: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(text);
  const port = Number(m?.[3]);
  if (!m || port > 65535) throw new KustomizeError('USAGE', `--listen '${text}': expected HOST:PORT, such as 127.0.0.1:8080 or 0.0.0.0:8080`);
  return { host: m[1] ?? (m[2] || '0.0.0.0'), port };
}

/** A number flag's value; undefined when it is not given (the server's default then holds). */
function number(flags: ReadonlyMap<string, FlagValue>, name: string): number | undefined {
  const text = flags.get(name) as string | undefined;
  if (text === undefined) return undefined;
  const n = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (Number.isNaN(n)) throw new KustomizeError('USAGE', `--${name} '${text}': expected a number`);
  return n;
}

function mebibytes(n: number | undefined): number | undefined {
  return n === undefined ? undefined : n * 2 ** 20;
}
