import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { constants } from 'node:os';
import { acceptQueueLength } from './accept-queue.js';
import { afterPendingReads } from './keep-alive.js';
import type { Logger } from './kit/logger.js';

/**
 * The defaults of SHUTDOWN_DRAIN_MS and SHUTDOWN_GRACE_MS. The drain outlasts every idle keep-alive
 * connection a client holds at the signal: clients reading `Keep-Alive: timeout=5` close theirs
 * within 4 s, the generated nginx front its upstream ones after 4 s (KEEP_ALIVE.frontMs), so the
 * server closes none that a client is about to reuse. Behind a balancer that polls /readyz, make it
 * at least the balancer's interval times its failure threshold.
 */
export const SHUTDOWN_DEFAULTS = { drainMs: 5_000, graceMs: 10_000 };

/** After the drain, at most this long to wait for a moment when nothing is queued (below). */
const CLOSING_MS = 1000;

type Connection = Socket & { _httpMessage?: ServerResponse | null };

/**
 * The responses a server is sending now, from Node's own list of its connections (the one
 * `closeIdleConnections` reads; a connection's current response is its `_httpMessage`). Nothing is
 * kept per request or per connection to know them, so outside shutdown the shutdown costs nothing
 * (bench/drain.ts; with the responses in flight kept in an array instead, a company file lost a
 * tenth of its req/s: bench/results.md). Null if this Node keeps no such list (it has since Node 18). A pipelined request waiting
 * behind another on its connection is not among them (no client here pipelines).
 */
function responsesInFlight(server: Server): ServerResponse[] | null {
  const key = Object.getOwnPropertySymbols(server).find((k) => k.description === 'http.server.connections');
  const list = key && (server as unknown as Record<symbol, { all(): { socket?: Connection }[] } | undefined>)[key];
  if (!list || typeof list.all !== 'function') return null;
  const responses: ServerResponse[] = [];
  for (const parser of list.all()) {
    const res = parser.socket?._httpMessage;
    if (res && !res.writableFinished) responses.push(res);
  }
  return responses;
}

export interface ShutdownOptions {
  server: Server;
  logger: Logger;
  /**
   * How long the server keeps accepting once a signal came (SHUTDOWN_DRAIN_MS), answering every
   * request with `Connection: close` and /readyz with 503, before it stops listening.
   */
  drainMs: number;
  /** Then how long requests in flight may take to finish (SHUTDOWN_GRACE_MS). */
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
  /** Requests being answered now, or null where Node does not say. */
  readonly inFlight: number | null;
  /** From the signal on: /readyz answers 503, so a load balancer sends nothing new. */
  readonly stopping: boolean;
}

/**
 * Graceful shutdown that drops nothing. On SIGTERM or SIGINT:
 *
 * 1. Drain, `drainMs`: /readyz says 503 at once and every answer carries `Connection: close`, but
 *    the server keeps accepting, so a balancer has time to see it unready and connections already
 *    queued in the kernel are taken and answered. Idle keep-alive connections stay open meanwhile:
 *    closing one just as its client reuses it resets that request (nginx does not resend a POST),
 *    and clients close their own first (server/keep-alive.ts; nginx's upstream keepalive_timeout
 *    is shorter than the drain).
 * 2. It stops listening at a moment when nothing waits in the kernel's accept queue (right after
 *    Node takes the last connection there, within a second), and closes idle connections once what
 *    has arrived on them is read. Whatever the kernel still holds then is reset: counted as
 *    `refused`.
 * 3. Requests in flight finish within `graceMs`; each connection closes after its answer. When
 *    every connection is gone it closes SQLite and Redis and exits 0, or 1 when requests were `cut`
 *    as the grace ran out. Connections `refused` make the last line a warning, not the exit code:
 *    the shim never read them, and a front resends them (nginx's proxy_next_upstream).
 *
 * The last line counts them, with `drained` (answered after the signal) and `abandoned` (clients
 * that hung up by themselves, not the server's doing). A second signal exits at once, 128 + its
 * number (130 for SIGINT, 143 for SIGTERM).
 */
