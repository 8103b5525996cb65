import { closeSync, openSync, readSync } from 'node:fs';

/** A TCP socket's state in /proc/net/tcp: 0A is LISTEN. */
const LISTEN = '0A';

/**
 * How many connections wait in the kernel's accept queue of the socket listening on `port`: the
 * handshake is done, the server has not taken them yet. Closing the listening socket resets each of
 * them, so shutdown reads this just before it stops listening, and the log says how many were
 * refused that way (the kernel reset 105–160 of 200 downloads while the log said "none
 * cut"). Linux only (a listening socket's rx_queue in /proc/net/tcp or tcp6 is that queue's length);
 * null where the file is not there, or no socket listens on `port`.
 *
 * The kernel lists listening sockets first, so the read stops at the first socket that is not one:
 * reading the whole file takes milliseconds with a thousand connections open (bench/results.md), and a
 * connection that arrives between the count and the close is reset uncounted. Stopping early, that
 * window is a fraction of a millisecond.
 */
export function acceptQueueLength(port: number, family: 'IPv4' | 'IPv6' = 'IPv4'): number | null {
  let fd: number;
  try {
    fd = openSync(family === 'IPv6' ? '/proc/net/tcp6' : '/proc/net/tcp', 'r');
  } catch {
    return null;
  }
  try {
    // Small reads: the kernel formats a line per socket only as far as each read asks.
    const chunk = Buffer.alloc(2048);
    let pending = '';
    let header = true;
    let found = false;
    let waiting = 0;
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      const lines = (pending + chunk.toString('latin1', 0, n)).split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (header) {
          header = false;
          continue;
        }
        // `sl local_address rem_address st tx_queue:rx_queue …`, addresses as HEXIP:HEXPORT.
        const fields = line.trim().split(/\s+/);
        if (fields[3] !== LISTEN) return found ? waiting : null;
        const local = fields[1] ?? '';
        if (parseInt(local.slice(local.lastIndexOf(':') + 1), 16) !== port) continue;
        found = true;
        waiting += parseInt((fields[4] ?? '').split(':')[1] ?? '0', 16);
      }
    }
    return found ? waiting : null;
  } finally {
    closeSync(fd);
  }
}
