/** The routes requests are counted by. */
export type Route = 'build' | 'build-all' | 'healthz' | 'readyz' | 'metrics' | 'other';

/** Upper bounds of the build-duration histogram, in seconds: from a cache hit to a large helm build. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** What the metrics read when scraped rather than when something happens. */
interface Gauges {
  inFlight(): number;
  queueDepth(): number;
  cache(): { hits: number; misses: number; bytes: number };
}

/** A server's counters and histogram, printed in Prometheus's text format (version 0.0.4). */
export class ServerMetrics {
  private readonly requests = new Map<string, number>();
  private readonly durations = new Map<Route, { buckets: number[]; sum: number; count: number }>();

  constructor(private readonly gauges: Gauges) {}

  /** One answered request. */
  request(route: Route, status: number): void {
    const key = `route="${route}",status="${status}"`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
  }

  /** One build's (or build-all's) time, answered or not. */
  duration(route: Route, seconds: number): void {
    let d = this.durations.get(route);
    if (!d) this.durations.set(route, (d = { buckets: DURATION_BUCKETS.map(() => 0), sum: 0, count: 0 }));
    for (let i = 0; i < DURATION_BUCKETS.length; i++) if (seconds <= DURATION_BUCKETS[i]!) d.buckets[i]!++;
    d.sum += seconds;
    d.count++;
  }

  text(): string {
    const cache = this.gauges.cache();
    const lines: string[] = [];
    const family = (name: string, type: string, help: string, samples: string[]): void => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...samples);
    };
    family('kustomize_ts_requests_total', 'counter', 'Requests answered, by route and status.', [...this.requests].map(([labels, n]) => `kustomize_ts_requests_total{${labels}} ${n}`));
    family(
      'kustomize_ts_build_duration_seconds',
      'histogram',
      'Time from a request being admitted to its build being answered.',
      [...this.durations].flatMap(([route, d]) => [
        ...DURATION_BUCKETS.map((le, i) => `kustomize_ts_build_duration_seconds_bucket{route="${route}",le="${le}"} ${d.buckets[i]}`),
        `kustomize_ts_build_duration_seconds_bucket{route="${route}",le="+Inf"} ${d.count}`,
        `kustomize_ts_build_duration_seconds_sum{route="${route}"} ${d.sum}`,
        `kustomize_ts_build_duration_seconds_count{route="${route}"} ${d.count}`,
      ]),
    );
    family('kustomize_ts_cache_hits_total', 'counter', 'Builds answered from the cache.', [`kustomize_ts_cache_hits_total ${cache.hits}`]);
    family('kustomize_ts_cache_misses_total', 'counter', 'Builds the cache could not answer (they ran).', [`kustomize_ts_cache_misses_total ${cache.misses}`]);
    family('kustomize_ts_cache_bytes', 'gauge', "The cache's size, as it estimates it.", [`kustomize_ts_cache_bytes ${cache.bytes}`]);
    family('kustomize_ts_in_flight_requests', 'gauge', 'Builds running.', [`kustomize_ts_in_flight_requests ${this.gauges.inFlight()}`]);
    family('kustomize_ts_queue_depth', 'gauge', 'Builds waiting for a slot.', [`kustomize_ts_queue_depth ${this.gauges.queueDepth()}`]);
    family('process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes.', [`process_resident_memory_bytes ${process.memoryUsage.rss()}`]);
    return `${lines.join('\n')}\n`;
  }
}
