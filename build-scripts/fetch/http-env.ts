import type { HttpOptions } from './http.js';

/** FETCH_TIMEOUT_MS, FETCH_MIN_INTERVAL_MS and FETCH_RETRY_BASE_MS, each a number of milliseconds ≥ 0 when set. */
export function httpOptionsFromEnv(env: NodeJS.ProcessEnv): Partial<Omit<HttpOptions, 'secrets' | 'log'>> {
  const number = (name: string): number | undefined => {
    const v = env[name];
    if (v === undefined || v === '') return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number of milliseconds ≥ 0, got ${JSON.stringify(v)}`);
    return n;
  };
  const out: Partial<Omit<HttpOptions, 'secrets' | 'log'>> = {};
  const timeout = number('FETCH_TIMEOUT_MS');
  const interval = number('FETCH_MIN_INTERVAL_MS');
  const retry = number('FETCH_RETRY_BASE_MS');
  if (timeout !== undefined) out.timeoutMs = timeout;
  if (interval !== undefined) out.minIntervalMs = interval;
  if (retry !== undefined) out.retryBaseMs = retry;
  return out;
}
