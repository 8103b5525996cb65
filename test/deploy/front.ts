import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nginxConfig, type NginxOptions } from '../../build-scripts/deploy/nginx-config.js';
import {
  accepts,
  freePort,
  startRedis,
  startShimProcess,
  stopProcess,
  until,
  type RedisServer,
  type ShimProcess,
} from '../server/access/processes.js';
import { startInbox, type Inbox } from '../helpers/smtp.js';

/**
 * The production shape of deploy/README.md on loopback, started and stopped by a test: Debian's
 * redis-server, two shim processes sharing it (run as the unit file and the container run them:
 * node directly), and Debian's nginx in front with the generated config.
 */
export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find(existsSync);

export type Shim = ShimProcess;

/** One shim as the unit file runs it: node directly, PORT/HOST/SNAPSHOTS_DIR/REDIS_URL/KEYS_DB/TRUST_PROXY from the environment. */
export async function startShim(env: Record<string, string>): Promise<Shim> {
  return startShimProcess({ LOG_LEVEL: 'info', METRICS_PORT: String(await freePort()), ...env });
}

export interface AccessLogEntry {
  request_id: string;
  client: string;
  method: string;
  uri: string;
  status: number;
  /** `host:port` of the shim(s) tried, comma-separated; "" when nginx served the file itself. */
  upstream: string;
}

export interface Nginx {
  port: number;
  /** The master process; its workers are its children. */
  pid: number;
  base: string;
  config: string;
  accessLog(): AccessLogEntry[];
  errorLog(): string;
  /** The config regenerated with `options` changed (e.g. a shim `down`) and `nginx -s reload`: resolves once a new worker runs. */
  reload(options: Partial<NginxOptions>): Promise<void>;
  stop(): Promise<void>;
}

/** The worker processes of an nginx master (Linux: /proc). */
const workersOf = (pid: number) => readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);

/** nginx with the config `npm run deploy:nginx` writes, in the foreground, everything under `dir`; `options` as its flags and environment set them. */
export async function startNginx(dir: string, snapshotsDir: string, upstreams: string[], options: Partial<NginxOptions> = {}): Promise<Nginx> {
  if (!NGINX) throw new Error("nginx is not installed (Debian's nginx; .ci/run installs it)");
  const port = await freePort();
  mkdirSync(dir, { recursive: true });
  for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, 'tmp', t), { recursive: true });
  // As root, workers would run as nobody and could not read the snapshots (the build makes them 0700): run them as root here.
  const configWith = (more: Partial<NginxOptions>) =>
    nginxConfig({
      snapshotsDir,
      upstreams,
      listen: `127.0.0.1:${port}`,
      runtimeDir: dir,
      workerProcesses: 1,
      user: process.getuid?.() === 0 ? 'root' : undefined,
      ...options,
      ...more,
    });
  const config = configWith({});
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, config);
  const child = spawn(NGINX, ['-p', dir, '-c', file, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let out = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (out += c));
  const errorLog = () => out + (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '');
  await until(`nginx on ${port}`, 20_000, () => accepts(port), child, errorLog);
  return {
    port,
    pid: child.pid!,
    base: `http://127.0.0.1:${port}`,
    config,
    accessLog: () => {
      const path = join(dir, 'access.log');
      if (!existsSync(path)) return [];
      return readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as AccessLogEntry);
    },
    errorLog,
    reload: async (more) => {
      const before = new Set(workersOf(child.pid!));
      writeFileSync(file, configWith(more));
      child.kill('SIGHUP');
      await until('a new nginx worker', 10_000, () => Promise.resolve(workersOf(child.pid!).some((w) => !before.has(w))), child, errorLog);
    },
    // SIGQUIT: a graceful stop (the workers finish what they serve).
    stop: () => stopProcess(child, 'SIGQUIT'),
  };
}

/**
 * The temp files nginx's workers hold open now (an answer spooled to disk, a request body): nginx
 * unlinks each as it creates it, so the folder looks empty, but the workers' open files name them.
 * Linux only (/proc).
 */
export function tempFilesHeld(nginx: Nginx): string[] {
  const held: string[] = [];
  for (const pid of workersOf(nginx.pid)) {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (/\/tmp\/(?:proxy|client_body)\//.test(target)) held.push(target);
      } catch {
        // closed meanwhile
      }
    }
  }
  return held;
}

export interface MailedFront {
  dir: string;
  inbox: Inbox;
  shim: Shim;
  nginx: Nginx;
  /** The keys database the shim uses. */
  keysDb: string;
  stop(): Promise<void>;
}

/**
 * One shim with keys and SMTP to a real in-process SMTP server, its links and OAuth's issuer naming
 * `publicUrl` (the host people reach, here this nginx), and nginx in front: the keys page and OAuth
 * as deployed; `env` adds to or overrides the shim's settings. Nothing when nginx is not installed.
 */
export async function startMailedFront(snapshotsDir: string, publicUrl: string, env: Record<string, string> = {}): Promise<MailedFront | undefined> {
  if (!NGINX) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'esg-front-mail-'));
  const keysDb = join(dir, 'keys.sqlite');
  const inbox = await startInbox();
  const shim = await startShim({
    SNAPSHOTS_DIR: snapshotsDir,
    KEYS_DB: keysDb,
    TRUST_PROXY: 'loopback',
    LOG_LEVEL: 'warn',
    SMTP_URL: inbox.url,
    SMTP_FROM: 'keys@example.org',
    PUBLIC_URL: publicUrl,
    ...env,
  });
  const nginx = await startNginx(join(dir, 'nginx'), snapshotsDir, [`127.0.0.1:${shim.port}`]);
  return {
    dir,
    inbox,
    shim,
    nginx,
    keysDb,
    stop: async () => {
      await nginx.stop();
      await shim.stop();
      await inbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Front {
  redis: RedisServer;
  shims: Shim[];
  nginx: Nginx;
  stop(): Promise<void>;
}

/** redis-server, two shims on it (TRUST_PROXY=loopback: they believe nginx's X-Forwarded-For), nginx in front. */
export async function startFront(dir: string, snapshotsDir: string, keysDb: string): Promise<Front> {
  const redis = await startRedis(await freePort());
  const env = { SNAPSHOTS_DIR: snapshotsDir, KEYS_DB: keysDb, REDIS_URL: redis.url, TRUST_PROXY: 'loopback' };
  const shims: Shim[] = [];
  let nginx: Nginx | undefined;
  const stopAll = async () => {
    await nginx?.stop();
    await Promise.all(shims.map((s) => s.stop()));
    await redis.stop();
  };
  try {
    shims.push(...(await Promise.all([startShim(env), startShim(env)])));
    nginx = await startNginx(
      join(dir, 'nginx'),
      snapshotsDir,
      shims.map((s) => `127.0.0.1:${s.port}`),
    );
  } catch (e) {
    await stopAll();
    throw e;
  }
  return { redis, shims, nginx, stop: stopAll };
}
