import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Request, Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { ApiError } from './errors.js';

/**
 * How many downloads (`/api/v1/downloads/…`) the shim sends at once (issue 41): 2,000 unread
 * requests for snapshot.sqlite from one client once held 453 MB in the shim and stalled the front.
 * Each cap is an environment variable (README "Environment"); nginx takes the same values when its
 * config is generated (build-scripts/deploy/nginx-downloads.ts).
 */
export interface DownloadLimits {
  /** Connections one client (an IP, IPv6 by /56, as quotas count) may be downloading on at once. */
  perClient: number;
  /** Connections this shim may be downloading on at once, all clients together. */
  total: number;
  /** A download whose client takes no bytes for this long is cut with a reset. */
  stallMs: number;
}

/**
 * A browser opens at most 6 connections to one host, so a person is never refused; 64 downloads
 * hold at most 64 × 128 KiB in the shim (see DOWNLOAD_CHUNK_BYTES); 30 s is nginx's send_timeout.
 */
export const DEFAULT_DOWNLOAD_LIMITS: Readonly<DownloadLimits> = { perClient: 6, total: 64, stallMs: 30_000 };

/**
 * What one download reads from its file at a time. The file stream reads the next chunk only once
 * the socket has taken the last (pipeline's backpressure), so a download holds at most two chunks in
 * the shim however slowly its client reads.
 */
export const DOWNLOAD_CHUNK_BYTES = 64 * 1024;

/** Seconds a refused download is told to wait: slots free as other downloads end (nginx tells the same). */
export const DOWNLOAD_RETRY_AFTER_S = 5;

/** The 429 message for a client over its cap, the shim's and nginx's. */
export const tooManyDownloads = (perClient: number) =>
  `Too many downloads at once: at most ${perClient} connections from one client may be downloading. Finish or close one, then retry after ${DOWNLOAD_RETRY_AFTER_S} s.`;

const ENV_NAMES: Record<keyof DownloadLimits, string> = { perClient: 'DOWNLOADS_PER_CLIENT', total: 'DOWNLOADS_MAX', stallMs: 'DOWNLOAD_STALL_MS' };

/** The limits from the environment: a whole number ≥ 1 each, else `fail` with one line naming the variable. */
export function downloadLimitsFromEnv(env: NodeJS.ProcessEnv, fail: (message: string) => never): DownloadLimits {
  const limits = { ...DEFAULT_DOWNLOAD_LIMITS };
  for (const key of Object.keys(ENV_NAMES) as (keyof DownloadLimits)[]) {
    const value = env[ENV_NAMES[key]];
    if (value === undefined || value === '') continue;
    if (!/^\d{1,9}$/.test(value) || Number(value) < 1) fail(`${ENV_NAMES[key]} must be a whole number of at least 1; got ${value}`);
    limits[key] = Number(value);
  }
  return limits;
}

/** Set on a connection whose download has ended while it stays open: the slot it still holds. */
const HELD_AFTER = Symbol('download slot held after its response');
type HoldingSocket = Socket & { [HELD_AFTER]?: () => void; server?: Server };
/** Servers already told to free a connection's slot when it carries its next request. */
const hooked = new WeakSet<Server>();

/**
 * Slots for downloads. A slot is taken for the connection when a download starts and is held until
 * the connection closes or carries its next request, not merely until the response is written: the
 * kernel takes up to some 4 MB of an unread response into the socket's buffers, so a small file is
 * "sent" at once, and a client opening connection after connection would otherwise pile up those
 * buffers without end. A client sending its next request has read far enough to be answered again.
 * Only clients with a download open are remembered, so the map never holds more than `total`.
 */
export class DownloadSlots {
  private readonly byClient = new Map<string, number>();
  private held = 0;

  constructor(readonly limits: DownloadLimits = DEFAULT_DOWNLOAD_LIMITS) {}

  /** Downloads in progress (or kept by their open connection), all clients together. */
  get inUse(): number {
    return this.held;
  }

  /**
   * Throws 429 `RATE_LIMITED` if this request could not have a slot now: called before the file is
   * looked up, so a client past its cap costs the shim no more than the refusal. `take` decides.
   */
  check(req: Request): void {
    const socket = req.socket as HoldingSocket;
    socket[HELD_AFTER]?.(); // this connection's earlier download ended and this is its next request
    this.refuseIfFull(this.byClient.get(clientOf(req)) ?? 0);
  }

  /** Takes a slot for this download, or throws 429 `RATE_LIMITED` when the client or the shim has none left. */
  take(req: Request, res: Response): void {
    const socket = req.socket as HoldingSocket;
    socket[HELD_AFTER]?.();
    const client = clientOf(req);
    const mine = this.byClient.get(client) ?? 0;
    this.refuseIfFull(mine);
    this.byClient.set(client, mine + 1);
    this.held++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      socket.off('close', release);
      if (socket[HELD_AFTER] === release) socket[HELD_AFTER] = undefined;
      this.held--;
      const left = (this.byClient.get(client) ?? 1) - 1;
      if (left === 0) this.byClient.delete(client);
      else this.byClient.set(client, left);
    };
    socket.once('close', release);
    res.once('close', () => {
      if (socket.destroyed) release();
      else socket[HELD_AFTER] = release;
    });
    const server = socket.server;
    if (server && !hooked.has(server)) {
      hooked.add(server);
      server.on('request', (next: { socket: HoldingSocket }) => next.socket[HELD_AFTER]?.());
    }
  }

  private refuseIfFull(mine: number): void {
    const { perClient, total } = this.limits;
    // Closed after the answer: a client opening connection after connection keeps none of them open here.
    const retry = { 'Retry-After': String(DOWNLOAD_RETRY_AFTER_S), Connection: 'close' };
    if (mine >= perClient) throw new ApiError('RATE_LIMITED', tooManyDownloads(perClient), retry);
    if (this.held >= total) throw new ApiError('RATE_LIMITED', `The server is sending as many downloads as it takes at once (${total}); retry after ${DOWNLOAD_RETRY_AFTER_S} s.`, retry);
  }
}

/** Who a download counts against: the client's address as quotas count it (IPv6 by /56). */
const clientOf = (req: Request) => ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown');
