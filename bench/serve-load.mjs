#!/usr/bin/env node
// The render server under load (issue 32's "Must show"): `kustomize-ts serve` on 127.0.0.1, fed
// 10,000 requests over about 200 real kustomization roots at concurrency 1, 8 and 32, every
// response checked byte for byte against `kubectl kustomize` of its root.
//
//   - The roots: a copy of --repo (a GitOps repository, e.g. redhat-cop/gitops-catalog) and the
//     real-world trees of --real-world (bench/README.md), assembled under one directory that is
//     the server's --root. Every root is built by `kubectl kustomize` (its output cached in --work,
//     keyed by root, for as long as kubectl, the repository's commit and the archive are the
//     same); those kubectl fails on (no network here: remote bases) are left out, as are those
//     printing nothing. Of the rest, every tree of the archive, and the repository's roots taken
//     evenly over their sizes (resources: the documents kubectl prints) up to --roots.
//   - The server: `bin/kustomize-ts.js serve --root DIR --listen 127.0.0.1:0`, a child process,
//     with the flags given after `--` (kubectl gets none, so they may only be the server's own:
//     --max-concurrency, --queue, --cache-mb, ...). Its RSS is read from /proc (VmRSS) and from
//     /metrics (process_resident_memory_bytes) at start, after the cold pass, and after each run,
//     with its cache's size, hits and misses and its builds' time.
//   - The cold pass: each root requested once, one at a time, on an empty cache: its latency.
//   - The runs: for each concurrency C, --requests requests, each for a root drawn at random
//     (seeded: the same sequence every time), C in flight at once over C keep-alive connections.
//     Latency is measured here, from sending the request to the last byte of the response; each
//     body is parsed once and its yaml compared with kubectl's as a string.
//   - Last, SIGTERM: the server must drain and exit 0.
// The load generator is this process alone; the machine's other cores are the server's.
//
//   npm run build && node bench/serve-load.mjs [--repo DIR] [--real-world FILE.tar.gz] [--work DIR]
//       [--roots 200] [--requests 10000] [--concurrency 1,8,32] [--seed 1] [--jobs 2]
//       [--kts bin/kustomize-ts.js] [--kubectl kubectl] [-- SERVER FLAGS]
//
// Prints a markdown section on stdout, progress on stderr. Exit 1 on a response that is not 200
// with kubectl's output (a 5xx, a failed build, a different yaml), or a server that does not exit
// 0 on SIGTERM; 2 on a usage error or when nothing can be measured.

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Random } from '../scripts/fuzz/random.mjs';
import { findRoots } from './diff-compare.mjs';
import { capture, cpuSeconds, median, pool } from './measure.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The folder of the server's root the archive's trees are extracted into. */
const REAL_WORLD = 'real-world';
const log = (m) => process.stderr.write(`${m}\n`);

/** The command line; what follows `--` goes to the server. */
function parseArgs(argv) {
  const opts = {
    repo: undefined,
    realWorld: undefined,
    work: path.join(os.tmpdir(), 'kts-serve-load'),
    roots: 200,
    requests: 10000,
    concurrency: [1, 8, 32],
    seed: 1,
    jobs: 2,
    kts: path.join(HERE, '..', 'bin', 'kustomize-ts.js'),
    kubectl: 'kubectl',
    serverFlags: [],
  };
  const paths = { '--repo': 'repo', '--real-world': 'realWorld', '--work': 'work', '--kts': 'kts' };
  const counts = { '--roots': 'roots', '--requests': 'requests', '--seed': 'seed', '--jobs': 'jobs' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      opts.serverFlags = argv.slice(i + 1);
      break;
    }
    if (a in paths) opts[paths[a]] = path.resolve(argv[++i]);
    else if (a === '--kubectl') opts.kubectl = argv[++i];
    else if (a in counts) opts[counts[a]] = Number(argv[++i]);
    else if (a === '--concurrency') opts.concurrency = argv[++i].split(',').map(Number);
    else usage(`unknown flag ${a}`);
  }
  if (!opts.repo && !opts.realWorld) usage('nothing to serve: give --repo DIR, --real-world FILE.tar.gz or both');
  if (![opts.roots, opts.requests, opts.jobs, ...opts.concurrency].every((n) => Number.isInteger(n) && n >= 1)) usage('--roots, --requests, --jobs and --concurrency take positive whole numbers');
  return opts;
}

