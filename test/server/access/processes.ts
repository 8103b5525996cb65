import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';

/** A port the OS says is free now (the process that gets it binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function until(what: string, ms: number, ready: () => Promise<boolean>, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    if (await ready()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} was not ready within ${ms} ms`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Whether a new TCP connection to the port on loopback is accepted. */
export const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** SIGSTOP / SIGCONT: a Redis that keeps its connections open and answers nothing. */
  pause(): void;
  resume(): void;
}

/** Debian's redis-server on loopback, nothing persisted, stopped by the test. */
export async function startRedis(port: number): Promise<RedisServer> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const failed = new Promise<never>((_, reject) => child.once('error', (e) => reject(new Error(`redis-server could not start (is Debian's redis-server installed?): ${e.message}`))));
  await Promise.race([until(`redis-server on ${port}`, 10_000, () => accepts(port), child), failed]);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: async () => {
      child.kill('SIGCONT');
      await stop(child);
    },
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
  };
}

export interface ShimProcess {
  base: string;
  /** Its stderr so far: the JSON log lines. */
  log(): string;
  stop(): Promise<void>;
}

/** The shim as `npm start` runs it (server/index.ts), in a process of its own. */
export async function startShimProcess(env: Record<string, string>): Promise<ShimProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (log += c));
  const base = `http://127.0.0.1:${port}`;
  await until(`shim on ${port}`, 60_000, () => fetch(`${base}/readyz`).then((r) => r.ok, () => false), child);
  return { base, log: () => log, stop: () => stop(child) };
}
