import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../server/access/key-store.js';
import { KEEP_ALIVE } from '../../src/contract/keep-alive.js';
import { SHUTDOWN_DEFAULTS } from '../../server/shutdown.js';
import { startShimProcess, stopProcess, type ShimProcess } from '../server/access/processes.js';
import { NGINX, startNginx, type Nginx } from './front.js';
import { nginxConfig } from '../../build-scripts/deploy/nginx-config.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';
import { startInbox, type Inbox } from '../helpers/smtp.js';

/**
 * A rolling restart under POST load, in the production shape (deploy/README.md): two shims behind
 * Debian's nginx with the generated config, POSTs through nginx all along. One shim is held with
 * SIGSTOP while 400 POSTs arrive at once (about half of them wait on it: in its accept queue, or
 * unread on nginx's kept-alive connections), then gets SIGTERM and is let go: it drains, stops
 * listening, exits, and is started again on its port, the load never pausing. A graceful SIGTERM
 * once answered 14 POSTs with 502 (the shim closed kept-alive connections nginx was reusing, and
 * nginx does not resend a POST; here it was 198 of the 400). Now: every POST is answered 200, nginx
 * logs no 502, and the shim's last line says what it drained, none cut, and as refused exactly the
 * connections nginx saw reset (and resent: every POST here only reads).
 *
 * POSTs that change something (the keys forms, sign-in, consent, /token) nginx never resends, so a
 * reset as the shim closed cost them a 502 (31 of 128,737). The rolling restart of
 * deploy/README.md marks the shim down and reloads nginx first: the shim stops with nothing
 * coming, and none of about 1,000 such POSTs meanwhile is a 502.
 */
let dir: string;
let key: string;
let nginx: Nginx;
let inbox: Inbox;
const shims: ShimProcess[] = [];
const snapshotsDir = () => demoSnapshotsDir;
const shimEnv = () => ({
  SNAPSHOTS_DIR: snapshotsDir(),
  KEYS_DB: join(dir, 'keys.sqlite'),
  TRUST_PROXY: 'loopback',
  LOG_LEVEL: 'info',
  // The keys page's mail and OAuth's endpoints on (the issuer on loopback), as the probe had them.
  PUBLIC_URL: 'http://127.0.0.1',
  SMTP_URL: inbox.url,
  SMTP_FROM: 'keys@example.org',
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esg-rolling-'));
  inbox = await startInbox();
  const keys = KeyStore.open(join(dir, 'keys.sqlite'));
  key = keys.create({ tier: 'commercial', owner: 'rolling restart', daily: 1e9, perMinute: 1e9 }).key;
  keys.close();
  if (!NGINX) return;
  shims.push(...(await Promise.all([startShimProcess(shimEnv()), startShimProcess(shimEnv())])));
  nginx = await startNginx(
    join(dir, 'nginx'),
    snapshotsDir(),
    shims.map((s) => `127.0.0.1:${s.port}`),
  );
}, 120_000);

afterAll(async () => {
  await nginx?.stop();
  await Promise.all(shims.map((s) => s.stop()));
  await inbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  status: number;
  error?: string;
}

const BODY = JSON.stringify({ tickers: ['D1101', 'D1102', 'D1103'] });

function postBatch(): Promise<Outcome> {
  return fetch(`${nginx.base}/api/v1/batch`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
    body: BODY,
    signal: AbortSignal.timeout(30_000),
  }).then(
    async (res) => {
      await res.arrayBuffer();
      return { status: res.status };
    },
    (e: Error) => ({ status: 0, error: `${e.message} (${String((e.cause as Error | undefined)?.message ?? '')})` }),
  );
}

/** `rate` POSTs a second, each sent on time whatever the others do, until `stop()` says so (at most `maxSeconds`). */
async function postLoad(rate: number, stop: () => boolean, maxSeconds: number): Promise<Outcome[]> {
  const started = performance.now();
  const sent: Promise<Outcome>[] = [];
  for (let i = 0; !stop() && performance.now() - started < maxSeconds * 1000; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sent.push(postBatch());
  }
  return Promise.all(sent);
}

const tally = (outcomes: Outcome[]) => {
  const by: Record<string, number> = {};
  for (const o of outcomes) by[o.error ? `error: ${o.error}` : String(o.status)] = (by[String(o.error ? `error: ${o.error}` : o.status)] ?? 0) + 1;
  return by;
};