export function handleShutdown(o: ShutdownOptions): Shutdown {
  const run = new ShutdownRun(o);
  for (const signal of o.signals ?? (['SIGTERM', 'SIGINT'] as const)) process.on(signal, () => run.begin(signal));
  return {
    begin: (signal) => run.begin(signal),
    get inFlight() {
      return run.inFlightNow();
    },
    get stopping() {
      return run.stopping;
    },
  };
}

/** One server's shutdown, from the signal to the exit: each step above is a method. */
class ShutdownRun {
  private readonly exit: (code: number) => void;
  private readonly repeatWindowMs: number;
  /** Requests being answered since the signal: those then in flight (Node's list), and each one after. */
  private inFlight = 0;
  private signalled: { signal: NodeJS.Signals; at: number } | null = null;
  private started = 0;
  private listening = true;
  private finishing = false;
  private cutting = false;
  private graceTimer: NodeJS.Timeout | undefined;
  private drained = 0;
  private abandoned = 0;
  private refused: number | null = 0;
  private stopWaiting = () => {};

  constructor(private readonly o: ShutdownOptions) {
    this.exit = o.exit ?? ((code: number) => process.exit(code));
    this.repeatWindowMs = o.repeatWindowMs ?? 500;
  }

  get stopping(): boolean {
    return this.signalled !== null;
  }

  inFlightNow(): number | null {
    return this.signalled ? this.inFlight : (responsesInFlight(this.o.server)?.length ?? null);
  }

  /** What a signal does: the first starts the drain, a second (not the first delivered twice) exits at once. */
  begin(signal: NodeJS.Signals): void {
    const now = performance.now();
    if (this.signalled) return this.signalledAgain(this.signalled, signal, now);
    this.signalled = { signal, at: now };
    this.started = now;
    this.followEveryResponse();
    const { drainMs, graceMs } = this.o;
    this.o.logger.info(`shutting down: unready, draining for ${drainMs} ms (every answer with Connection: close), then no new connections`, {
      signal,
      in_flight: this.inFlight,
      drain_ms: drainMs,
      grace_ms: graceMs,
    });
    // After pending reads, so that Node has taken what the kernel accepted before it looks.
    setTimeout(() => afterPendingReads(() => this.stopListeningSoon()), drainMs);
  }

  /** A signal after the first: the same one within the repeat window is ignored, another exits with 128 + its number. */
  private signalledAgain(first: { signal: NodeJS.Signals; at: number }, signal: NodeJS.Signals, now: number): void {
    if (signal === first.signal && now - first.at < this.repeatWindowMs) return;
    const code = 128 + (constants.signals[signal] ?? 15);
    this.o.logger.warn(`shutdown: second signal (${signal}), exiting at once`, {
      signal,
      cut: this.inFlight,
      drained: this.drained,
      exit_code: code,
    });
    this.cutting = true;
    const flushed = Promise.race([this.o.logger.flush?.(), new Promise((resolve) => setTimeout(resolve, 200).unref())]);
    void flushed.finally(() => this.exit(code));
  }

  /** From the signal on, every response is followed: those in flight now (Node's list), and each new one. */
  private followEveryResponse(): void {
    const current = responsesInFlight(this.o.server);
    if (current === null)
      this.o.logger.warn('shutdown: this Node does not list its connections; requests in flight before the signal are not counted');
    for (const res of current ?? []) this.follow(res);
    // First among the 'request' listeners, so that each answer can still get `Connection: close`
    // before the app (or the company-file fast path) writes its headers.
    this.o.server.prependListener('request', (_req, res: ServerResponse) => this.follow(res));
  }

  /** From the signal on, each response: `Connection: close` while its headers are unwritten, and counted. */
  private follow(res: ServerResponse): void {
    if (!res.headersSent) res.setHeader('Connection', 'close');
    this.inFlight++;
    res.once('close', () => {
      this.inFlight--;
      if (this.cutting) return;
      if (res.writableFinished) this.drained++;
      else this.abandoned++;
      // An answer begun before the signal may leave its keep-alive connection open and idle; once
      // the server no longer listens, nothing more is taken on it.
      if (!this.listening) afterPendingReads(() => this.o.server.closeIdleConnections());
    });
  }