function usage(message) {
  log(`serve-load: ${message}`);
  log('usage: node bench/serve-load.mjs [--repo DIR] [--real-world FILE.tar.gz] [--work DIR] [--roots N] [--requests N] [--concurrency 1,8,32] [--seed N] [--jobs N] [--kts FILE] [--kubectl CMD] [-- SERVER FLAGS]');
  process.exit(2);
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/**
 * The server's --root, made anew under `work`: the repository's files (not its .git) in a folder
 * named after it, the archive's trees under real-world/. Returns the root and the candidate roots,
 * relative to it.
 */
function assemble(opts) {
  const top = path.join(opts.work, 'root');
  fs.rmSync(top, { recursive: true, force: true });
  fs.mkdirSync(top, { recursive: true });
  const candidates = [];
  if (opts.repo) {
    const name = path.basename(opts.repo);
    fs.cpSync(opts.repo, path.join(top, name), { recursive: true, verbatimSymlinks: true, filter: (src) => path.basename(src) !== '.git' });
    candidates.push(...findRoots(path.join(top, name)).map((r) => (r === '.' ? name : `${name}/${r}`)));
  }
  if (opts.realWorld) {
    const dir = path.join(top, REAL_WORLD);
    fs.mkdirSync(dir);
    const tar = spawnSync('tar', ['-xzf', opts.realWorld, '-C', dir], { encoding: 'utf8' });
    if (tar.status !== 0) throw new Error(`cannot extract ${opts.realWorld}: ${tar.stderr}`);
    const { trees } = JSON.parse(fs.readFileSync(path.join(dir, 'trees.json'), 'utf8'));
    candidates.push(...trees.map((t) => path.posix.join(REAL_WORLD, t.project, t.path)));
  }
  return { top, candidates: [...new Set(candidates)] };
}

/**
 * kubectl's output of every candidate (undefined where it fails), from the cache when it has it.
 * The cache's folder is named by what the outputs depend on: kubectl's version, the repository's
 * commit and uncommitted changes, and the archive's bytes.
 */
async function kubectlOutputs(opts, top, candidates) {
  const sources = [spawnSync(opts.kubectl, ['version', '--client'], { encoding: 'utf8' }).stdout];
  if (opts.repo) {
    const git = (...args) => spawnSync('git', args, { cwd: opts.repo, encoding: 'utf8' }).stdout;
    sources.push(opts.repo, git('rev-parse', 'HEAD'), git('status', '--porcelain'));
  }
  if (opts.realWorld) sources.push(sha256(fs.readFileSync(opts.realWorld)));
  const cache = path.join(opts.work, 'kubectl', sha256(sources.join('\0')).slice(0, 16));
  fs.mkdirSync(cache, { recursive: true });
  let built = 0;
  const outputs = await pool(candidates, opts.jobs, async (root) => {
    const file = path.join(cache, `${sha256(root).slice(0, 16)}.json`);
    if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')).yaml;
    const r = await capture(opts.kubectl, ['kustomize', path.join(top, root)], { timeout: 60_000 });
    if (++built % 50 === 0) log(`serve-load: kubectl: ${built} roots built`);
    const yaml = r.ok ? r.stdout.toString('utf8') : undefined;
    fs.writeFileSync(file, JSON.stringify({ root, yaml }));
    return yaml;
  });
  return new Map(candidates.map((root, i) => [root, outputs[i]]));
}

/** The documents in kubectl's output: kustomize separates them with `---` lines (inside a block scalar a line is indented). */
const resourceCount = (yaml) => (yaml === '' ? 0 : (yaml.match(/^---$/gm)?.length ?? 0) + 1);

/**
 * `want` of the roots kubectl builds to something: every tree of the archive (picked for their
 * variety: bases, overlays, large CRD-heavy installs), then the repository's roots taken evenly
 * over their sizes (sorted by resources, then path), so that the rest of the mix is the repository's.
 */
function select(outputs, want) {
  const built = [...outputs]
    .filter(([, yaml]) => yaml)
    .map(([root, yaml]) => ({ root, yaml, resources: resourceCount(yaml), request: JSON.stringify({ path: root }), expected: Buffer.from(`{"yaml":${JSON.stringify(yaml)}`) }))
    .sort((a, b) => a.resources - b.resources || (a.root < b.root ? -1 : 1));
  const picked = built.filter((r) => r.root.startsWith(`${REAL_WORLD}/`));
  const rest = built.filter((r) => !r.root.startsWith(`${REAL_WORLD}/`));
  const more = Math.max(0, want - picked.length);
  if (rest.length <= more) return [...picked, ...rest];
  return [...picked, ...Array.from({ length: more }, (_, i) => rest[Math.floor(((i + 0.5) * rest.length) / more)])];
}

/** The server as a child process, once it says where it listens: its process, URL and the stderr it printed. */
function startServer(opts, top) {
  const child = spawn(opts.kts, ['serve', '--root', top, '--listen', '127.0.0.1:0', ...opts.serverFlags], { stdio: ['ignore', 'ignore', 'pipe'] });
  const server = { child, url: undefined, stderr: '', exit: new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal }))) };
  child.stderr.setEncoding('utf8');
  // a run that breaks off (an exception here) must not leave the server behind; once it has exited this does nothing
  process.on('exit', () => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      // kept to its last 64 KiB: enough to tell why it stopped
      server.stderr = (server.stderr + d).slice(-65536);
      const m = /listening on (http:\/\/[^\s,]+)/.exec(server.stderr);
      if (m && !server.url) {
        server.url = new URL(m[1]);
        resolve(server);
      }
    });
    server.exit.then(({ code, signal }) => reject(new Error(`the server exited (${signal ?? code}) before listening:\n${server.stderr}`)));
    setTimeout(() => reject(new Error(`the server did not say it listens within 30 s:\n${server.stderr}`)), 30_000).unref();
  });
}