describe.skipIf(!NGINX)('a rolling restart behind nginx, under POST load', () => {
  it('the generated config closes idle upstream connections before a shim would, and before its drain ends', () => {
    const timeout = Number(/keepalive_timeout (\d+)s;/.exec(nginx.config.slice(nginx.config.indexOf('upstream esg_shims')))?.[1]);
    expect(timeout * 1000).toBe(KEEP_ALIVE.frontMs);
    expect(timeout * 1000).toBeLessThan(SHUTDOWN_DEFAULTS.drainMs);
    expect(timeout * 1000).toBeLessThan(KEEP_ALIVE.announcedMs);
    expect(nginx.config).toContain('proxy_next_upstream error timeout non_idempotent;');
  });

  it('one shim held with 200 POSTs waiting, then SIGTERM, restarted on its port: every POST 200, no 502, no reset seen; its log: none cut, and the resets nginx met counted as refused', async () => {
    let stopping = false;
    const background = postLoad(100, () => stopping, 60);
    try {
      await new Promise((r) => setTimeout(r, 1000));
      const old = shims[0]!;
      const pid = old.child.pid!;
      process.kill(pid, 'SIGSTOP');
      let burst: Promise<Outcome[]>;
      try {
        burst = Promise.all(Array.from({ length: 400 }, postBatch));
        await new Promise((r) => setTimeout(r, 1500)); // nginx has handed about half of them to the held shim
        old.child.kill('SIGTERM');
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      const burstOutcomes = await burst;
      const exit = await new Promise<number | null>((resolve) =>
        old.child.exitCode !== null ? resolve(old.child.exitCode) : old.child.once('exit', (code) => resolve(code)),
      );
      const lines = old
        .log()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const end = lines.find((l) => String(l.message).startsWith('shut down'));
      const held = lines.filter((l) => l.message === 'request' && l.route === '/api/v1/batch').length;

      // Started again where it listened; the load goes on a few seconds after it is back.
      shims[0] = await startShimProcess(shimEnv(), { port: old.port });
      await new Promise((r) => setTimeout(r, 3000));
      stopping = true;
      const loadOutcomes = await background;

      expect(tally(burstOutcomes)).toEqual({ 200: 400 });
      expect(tally(loadOutcomes)).toEqual({ 200: loadOutcomes.length });
      expect(exit).toBe(0);
      expect(end, old.log().slice(-2000)).toMatchObject({ cut: 0, abandoned: 0 });
      // Honest: what it says it drained is what it answered after the signal, the held POSTs among them.
      expect(end!.drained as number).toBeGreaterThanOrEqual(150);
      expect(held).toBeGreaterThanOrEqual(end!.drained as number);

      await new Promise((r) => setTimeout(r, 1200)); // nginx writes its buffered access log each second
      const posts = nginx.accessLog().filter((e) => e.method === 'POST');
      expect(posts.length).toBe(400 + loadOutcomes.length);
      expect(posts.filter((e) => e.status !== 200)).toEqual([]);
      // Besides connections refused once the old shim stopped listening, nginx met a reset only on a
      // connection the kernel still held in the shim's accept queue when it closed (none, nearly
      // always: the shim takes what is queued just before), and the shim's log counts exactly those.
      const resets = nginx
        .errorLog()
        .split('\n')
        .filter((l) => /\[error\]/.test(l) && !/connect\(\) failed \(111: Connection refused\)/.test(l));
      expect(resets.length, resets.join('\n')).toBe(end!.refused);
      expect(end!.refused as number).toBeLessThanOrEqual(3);
    } finally {
      stopping = true;
      await background;
    }
  }, 180_000);
});

/**
 * The POSTs nginx sends only once (they change something: shimHowMap in nginx-config.ts), as the
 * probe sent them: the keys forms, sign-in, consent, /token and /register, with made-up values (the
 * shim refuses them, 4xx, but nginx passes each on exactly as a real one). Each on a connection of
 * its own, as a browser's first request is.
 */
const ONCE_POSTS: [string, string, string][] = [
  ['/keys/ask', 'application/x-www-form-urlencoded', 'tier=developer&email=restart%40example.org&use=rolling'],
  ['/keys/manage', 'application/x-www-form-urlencoded', 'email=restart%40example.org'],
  ['/oauth/sign-in', 'application/x-www-form-urlencoded', 'request=nope&email=restart%40example.org'],
  ['/oauth/consent', 'application/x-www-form-urlencoded', 't=nope&decision=allow'],
  ['/token', 'application/x-www-form-urlencoded', 'grant_type=authorization_code&code=nope&code_verifier=nope&client_id=nope'],
  ['/register', 'application/json', '{"client_name":"x","redirect_uris":["https://x.example/cb"]}'],
];

function postOnce(i: number): Promise<Outcome> {
  const [path, type, body] = ONCE_POSTS[i % ONCE_POSTS.length]!;
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: nginx.port,
        path,
        method: 'POST',
        agent: false,
        headers: { 'Content-Type': type, Connection: 'close' },
        timeout: 30_000,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode! }));
        res.on('error', (e) => resolve({ status: 0, error: `${path}: ${e.message}` }));
      },
    );
    req.on('error', (e) => resolve({ status: 0, error: `${path}: ${e.message}` }));
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.end(body);
  });
}

