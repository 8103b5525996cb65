import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { FetchFailure } from '../sources/kit/fetch-failure.js';

/**
 * One polite HTTP request (GET, or POST with a body) into a file: a timeout per attempt, retries with exponential backoff (and the
 * server's Retry-After) on 429, 5xx, timeouts and connection resets, a minimum interval between
 * requests to the same host, and a cap on the body size. Other statuses fail at once. The body is
 * streamed to disk and hashed on the way, never held whole.
 */

export interface HttpOptions {
  /** Per attempt, headers and body together. */
  timeoutMs: number;
  /** Attempts in all (first try included). */
  attempts: number;
  /** First backoff; doubled each retry, plus up to 50 % jitter. */
  retryBaseMs: number;
  /** Longest wait between attempts (a larger Retry-After is cut to this). */
  retryMaxMs: number;
  /** Minimum time between the starts of two requests to one host. */
  minIntervalMs: number;
  maxBodyBytes: number;
  /** Text that must never appear in a message or a log (the API key). */
  secrets: readonly string[];
  log: (message: string) => void;
}

export const DEFAULT_HTTP: Omit<HttpOptions, 'secrets' | 'log'> = {
  timeoutMs: 120_000,
  attempts: 5,
  retryBaseMs: 2_000,
  retryMaxMs: 60_000,
  minIntervalMs: 500,
  maxBodyBytes: 1 << 30,
};

export interface Download {
  status: number;
  contentType: string;
  bytes: number;
  sha256: string;
  /** `Set-Cookie` values of the answer (a session's next request carries them). */
  cookies: string[];
}

/** What to send. */
export interface HttpRequest {
  url: string;
  method: 'GET' | 'POST';
  headers?: Readonly<Record<string, string>>;
  body?: string;
}

/** The host's name does not resolve: no network, or a wrong URL. Another attempt will not cure it. */
const UNRESOLVED = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME']);

class Transient extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

const lastStart = new Map<string, number>();

async function politeStart(url: URL, minIntervalMs: number): Promise<void> {
  const wait = (lastStart.get(url.host) ?? -Infinity) + minIntervalMs - Date.now();
  if (wait > 0) await sleep(wait);
  lastStart.set(url.host, Date.now());
}

export const redact = (text: string, secrets: readonly string[]) => secrets.reduce((t, s) => (s ? t.split(s).join('***') : t), text);

function retryAfter(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

function describeError(e: unknown): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'timed out';
  const cause = err.cause?.code ?? err.cause?.message;
  return cause ? `${err.message} (${cause})` : err.message;
}

async function attempt(r: HttpRequest, dest: string, o: HttpOptions): Promise<Download> {
  let res: Response;
  const signal = AbortSignal.timeout(o.timeoutMs);
  try {
    res = await fetch(r.url, {
      method: r.method,
      signal,
      redirect: 'follow',
      headers: {
        accept: 'application/json, text/csv;q=0.9, text/html;q=0.5, */*;q=0.1',
        'user-agent': 'esg-credibility-fetch/1 (open data client)',
        ...r.headers,
      },
      ...(r.body !== undefined ? { body: r.body } : {}),
    });
  } catch (e) {
    const code = (e as { cause?: { code?: string } }).cause?.code;
    if (code && UNRESOLVED.has(code)) throw new FetchFailure(`cannot resolve ${new URL(r.url).host} (${code}): no network, or a wrong host name`);
    throw new Transient(`request failed: ${describeError(e)}`);
  }
  if (res.status === 429 || res.status >= 500) {
    await res.body?.cancel().catch(() => undefined);
    throw new Transient(`HTTP ${res.status}`, retryAfter(res.headers.get('retry-after')));
  }
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => undefined);
    const hint =
      res.status === 401 || res.status === 403
        ? ' (is the API key set and valid?)'
        : res.status === 405
          ? ` (the server does not take ${r.method} here)`
          : '';
    throw new FetchFailure(`HTTP ${res.status}${hint}`, res.status);
  }
  const hash = createHash('sha256');
  const out = createWriteStream(dest);
  let writeError: Error | null = null;
  out.on('error', (e) => (writeError = e));
  let bytes = 0;
  try {
    if (res.body) {
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        if (bytes > o.maxBodyBytes) throw new FetchFailure(`body larger than ${o.maxBodyBytes} bytes`, 200);
        hash.update(chunk);
        if (!out.write(chunk)) await once(out, 'drain');
      }
    }
  } catch (e) {
    out.destroy();
    if (e instanceof FetchFailure) throw e;
    // The connection dropped or stalled mid-body: the bytes so far are not the file.
    throw new Transient(`body cut off after ${bytes} bytes: ${describeError(e)}`);
  }
  out.end();
  await once(out, 'close');
  if (writeError) throw writeError;
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    bytes,
    sha256: hash.digest('hex'),
    cookies: res.headers.getSetCookie(),
  };
}

/** Sends `r` and writes the answer into `dest` (overwritten), retrying what is transient. Throws FetchFailure. */
export async function download(r: HttpRequest, dest: string, o: HttpOptions): Promise<Download> {
  const shown = `${r.method} ${redact(r.url, o.secrets)}`;
  for (let n = 1; ; n++) {
    await politeStart(new URL(r.url), o.minIntervalMs);
    try {
      return await attempt(r, dest, o);
    } catch (e) {
      if (!(e instanceof Transient)) throw e instanceof FetchFailure ? new FetchFailure(redact(e.message, o.secrets), e.status, e.kind) : e;
      const message = redact(e.message, o.secrets);
      if (n >= o.attempts) throw new FetchFailure(`${message}, still after ${n} attempts`, null, 'unavailable');
      const backoff = Math.min(o.retryMaxMs, e.retryAfterMs ?? o.retryBaseMs * 2 ** (n - 1) * (1 + Math.random() / 2));
      o.log(`${shown}: ${message}; retrying in ${(backoff / 1000).toFixed(1)} s (attempt ${n + 1} of ${o.attempts})`);
      await sleep(backoff);
    }
  }
}