  /** The listening socket's accept queue now (server/accept-queue.ts), null where unknown. */
  private queued(): number | null {
    const address = this.o.server.address() as AddressInfo | null;
    return address && typeof address === 'object' ? acceptQueueLength(address.port, address.family === 'IPv6' ? 'IPv6' : 'IPv4') : null;
  }

  /**
   * The drain is over: stop listening as soon as nothing waits in the accept queue. Under load,
   * connections keep arriving while the server answers what it took (up to hundreds in one turn of
   * its event loop, here, with every answer closing its connection), so the queue is rarely empty
   * at an arbitrary moment; it is right after Node takes the last of them, in its 'connection'
   * event. At most `CLOSING_MS` is spent waiting for that moment.
   */
  private stopListeningSoon(): void {
    const { server } = this.o;
    if (!this.listening) return;
    if (!server.listening || (this.queued() ?? 0) === 0) return this.stopListening();
    const taken = () => {
      if ((this.queued() ?? 0) === 0) this.stopListening();
    };
    server.on('connection', taken);
    const bound = setTimeout(() => this.stopListening(), CLOSING_MS);
    this.stopWaiting = () => {
      server.off('connection', taken);
      clearTimeout(bound);
    };
  }

  private stopListening(): void {
    const { server, graceMs } = this.o;
    if (!this.listening) return;
    this.listening = false;
    this.stopWaiting();
    // Read just before the listening socket closes, in the same tick: these are the connections
    // the kernel resets.
    this.refused = this.queued();
    this.o.logger.info('shutdown: stopped listening; finishing the requests in flight', {
      in_flight: this.inFlight,
      refused: this.refused,
      grace_ms: graceMs,
    });
    // http's close also closes idle connections (after pending reads: this runs in setImmediate);
    // its callback comes once every connection is gone: each closes after its answer.
    if (server.listening) server.close(() => void this.finish(0));
    else void this.finish(0);
    this.graceTimer = setTimeout(() => this.expire(), graceMs);
  }

  /** The grace ran out: the requests still in flight are cut. */
  private expire(): void {
    const cut = this.inFlight;
    this.cutting = true;
    // Connections still open: each request in flight is on one, the others hold no request (a
    // client that connected and sent nothing, or sent part of a request).
    this.o.server.getConnections((_e, open) => {
      this.o.server.closeAllConnections();
      void this.finish(cut, open);
    });
  }

  /** Once: closes what is left, releases what the server used, writes the last line and exits. */
  private async finish(cut: number, connectionsClosed = 0): Promise<void> {
    if (this.finishing) return;
    this.finishing = true;
    clearTimeout(this.graceTimer);
    this.o.server.closeAllConnections();
    await this.release();
    this.logOutcome(cut, connectionsClosed);
    await this.o.logger.flush?.();
    this.exit(cut > 0 ? 1 : 0);
  }

  /** Closes snapshots and counters, waiting for them at most 5 s. */
  private async release(): Promise<void> {
    try {
      await Promise.race([this.o.release(), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    } catch (e) {
      this.o.logger.error('shutdown: closing snapshots or counters failed', { error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** The last line: what was drained, cut, refused and abandoned; a warning when requests were lost. */
  private logOutcome(cut: number, connectionsClosed: number): void {
    const { drained, refused, abandoned } = this;
    const { drainMs, graceMs } = this.o;
    const fields = {
      drained,
      cut,
      refused,
      abandoned,
      connections_closed: connectionsClosed,
      ms: Math.round(performance.now() - this.started),
      drain_ms: drainMs,
      grace_ms: graceMs,
    };
    const lost = cut > 0 || (refused ?? 0) > 0;
    const cutText = cut > 0 ? `${cut} cut when the grace of ${graceMs} ms ran out (${connectionsClosed} connections closed)` : 'none cut';
    const refusedText =
      refused === null
        ? 'accept queue unknown'
        : refused > 0
          ? `${refused} connections refused (reset in the accept queue when listening stopped)`
          : 'none refused';
    const message = `shut down: ${drained} requests drained, ${cutText}, ${refusedText}`;
    if (lost) this.o.logger.warn(message, fields);
    else this.o.logger.info(message, fields);
  }
}
