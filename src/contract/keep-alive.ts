/**
 * Keep-alive without the race. A server that closes an idle connection just as its
 * client reuses it resets that request: the client wrote it, the server closed with it unread.
 * Two things keep that from happening here:
 *
 * - The server keeps an idle connection far longer than it says. Answers announce
 *   `Keep-Alive: timeout=5` (Node's own default), and the clients that read it close an idle
 *   connection before then: undici (Node's fetch) 2 s early, Node's agent 1 s early. Clients that do
 *   not read it close by their own clock: undici 4 s, the generated nginx front 4 s
 *   (build-scripts/deploy/nginx-config.ts), nginx's and most balancers' defaults 60 s. The server
 *   closes after 65 s, so the client always closes first. Node alone closes 1 s after what it says,
 *   which a client held up for a second or two (a busy test worker, a GC pause) overran.
 * - When the server does close an idle connection (after 65 s, or at shutdown), it does so just
 *   after reading what has arrived (`afterPendingReads`): once its event loop has been held up,
 *   timers run before sockets are read, so a request already waiting in the kernel was reset with
 *   the connection. Read first, the request is answered instead.
 */
export const KEEP_ALIVE = { announcedMs: 5_000, holdMs: 65_000, frontMs: 4_000 };