describe('--down in the generated config', () => {
  const base = { snapshotsDir: '/srv/esg/snapshots', upstreams: ['127.0.0.1:8081', '127.0.0.1:8082'], listen: '8080', runtimeDir: '/srv/esg/nginx' };
  it('marks the shims named down, and refuses a shim that is no upstream, or every shim down', () => {
    const config = nginxConfig({ ...base, down: ['127.0.0.1:8081'] });
    expect(config).toContain('server 127.0.0.1:8081 max_fails=1 fail_timeout=5s down;');
    expect(config).toContain('server 127.0.0.1:8082 max_fails=1 fail_timeout=5s;');
    expect(nginxConfig(base)).not.toMatch(/ down;/);
    expect(() => nginxConfig({ ...base, down: ['127.0.0.1:9999'] })).toThrow(/not an upstream/);
    expect(() => nginxConfig({ ...base, down: base.upstreams })).toThrow(/every upstream is down/);
  });
});

describe.skipIf(!NGINX)('a rolling restart of POSTs nginx sends only once', () => {
  it('the shim marked down and nginx reloaded first, then SIGTERM, restarted, back up: no 502 among ~1,000 once-POSTs, and the shim stopped with nothing coming', async () => {
    const target = shims[1]!;
    const upstream = `127.0.0.1:${target.port}`;
    let stopping = false;
    const started = performance.now();
    const sent: Promise<Outcome>[] = [];
    // 100 a second until told to stop, at most 30 s.
    const load = (async () => {
      for (let i = 0; !stopping && performance.now() - started < 30_000; i++) {
        const wait = started + i * 10 - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        sent.push(postOnce(i));
      }
    })();
    try {
      await new Promise((r) => setTimeout(r, 1000));
      // deploy/README.md, "Rolling restart": down, reload, stop, start, up, reload.
      await nginx.reload({ down: [upstream] });
      await new Promise((r) => setTimeout(r, 500)); // the old worker's last answers
      target.child.kill('SIGTERM');
      await new Promise((resolve) => (target.child.exitCode !== null ? resolve(null) : target.child.once('exit', resolve)));
      const lines = target
        .log()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const end = lines.find((l) => String(l.message).startsWith('shut down'));
      shims[1] = await startShimProcess(shimEnv(), { port: target.port });
      await nginx.reload({ down: [] });
      await new Promise((r) => setTimeout(r, 3000));
      stopping = true;
      await load;
      const outcomes = await Promise.all(sent);

      expect(outcomes.length).toBeGreaterThan(500);
      expect(outcomes.filter((o) => o.status === 502 || o.status === 0)).toEqual([]);
      // Nothing reached the shim once it was signalled, so nothing could be reset as it closed.
      expect(end, target.log().slice(-2000)).toMatchObject({ drained: 0, cut: 0, refused: 0 });
      await new Promise((r) => setTimeout(r, 1200)); // nginx writes its buffered access log each second
      const posts = nginx.accessLog().filter((e) => e.method === 'POST' && ONCE_POSTS.some(([p]) => e.uri === p));
      expect(posts.length).toBe(outcomes.length);
      expect(posts.filter((e) => e.status === 502)).toEqual([]);
      // Both shims answered before and after: the restarted one is back in the rotation.
      const last = posts.slice(-100).map((e) => e.upstream);
      expect(new Set(last)).toEqual(new Set(shims.map((s) => `127.0.0.1:${s.port}`)));
    } finally {
      stopping = true;
      await load;
    }
  }, 120_000);
});

afterAll(async () => {
  for (const s of shims) await stopProcess(s.child, 'SIGKILL');
});
