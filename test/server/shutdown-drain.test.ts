import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../server/access/key-store.js';
import { listensOn, rawRequest, watchShim, type RawAnswer } from './shim-process.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * The shutdown that drops nothing, on `npm start` (the server as supervisors run it): a
 * SIGTERM arrives while 200 requests are in flight (their bodies still coming) and 200 connections
 * wait in the kernel's accept queue (the server held with SIGSTOP while they connect and send). It
 * used to close its listening socket at once, and the kernel reset 105–160 of 200 queued
 * connections while the log said "none cut". Now every one of the 400 is answered whole, none is
 * reset, and the log counts them: 400 drained, none cut, none refused, exit 0.
 */
const K = 200;
let dir: string;
let key: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'esg-drain-'));
  const keys = KeyStore.open(join(dir, 'keys.sqlite'));
  key = keys.create({ tier: 'commercial', owner: 'drain test', daily: 1e9, perMinute: 1e9 }).key;
  keys.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BODY = JSON.stringify({ tickers: ['D1101', 'D1102'] });
const post = () =>
  `POST /api/v1/batch HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n`;
const GET_FILE = 'GET /api/v1/company/D1101 HTTP/1.1\r\nHost: x\r\n\r\n';

function summary(answers: RawAnswer[]) {
  const count = (f: (a: RawAnswer) => boolean) => answers.filter(f).length;
  return {
    answered: count((a) => a.status === 200 && a.complete),
    withClose: count((a) => a.connection === 'close'),
    resets: count((a) => a.error === 'ECONNRESET'),
    other: answers.filter((a) => !(a.status === 200 && a.complete)).slice(0, 3),
  };
}

describe('SIGTERM with 200 requests in flight and 200 connections queued', () => {
  it('npm start: all 400 answered whole with Connection: close, none reset; the log: 400 drained, none cut, none refused; exit 0', async () => {
    const shim = await watchShim('npm start', { SNAPSHOTS_DIR: demoSnapshotsDir, KEYS_DB: join(dir, 'keys.sqlite') });
    try {
      // In flight: each POST's headers and half its body sent; the server has begun each request.
      const inFlight = Array.from({ length: K }, () => rawRequest(shim.port, post(), BODY, BODY.length >> 1));
      await Promise.all(inFlight.map((r) => r.connected));
      await new Promise((r) => setTimeout(r, 1000));

      // Queued: the server process held, 200 connections made and their requests sent; the kernel
      // completes each handshake and keeps it in the accept queue until the server takes it.
      process.kill(shim.pid, 'SIGSTOP');
      let queued: ReturnType<typeof rawRequest>[] = [];
      try {
        queued = Array.from({ length: K }, (_, i) => (i % 2 === 0 ? rawRequest(shim.port, GET_FILE) : rawRequest(shim.port, post(), BODY)));
        await Promise.all(queued.map((r) => r.connected));
        shim.child.kill('SIGTERM'); // to npm, which forwards it to the held server: it waits, pending
        await new Promise((r) => setTimeout(r, 300));
      } finally {
        process.kill(shim.pid, 'SIGCONT');
      }
      const begun = await shim.line('shutting down', 10_000);
      expect(begun.in_flight, 'the 200 POSTs were in flight at the signal').toBe(K);
      expect(begun.drain_ms).toBe(5000);
      // The bodies finish arriving during the drain.
      for (const r of inFlight) r.rest();

      const answers = await Promise.all([...inFlight, ...queued].map((r) => r.answer));
      expect(summary(answers)).toEqual({ answered: 2 * K, withClose: 2 * K, resets: 0, other: [] });

      const stopped = await shim.line('shutdown: stopped listening', 15_000);
      expect(stopped.refused).toBe(0);
      expect(listensOn(shim.pid, shim.port)).toBe(false);
      const exit = await shim.exited;
      expect(exit.code).toBe(0);
      const end = await shim.line('shut down');
      expect(end).toMatchObject({ level: 'info', drained: 2 * K, cut: 0, refused: 0, abandoned: 0 });
      expect(end.message).toBe(`shut down: ${2 * K} requests drained, none cut, none refused`);
      expect(() => process.kill(shim.pid, 0), 'the server process itself is gone').toThrow();
    } finally {
      for (const signal of ['SIGCONT', 'SIGKILL'] as const) {
        try {
          process.kill(shim.pid, signal);
        } catch {
          // gone already
        }
      }
      shim.child.kill('SIGKILL');
    }
  }, 120_000);
});