/**
 * What the server says of itself now: VmRSS from /proc, and from /metrics its RSS, its builds'
 * summed time and count, its cache's hits, misses and bytes.
 */
async function scrape(server) {
  const text = await new Promise((resolve, reject) => {
    http
      .get(new URL('/metrics', server.url), (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
  const sample = (name) => Number(text.split('\n').find((l) => l.startsWith(`${name} `))?.slice(name.length + 1) ?? NaN);
  return {
    proc: residentBytes(server.child.pid),
    rss: sample('process_resident_memory_bytes'),
    buildSeconds: sample('kustomize_ts_build_duration_seconds_sum{route="build"}'),
    builds: sample('kustomize_ts_build_duration_seconds_count{route="build"}'),
    hits: sample('kustomize_ts_cache_hits_total'),
    misses: sample('kustomize_ts_cache_misses_total'),
    cacheBytes: sample('kustomize_ts_cache_bytes'),
  };
}

/**
 * Whether a 200's body holds kubectl's output. The body is compared as bytes with the start the
 * server writes when its yaml is kubectl's (`{"yaml":` and the yaml as JSON.stringify writes it),
 * so that a large output is neither decoded nor parsed here, where it would take the CPU the
 * server needs. A body that starts otherwise (another key order, another escaping) is parsed, once,
 * and its yaml compared as a string; what it holds is returned to report.
 */
function check(root, body) {
  const start = root.expected;
  // the byte after the yaml: `,` before the other fields, `}` when there are none
  const next = body[start.length];
  if ((next === 0x2c || next === 0x7d) && body.subarray(0, start.length).equals(start)) return { same: true };
  const { yaml } = JSON.parse(body.toString('utf8'));
  return { same: yaml === root.yaml, yaml };
}

/**
 * One request for `root` through `agent`: its latency in ms (from sending to the last byte), its
 * status, whether its yaml is kubectl's, and what a wrong answer said.
 */
function request(server, agent, root) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const done = (status, body) => {
      const ms = performance.now() - t0;
      if (status !== 200) return resolve({ root, ms, status, same: false, body: body.toString('utf8') });
      try {
        const { same, yaml } = check(root, body);
        resolve({ root, ms, status, same, body: same ? undefined : yaml });
      } catch (e) {
        resolve({ root, ms, status, same: false, body: `not JSON: ${e.message}` });
      }
    };
    const req = http.request(new URL('/v1/build', server.url), { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(root.request) } }, (res) => {
      const chunks = [];
      res.on('data', (d) => chunks.push(d));
      res.on('end', () => done(res.statusCode, Buffer.concat(chunks)));
    });
    // a server that stops answering is a failed request, not a stuck benchmark
    req.setTimeout(120_000, () => req.destroy(new Error('no answer in 120 s')));
    req.on('error', (e) => done(0, Buffer.from(e.message)));
    req.end(root.request);
  });
}

