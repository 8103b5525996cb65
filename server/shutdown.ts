import type { Server, ServerResponse } from 'node:http';
import { constants } from 'node:os';
import type { Logger } from './logger.js';

export interface ShutdownOptions {
  server: Server;
  logger: Logger;
  /** How long requests in flight may take to finish once a signal came (SHUTDOWN_GRACE_MS). */
  graceMs: number;
  /** Closes what the server used (snapshots, quota counters, the metrics server), once no request runs. */
  release(): Promise<void>;
  exit?: (code: number) => void;
  signals?: readonly NodeJS.Signals[];
  /**
   * The same signal again within this many ms is one signal delivered twice, not a second: Ctrl-C
   * under `npm start` reaches node from the terminal and again from npm, which forwards it.
   */
  repeatWindowMs?: number;
}

export interface Shutdown {
  /** What a signal does; also for tests. */
  begin(signal: NodeJS.Signals): void;
  /** Requests being answered now. */
  readonly inFlight: number;
}

/**
 * Graceful shutdown. On SIGTERM or SIGINT the server stops accepting connections, closes idle
 * keep-alive ones (and each one as soon as its response is done; requests arriving on an open one
 * meanwhile are answered with `Connection: close`), and waits for the requests in flight, at most
 * `graceMs`. Then it closes SQLite and Redis and exits: 0 when every request finished, 1 when the
 * grace ran out and connections were cut. The last line says how many were drained and cut (and
 * how many clients hung up by themselves meanwhile, which is not the server's doing). A second
 * signal exits at once, 128 + its number (130 for SIGINT, 143 for SIGTERM).
 */
export function handleShutdown(o: ShutdownOptions): Shutdown {
  const exit = o.exit ?? ((code: number) => process.exit(code));
  const repeatWindowMs = o.repeatWindowMs ?? 500;
  const { server, logger } = o;
  // A count, not a set of the responses: adding and deleting one entry per request made the Set
  // rebuild its table every few requests, half of what a static file left in the old generation
  // under load. Cutting the requests in flight closes every connection instead (below).
  let inFlight = 0;
  let signalled: { signal: NodeJS.Signals; at: number } | null = null;
  let finishing = false;
  let cutting = false;
  let timer: NodeJS.Timeout | undefined;
  let drained = 0;
  let abandoned = 0;

  // First among the server's 'request' listeners, so a response can still get `Connection: close`
  // before the app (or the company-file fast path) writes its headers.
  server.prependListener('request', (_req, res: ServerResponse) => {
    inFlight++;
    if (signalled) res.setHeader('Connection', 'close');
    res.once('close', () => {
      inFlight--;
      if (!signalled || cutting) return;
      if (res.writableFinished) drained++;
      else abandoned++;
      // Its keep-alive connection is idle from now on: close it, then see whether anything is left.
      setImmediate(() => {
        server.closeIdleConnections();
        if (inFlight === 0) void finish(0);
      });
    });
  });

  async function finish(cut: number): Promise<void> {
    if (finishing) return;
    finishing = true;
    clearTimeout(timer);
    // Connections still open hold no request: idle, or one whose headers never came.
    server.closeAllConnections();
    try {
      await Promise.race([o.release(), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    } catch (e) {
      logger.error('shutdown: closing snapshots or counters failed', { error: e instanceof Error ? e.message : String(e) });
    }
    const fields = { drained, cut, abandoned, ms: Math.round(performance.now() - started) };
    if (cut > 0) logger.warn(`shut down: ${drained} requests drained, ${cut} cut when the grace of ${o.graceMs} ms ran out`, fields);
    else logger.info(`shut down: ${drained} requests drained, none cut`, fields);
    await logger.flush?.();
    exit(cut > 0 ? 1 : 0);
  }

  function expire(): void {
    const cut = inFlight;
    cutting = true;
    server.closeAllConnections(); // each request still in flight is on one of them
    void finish(cut);
  }

  let started = 0;
  function begin(signal: NodeJS.Signals): void {
    const now = performance.now();
    if (signalled) {
      if (signal === signalled.signal && now - signalled.at < repeatWindowMs) return;
      const code = 128 + (constants.signals[signal] ?? 15);
      logger.warn(`shutdown: second signal (${signal}), exiting at once`, { signal, cut: inFlight, drained, exit_code: code });
      cutting = true;
      void Promise.race([logger.flush?.(), new Promise((resolve) => setTimeout(resolve, 200).unref())]).finally(() => exit(code));
      return;
    }
    signalled = { signal, at: now };
    started = now;
    logger.info('shutting down: no new connections; finishing the requests in flight', { signal, in_flight: inFlight, grace_ms: o.graceMs });
    server.close();
    server.closeIdleConnections();
    if (inFlight === 0) {
      void finish(0);
      return;
    }
    timer = setTimeout(expire, o.graceMs);
  }

  for (const signal of o.signals ?? (['SIGTERM', 'SIGINT'] as const)) process.on(signal, () => begin(signal));
  return {
    begin,
    get inFlight() {
      return inFlight;
    },
  };
}
