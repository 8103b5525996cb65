import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { QUOTA_BUCKETS, type QuotaBucket } from '../../src/contract/vocabulary.js';
import type { SnapshotSource } from './snapshot-source.js';

/**
 * The shim's Prometheus metrics (prom-client), each with its own registry so tests can make
 * several. Requests are counted by route pattern (server/kit/observe.ts: `/api/v1/company/{ticker}`,
 * never a raw path) and status, so the label sets stay bounded.
 */
export interface Metrics {
  readonly registry: Registry;
  /** One finished (or cut) request; status null when it closed before any answer (label `none`). */
  request(route: string, status: number | null, seconds: number): void;
  /** A metered call refused with 429, by the bucket named in its answer. */
  quotaRejected(bucket: QuotaBucket): void;
  /** A metered call served uncounted because the quota counters could not be reached (fail open). */
  failOpen(): void;
}

export interface MetricsOptions {
  /** Its current snapshot's id (a label) and age are read at each scrape. */
  snapshots?: SnapshotSource;
  /** With REDIS_URL: asks Redis at each scrape whether it answers (`esg_redis_up`). */
  redisUp?: () => Promise<boolean>;
  /** Node's own metrics: event-loop lag, heap, GC, CPU, memory. Default on. */
  processMetrics?: boolean;
  now?: () => number;
}

/** Latency buckets, seconds: a static file is well under a millisecond, an evidence pack may take seconds. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(o: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const now = o.now ?? Date.now;
  if (o.processMetrics !== false) collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'esg_http_requests_total',
    help: 'Requests answered, by route pattern and status.',
    labelNames: ['route', 'status'] as const,
    registers,
  });
  const latency = new Histogram({
    name: 'esg_http_request_duration_seconds',
    help: 'Time from a request to the end of its response, by route pattern and status.',
    labelNames: ['route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const rejections = new Counter({
    name: 'esg_quota_rejections_total',
    help: 'Metered calls refused with 429, by quota bucket.',
    labelNames: ['bucket'] as const,
    registers,
  });
  for (const bucket of QUOTA_BUCKETS) rejections.inc({ bucket }, 0);
  const failOpen = new Counter({
    name: 'esg_quota_fail_open_total',
    help: 'Metered calls served uncounted because the quota counters were unreachable.',
    registers,
  });

  if (o.redisUp) redisGauge(registers, o.redisUp);
  if (o.snapshots) snapshotGauges(registers, o.snapshots, now);

  return {
    registry,
    request(route, status, seconds) {
      const labels = { route, status: status === null ? 'none' : String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    quotaRejected: (bucket) => rejections.inc({ bucket }),
    failOpen: () => failOpen.inc(),
  };
}

/** `esg_redis_up`, asked at each scrape. */
function redisGauge(registers: Registry[], redisUp: () => Promise<boolean>): void {
  new Gauge({
    name: 'esg_redis_up',
    help: 'Whether Redis (the quota counters) answered a PING at this scrape: 1 up, 0 down (the shim then fails open).',
    registers,
    async collect() {
      this.set((await redisUp()) ? 1 : 0);
    },
  });
}

/** The snapshot being served and its age, read at each scrape. */
function snapshotGauges(registers: Registry[], snapshots: SnapshotSource, now: () => number): void {
  const current = () => {
    try {
      return snapshots.current().meta;
    } catch {
      return null;
    }
  };
  new Gauge({
    name: 'esg_snapshot_info',
    help: 'The snapshot being served, as the label `snapshot` (value 1); no series while none can be read.',
    labelNames: ['snapshot'] as const,
    registers,
    collect() {
      this.reset();
      const meta = current();
      if (meta) this.set({ snapshot: meta.dataset_snapshot_id }, 1);
    },
  });
  new Gauge({
    name: 'esg_snapshot_age_seconds',
    help: 'Seconds since the snapshot being served was published (NaN while none can be read).',
    registers,
    collect() {
      const meta = current();
      this.set(meta ? (now() - Date.parse(meta.published_at)) / 1000 : Number.NaN);
    },
  });
}

/**
 * `GET /metrics` in Prometheus text format, on a server of its own (METRICS_PORT), apart from the
 * API: loopback by default, so only the machine's scraper reads it; nothing else is served there.
 */
export function startMetricsServer(metrics: Metrics, port: number, host = '127.0.0.1'): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Only GET /metrics is served here.\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': metrics.registry.contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Metrics could not be collected.\n');
      },
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

export const metricsAddress = (server: Server): string => {
  const { address, port } = server.address() as AddressInfo;
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}/metrics`;
};