/** A process's resident set now (VmRSS), in bytes; NaN when it is gone. */
function residentBytes(pid) {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;
  } catch {
    return NaN;
  }
}

/**
 * Sends the requests of `sequence` (roots), `concurrency` at a time over as many keep-alive
 * connections: every result, the wall time, the CPU time the server and this process took, in s,
 * and the server's highest RSS, read every 100 ms (VmHWM would hold the peak of the runs before).
 */
async function load(server, sequence, concurrency) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const pid = server.child.pid;
  let peak = residentBytes(pid);
  const poller = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 100);
  const t0 = performance.now();
  const serverCpu = cpuSeconds(pid);
  const clientCpu = process.cpuUsage();
  const results = await pool(sequence, concurrency, (root) => request(server, agent, root));
  const { user, system } = process.cpuUsage(clientCpu);
  const out = { results, seconds: (performance.now() - t0) / 1000, serverCpu: cpuSeconds(pid) - serverCpu, clientCpu: (user + system) / 1e6, peak };
  clearInterval(poller);
  agent.destroy();
  return out;
}

/** The value at quantile q of sorted numbers (nearest rank). */
const quantile = (sorted, q) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
const msText = (x) => (x === undefined ? '—' : x >= 100 ? `${Math.round(x)} ms` : `${x.toFixed(1)} ms`);
/** CPU time over a wall time, as the cores it kept busy. */
const cores = (cpu, seconds) => `${cpu.toFixed(1)} s (${(cpu / seconds).toFixed(2)} cores)`;
const kbText = (bytes) => (bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`);
const mbText = (bytes) => (Number.isFinite(bytes) ? `${Math.round(bytes / 2 ** 20)} MB` : 'n/a');

/** Latency figures of a set of results: p50, p99, max, and p50 of the roots under and over 100 resources. */
function latencies(results) {
  const sorted = (rs) => rs.map((r) => r.ms).sort((a, b) => a - b);
  const all = sorted(results);
  const small = sorted(results.filter((r) => r.root.resources < 100));
  const large = sorted(results.filter((r) => r.root.resources >= 100));
  return { p50: quantile(all, 0.5), p99: quantile(all, 0.99), max: all.at(-1), smallP50: quantile(small, 0.5), largeP50: quantile(large, 0.5) };
}

/** The three roots whose requests took the most time in all, with their share of it and their p50. */
function heaviest(results) {
  const byRoot = new Map();
  for (const r of results) byRoot.set(r.root, [...(byRoot.get(r.root) ?? []), r.ms]);
  const total = results.reduce((sum, r) => sum + r.ms, 0);
  return [...byRoot]
    .map(([root, times]) => ({ root, share: times.reduce((a, b) => a + b, 0) / total, p50: median(times) }))
    .sort((a, b) => b.share - a.share)
    .slice(0, 3);
}

/**
 * The responses that are not 200 with kubectl's output, counted; the first few kept in `bad` to
 * report, and the first yaml that differs for each root written under `work`/differ beside kubectl's.
 */
function failures(results, work, bad) {
  const out = { non200: 0, server5xx: 0, differ: 0 };
  for (const r of results) {
    if (r.same) continue;
    if (r.status !== 200) out.non200++;
    if (r.status >= 500) out.server5xx++;
    if (r.status === 200) {
      out.differ++;
      const stem = path.join(work, 'differ', r.root.root.replaceAll('/', '_'));
      if (!fs.existsSync(`${stem}.served.yaml`)) {
        fs.mkdirSync(path.dirname(stem), { recursive: true });
        fs.writeFileSync(`${stem}.served.yaml`, r.body ?? '');
        fs.writeFileSync(`${stem}.kubectl.yaml`, r.root.yaml);
      }
    }
    if (bad.length < 10) bad.push({ root: r.root.root, status: r.status, body: r.status === 200 ? `(yaml differs: ${work}/differ)` : r.body?.slice(0, 500) });
  }
  return out;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  log('serve-load: assembling the root');
  const { top, candidates } = assemble(opts);
  log(`serve-load: kubectl kustomize on ${candidates.length} candidate roots`);
  const outputs = await kubectlOutputs(opts, top, candidates);
  const roots = select(outputs, opts.roots);
  if (roots.length === 0) {
    log('serve-load: kubectl built none of the roots');
    process.exit(2);
  }
  const failedKubectl = [...outputs.values()].filter((y) => y === undefined).length;
  const emptyKubectl = [...outputs.values()].filter((y) => y === '').length;
  const sizes = roots.map((r) => r.resources);
  const bad = [];
  let failed = false;

  log(`serve-load: starting the server on ${roots.length} roots`);
  const server = await startServer(opts, top);
  const states = [['started', await scrape(server)]];

  log('serve-load: cold pass');
  const { results: cold } = await load(server, roots, 1);
  const coldFailures = failures(cold, opts.work, bad);
  states.push(['after the cold pass', await scrape(server)]);

  const random = new Random(opts.seed);
  const runs = [];
  for (const c of opts.concurrency) {
    log(`serve-load: concurrency ${c}, ${opts.requests} requests`);
    const sequence = Array.from({ length: opts.requests }, () => random.pick(roots));
    const before = states.at(-1)[1];
    const { results, seconds, serverCpu, clientCpu, peak } = await load(server, sequence, c);
    const after = await scrape(server);
    states.push([`after concurrency ${c}`, after]);
    const buildMs = ((after.buildSeconds - before.buildSeconds) / (after.builds - before.builds)) * 1000;
    runs.push({ c, seconds, serverCpu, clientCpu, peak, after, buildMs, misses: after.misses - before.misses, heaviest: heaviest(results), ...latencies(results), ...failures(results, opts.work, bad) });
  }

  log('serve-load: SIGTERM');
  const t0 = performance.now();
  server.child.kill('SIGTERM');
  const exit = await server.exit;
  const drainMs = performance.now() - t0;

  const fromRepo = roots.filter((r) => !r.root.startsWith(`${REAL_WORLD}/`)).length;
  console.log('### The render server under load\n');
  console.log(`\`kustomize-ts serve --root DIR --listen 127.0.0.1:0${opts.serverFlags.length ? ` ${opts.serverFlags.join(' ')}` : ''}\` as a child process; the load from`);
  console.log('`bench/serve-load.mjs` in a process of its own (HTTP/1.1, keep-alive, one connection per request in flight). The');
  console.log(`roots: ${roots.length} of the ${candidates.length} under DIR (${fromRepo} from ${opts.repo ? path.basename(opts.repo) : '—'}, ${roots.length - fromRepo} real-world trees),`);
  console.log(`of those \`kubectl kustomize\` builds (${failedKubectl} fail without a network, ${emptyKubectl} print nothing), the repository's taken evenly over their sizes:`);
  console.log(`${Math.min(...sizes)}–${Math.max(...sizes)} resources, median ${median(sizes)};`);
  const bytes = roots.map((r) => r.expected.length).sort((a, b) => a - b);
  console.log(`${sizes.filter((n) => n < 100).length} under 100; their output ${kbText(median(bytes))} at the median, ${kbText(bytes.at(-1))} the largest. Every response's yaml is compared`);
  console.log("with kubectl's output for its root, byte for byte.\n");
  const coldLatency = latencies(cold);
  console.log(`Cold: the first request for each root, one at a time, on an empty cache: p50 ${msText(coldLatency.p50)}, p99 ${msText(coldLatency.p99)}, highest ${msText(coldLatency.max)}; not kubectl's output: ${cold.length - cold.filter((r) => r.same).length}.\n`);
  console.log(`Warm: ${opts.requests.toLocaleString('en')} requests a run, each for a root drawn at random (seed ${opts.seed}), after the cold pass:\n`);
  console.log('| concurrency | req/s | p50 | p99 | max | p50, < 100 resources | p50, ≥ 100 resources | build, mean (/metrics) | cache misses | server CPU | load generator CPU | non-200 | 5xx | yaml differs | RSS peak / after |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of runs) {
    console.log(`| ${r.c} | ${Math.round(opts.requests / r.seconds).toLocaleString('en')} | ${msText(r.p50)} | ${msText(r.p99)} | ${msText(r.max)} | ${msText(r.smallP50)} | ${msText(r.largeP50)} | ${msText(r.buildMs)} | ${r.misses} | ${cores(r.serverCpu, r.seconds)} | ${cores(r.clientCpu, r.seconds)} | ${r.non200} | ${r.server5xx} | ${r.differ} | ${mbText(r.peak)} / ${mbText(r.after.proc)} |`);
  }
  const first = runs[0];
  const heavy = first.heaviest.map((h) => `${h.root.root} (${h.root.resources} resources, ${kbText(h.root.expected.length)}: ${Math.round(h.share * 100)}%, p50 ${msText(h.p50)})`);
  console.log(`\nAt concurrency ${first.c}, the roots whose requests took the most of the time: ${heavy.join('; ')}.`);
  console.log("\nThe server's RSS (VmRSS / `process_resident_memory_bytes`) and its cache's size (`kustomize_ts_cache_bytes`): " + states.map(([when, m]) => `${when} ${mbText(m.proc)} / ${mbText(m.rss)}, cache ${mbText(m.cacheBytes)}`).join('; ') + '.\n');
  console.log(`SIGTERM: exit ${exit.signal ?? exit.code} after ${msText(drainMs)}.\n`);

  const bads = runs.reduce((n, r) => n + r.non200 + r.differ, coldFailures.non200 + coldFailures.differ);
  if (bads > 0) {
    failed = true;
    log(`serve-load: ${bads} responses were not kubectl's output; the first ${bad.length}:`);
    for (const b of bad) log(`  ${b.root}: ${b.status}${b.body ? ` ${b.body}` : ''}`);
  }
  if (exit.code !== 0) {
    failed = true;
    log(`serve-load: the server exited ${exit.signal ?? exit.code} on SIGTERM:\n${server.stderr}`);
  }
  if (failed) process.exitCode = 1;
}

await main();
