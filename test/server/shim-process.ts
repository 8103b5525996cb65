import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { startShimProcess, type ShimCommand } from './access/processes.js';

/**
 * A shim process as the shutdown tests watch it: started as `npm start` or as node directly (as a
 * unit file or a container runs it), its JSON log lines at hand, and its exit awaited.
 */
export type Line = Record<string, unknown>;

export interface WatchedShim {
  child: ChildProcess;
  port: number;
  /** The node process serving (npm's child under `npm start`), from its `listening` line. */
  pid: number;
  lines(): Line[];
  /** Resolves with the first log line whose message starts with `prefix`. */
  line(prefix: string, ms?: number): Promise<Line>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

export const HOW: Record<'npm start' | 'node', ShimCommand> = {
  'npm start': { command: 'npm', args: ['start'] },
  node: { command: process.execPath, args: ['--max-semi-space-size=4', '--max-old-space-size=160', '--import', 'tsx', 'server/start.ts'] },
};

export async function watchShim(how: keyof typeof HOW, env: Record<string, string>): Promise<WatchedShim> {
  const shim = await startShimProcess(env, { how: HOW[how], ready: '/healthz' });
  const child = shim.child;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode, at: Date.now() });
    else child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() }));
  });
  const lines = () =>
    shim
      .log()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Line);
  const line = async (prefix: string, ms = 30_000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = lines().find((l) => String(l.message).startsWith(prefix));
      if (found) return found;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no "${prefix}" line within ${ms} ms; log:\n${shim.log()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const listening = await line('listening');
  return { child, port: shim.port, pid: listening.pid as number, lines, line, exited };
}

/**
 * Whether process `pid` has a socket listening on `port` (/proc: the LISTEN line's inode among the
 * process's open files). Not "does the port accept": once the shim has closed it, another test's
 * server may be given the same port.
 */
export function listensOn(pid: number, port: number): boolean {
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'latin1').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[3] === '0A' && parseInt((f[1] ?? '').split(':').pop()!, 16) === port) inodes.add(f[9]!);
    }
  }
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false; // the process is gone
  }
  return fds.some((fd) => {
    try {
      return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? '');
    } catch {
      return false;
    }
  });
}

export interface RawAnswer {
  status?: number;
  /** The answer's `Connection` header. */
  connection?: string;
  /** Every byte the head announced arrived. */
  complete: boolean;
  /** ECONNRESET, ECONNREFUSED, or how the connection ended early. */
  error?: string;
}

/**
 * One request on a fresh connection, as written: `head` and the first `sentFirst` bytes of `body`
 * at once, the rest when `rest()` is called (a request the server is still reading: in flight).
 * `connected` resolves once the handshake is done, which the kernel does even for a server that
 * is not running (its accept queue).
 */
export function rawRequest(port: number, head: string, body = '', sentFirst = body.length) {
  const socket = connect(port, '127.0.0.1');
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let received = Buffer.alloc(0);
  const answer = new Promise<RawAnswer>((resolve) => {
    const settle = (error?: string) => {
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const headText = end < 0 ? '' : text.slice(0, end);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(headText)?.[1] ?? NaN);
      const complete = end >= 0 && received.length - (end + 4) === length;
      resolve({
        status: end < 0 ? undefined : Number(headText.slice(9, 12)),
        connection: /\r\nconnection: *([^\r]*)/i.exec(headText)?.[1],
        complete,
        error: complete ? undefined : (error ?? 'closed before the answer was whole'),
      });
      socket.destroy();
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text.slice(0, Math.max(0, end)))?.[1] ?? NaN);
      if (end >= 0 && received.length - (end + 4) >= length) settle();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => settle(e.code ?? e.message));
    socket.on('close', () => settle());
  });
  socket.write(head + body.slice(0, sentFirst));
  return { connected, answer, rest: () => socket.write(body.slice(sentFirst)) };
}
