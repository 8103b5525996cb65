import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Request, Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { ApiError } from '../../src/contract/errors.js';
import { DEFAULT_DOWNLOAD_LIMITS, DOWNLOAD_RETRY_AFTER_S, tooManyDownloads, type DownloadLimits } from '../../src/contract/downloads.js';

/**
 * What one download reads from its file at a time. The file stream reads the next chunk only once
 * the socket has taken the last (pipeline's backpressure), so a download holds at most two chunks in
 * the shim however slowly its client reads.
 */
export const DOWNLOAD_CHUNK_BYTES = 64 * 1024;

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
    if (this.held >= total)
      throw new ApiError(
        'RATE_LIMITED',
        `The server is sending as many downloads as it takes at once (${total}); retry after ${DOWNLOAD_RETRY_AFTER_S} s.`,
        retry,
      );
  }
}

/** Who a download counts against: the client's address as quotas count it (IPv6 by /56). */
const clientOf = (req: Request) => ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown');
