import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

type IdleSocket = Socket & { _httpMessage?: ServerResponse | null };

/**
 * Runs `f` once the sockets' pending input has been read: `setImmediate` callbacks run after the
 * event loop's poll phase, which reads every socket with bytes waiting. A request already sent on a
 * connection `f` would close has by then begun, and Node counts that connection busy.
 */
export function afterPendingReads(f: () => void): void {
  setImmediate(f);
}

/**
 * Makes `server` (whose keepAliveTimeout is the announced time) hold idle connections for
 * `holdMs`. Node arms an idle connection's timer at keepAliveTimeout + 1 s and, with nobody
 * listening for 'timeout', destroys it when it fires; listening here, the first firing re-arms it
 * for the rest of `holdMs`, and the second closes it if still idle after pending reads. Nothing
 * else in the shim sets a socket timeout (server.timeout is 0), and a request on the connection
 * clears the timer (Node sets it to server.timeout), so only idle connections come here.
 */
export function holdIdleConnections(server: Server, holdMs: number): void {
  // Bytes read when the timer first fired: more since then means the connection was used and this
  // firing is the first of a later idle spell. A WeakMap, so only connections that went idle pay.
  const firstFired = new WeakMap<Socket, number>();
  server.on('timeout', (socket: IdleSocket) => {
    const response = socket._httpMessage;
    if (response) {
      // Not an idle connection: a response's own timer (res.setTimeout). Node destroys the
      // connection when nobody listens for it, as it would without this listener.
      if (response.listenerCount('timeout') === 0) socket.destroy();
      return;
    }
    if (firstFired.get(socket) !== socket.bytesRead) {
      firstFired.set(socket, socket.bytesRead);
      socket.setTimeout(Math.max(1, holdMs - server.keepAliveTimeout));
      return;
    }
    closeIfStillIdle(socket);
  });
}

/** Destroys an idle connection unless a request began on it in the meantime (see `afterPendingReads`). */
export function closeIfStillIdle(socket: IdleSocket): void {
  const read = socket.bytesRead;
  afterPendingReads(() => {
    if (!socket.destroyed && socket.bytesRead === read && !socket._httpMessage) socket.destroy();
  });
}
