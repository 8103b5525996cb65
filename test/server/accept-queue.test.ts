import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { acceptQueueLength } from '../../server/accept-queue.js';
import { freePort } from './access/processes.js';

/**
 * What the shutdown log's `refused` counts (server/accept-queue.ts): the connections waiting in the
 * kernel's accept queue, which closing the listening socket resets. A listener in a process of its
 * own is held with SIGSTOP while connections are made: the kernel completes each handshake and
 * queues it, and the count is exactly theirs; once the process runs again it takes them, and the
 * count is 0.
 */
describe.skipIf(!existsSync('/proc/net/tcp'))('the accept queue', () => {
  it('counts the connections the kernel holds for a listener that has not taken them, and none once it has', async () => {
    const port = await freePort();
    const listener = spawn(
      process.execPath,
      ['-e', `require('net').createServer((s) => s.on('error', () => {})).listen(${port}, '127.0.0.1', () => console.log('up'))`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const sockets: Socket[] = [];
    try {
      await new Promise((resolve) => listener.stdout!.once('data', resolve));
      expect(acceptQueueLength(port)).toBe(0);
      listener.kill('SIGSTOP');
      for (let i = 0; i < 25; i++) {
        const socket = connect(port, '127.0.0.1');
        socket.on('error', () => {});
        sockets.push(socket);
      }
      await Promise.all(sockets.map((s) => new Promise((r) => s.once('connect', r))));
      expect(acceptQueueLength(port)).toBe(25);
      listener.kill('SIGCONT');
      const deadline = Date.now() + 10_000;
      while (acceptQueueLength(port) !== 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(acceptQueueLength(port)).toBe(0);
    } finally {
      for (const s of sockets) s.destroy();
      listener.kill('SIGCONT');
      listener.kill('SIGKILL');
    }
  });

  it('is null for a port nothing listens on', async () => {
    expect(acceptQueueLength(await freePort())).toBeNull();
  });
});
