import autocannon from 'autocannon';

export interface LoadRequest {
  method?: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/**
 * Runs autocannon against one server for a fixed time, as fast as `connections` allow (throughput),
 * cycling through `requests`. Latency at a fixed rate is paced.ts's job.
 */
export async function load(base: string, requests: LoadRequest[], o: { seconds: number; connections: number }): Promise<LoadResult> {
  const result = await autocannon({
    url: base,
    connections: o.connections,
    duration: o.seconds,
    requests: requests.map((r) => ({
      method: r.method ?? 'GET',
      path: r.path,
      ...(r.body ? { body: r.body, headers: { 'content-type': 'application/json', ...r.headers } } : { headers: r.headers }),
    })),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * The median of paired ratios `a[i] / b[i]`: runs made back to back, on the machine as it was then,
 * compared with each other rather than with runs made minutes apart.
 */
export function medianRatio(a: readonly number[], b: readonly number[]): number {
  return median(a.map((x, i) => x / b[i]!));
}

/** Repeats a load run and keeps the median of each figure. */
export async function medianOf(runs: number, f: () => Promise<LoadResult>): Promise<LoadResult> {
  const all: LoadResult[] = [];
  for (let i = 0; i < runs; i++) all.push(await f());
  return medians(all);
}

/** The median of each figure of several load runs; errors are summed. */
export function medians(all: LoadResult[]): LoadResult {
  return {
    rps: median(all.map((r) => r.rps)),
    p50: median(all.map((r) => r.p50)),
    p99: median(all.map((r) => r.p99)),
    errors: all.reduce((a, r) => a + r.errors, 0),
    non2xx: all.reduce((a, r) => a + r.non2xx, 0),
  };
}
