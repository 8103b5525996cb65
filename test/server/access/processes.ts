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

/** Waits until `ready()` says yes; fails early when the process exits, naming it and its log's tail. */
export async function until(
  what: string,
  ms: number,
  ready: () => Promise<boolean>,
  child: ChildProcess,
  log: () => string = () => '',
): Promise<void> {
  const deadline = Date.now() + ms;
  const tail = () => (log() === '' ? '' : `:\n${log().slice(-2000)}`);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${what} exited (${child.exitCode ?? child.signalCode})${tail()}`);
    if (await ready()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} was not ready within ${ms} ms${tail()}`);
}

/** `signal` (SIGTERM by default), then SIGKILL after 5 s; resolves when the process is gone. */
export function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill(signal);
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
  /** SIGKILL: a crash, nothing flushed on the way out. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: a Redis that keeps its connections open and answers nothing. */
  pause(): void;
  resume(): void;
}

/**
 * Debian's redis-server on loopback, stopped by the test: nothing persisted, or with `aofDir` an
 * append-only file there (`appendonly yes`, fsync every second: Redis's own advice), which a
 * redis-server started again on the same folder reads back.
 */
export async function startRedis(port: number, o: { aofDir?: string } = {}): Promise<RedisServer> {
  const persistence = o.aofDir
    ? ['--dir', o.aofDir, '--appendonly', 'yes', '--appendfsync', 'everysec', '--save', '']
    : ['--save', '', '--appendonly', 'no'];
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', ...persistence], { stdio: 'ignore' });
  const failed = new Promise<never>((_, reject) =>
    child.once('error', (e) => reject(new Error(`redis-server could not start (is Debian's redis-server installed?): ${e.message}`))),
  );
  await Promise.race([until(`redis-server on ${port}`, 10_000, () => accepts(port), child), failed]);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: async () => {
      child.kill('SIGCONT');
      await stopProcess(child);
    },
    kill: () => stopProcess(child, 'SIGKILL'),
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
  };
}

export interface ShimProcess {
  child: ChildProcess;
  port: number;
  base: string;
  /** What the process wrote so far, stdout and stderr together: its JSON log lines. */
  log(): string;
  /** Killed at once, as a crash would be. */
  kill(): Promise<void>;
  /** SIGTERM, as a supervisor stops it. */
  stop(): Promise<void>;
}

/** How the shim is started: as the unit file and the container run it (deploy/), or by another command. */
export interface ShimCommand {
  command: string;
  args: readonly string[];
}
export const NODE_SHIM: ShimCommand = {
  command: process.execPath,
  args: ['--max-semi-space-size=4', '--max-old-space-size=160', '--import', 'tsx', 'server/index.ts'],
};

/**
 * The shim in a process of its own on a free loopback port, `env` its settings (PORT and HOST
 * set here), ready once `ready` answers 200. The one way tests start shim processes.
 */
export async function startShimProcess(
  env: Record<string, string>,
  o: { how?: ShimCommand; ready?: '/readyz' | '/healthz'; port?: number } = {},
): Promise<ShimProcess> {
  // A given port: a shim restarted where its predecessor listened (test/deploy/rolling-restart.test.ts).
  const port = o.port ?? (await freePort());
  const how = o.how ?? NODE_SHIM;
  const child = spawn(how.command, [...how.args], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  for (const s of [child.stdout!, child.stderr!]) s.setEncoding('utf8').on('data', (c: string) => (log += c));
  const base = `http://127.0.0.1:${port}`;
  await until(
    `shim on ${port}`,
    60_000,
    () =>
      fetch(`${base}${o.ready ?? '/readyz'}`).then(
        (r) => r.ok,
        () => false,
      ),
    child,
    () => log,
  );
  return {
    child,
    port,
    base,
    log: () => log,
    kill: async () => {
      const gone = new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));
      child.kill('SIGKILL');
      await gone;
    },
    stop: () => teardown(child),
  };
}

/**
 * A test's shim stopped when the test is done with it: SIGTERM starts the shutdown, and SIGINT soon
 * after (a second signal, server/shutdown.ts) ends it at once, rather than waiting out the drain
 * (SHUTDOWN_DRAIN_MS, 5 s by default) that the tests of the shutdown itself watch. Some 5 s saved at
 * every stop, dozens of times a run.
 */
async function teardown(child: ChildProcess): Promise<void> {
  const stopped = stopProcess(child, 'SIGTERM');
  const second = setTimeout(() => child.kill('SIGINT'), 100);
  await stopped;
  clearTimeout(second);
}
