import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../server/access/processes.js';
import { NGINX } from './front.js';
import { accepts } from '../server/access/processes.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * deploy/README.md, run as an operator would: its "start" block (generate the config, start
 * redis-server, two shims, nginx) and its "stop" block, as written, with this checkout for
 * /srv/esg/app, a temp folder for /srv/esg (holding a copy of the demo snapshot) and free ports.
 */
const readme = readFileSync('deploy/README.md', 'utf8');
const block = (name: string) => {
  const m = new RegExp(`<!-- ${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\n<!-- /${name} -->`).exec(readme);
  if (!m) throw new Error(`deploy/README.md has no ${name} block`);
  return m[1]!;
};

let root: string;
const ports = { nginx: 0, a: 0, b: 0, redis: 0 };
let base: string;

function script(text: string): string {
  let s = text.replaceAll('/srv/esg/app', process.cwd()).replaceAll('/srv/esg', root);
  s = s.replace(/--listen 8080\b/, `--listen 127.0.0.1:${ports.nginx}`);
  // As root, nginx's workers would run as nobody, who cannot read the snapshots: the guide runs all as one user.
  if (process.getuid?.() === 0) s = s.replace(/(--out \S+)/, '$1 --user root');
  return s
    .replace(/\b8081\b/g, String(ports.a))
    .replace(/\b8082\b/g, String(ports.b))
    .replace(/\b6379\b/g, String(ports.redis));
}

/** Runs a block in bash (errors stop it); its output goes to a file, as the daemons it starts keep theirs open. */
function run(name: string): { status: number | null; output: string } {
  const log = join(root, `${name}.out`);
  const fd = openSync(log, 'w');
  try {
    const r = spawnSync('bash', ['-euo', 'pipefail', '-c', script(block(name))], {
      cwd: process.cwd(),
      env: { ...process.env, PATH: `/usr/sbin:/sbin:${process.env.PATH}` },
      stdio: ['ignore', fd, fd],
      timeout: 120_000,
    });
    return { status: r.status, output: readFileSync(log, 'utf8') };
  } finally {
    closeSync(fd);
  }
}

/** A port whose metrics port (port + 10000, as the guide sets it) is a port too. */
async function shimPort(): Promise<number> {
  for (;;) {
    const p = await freePort();
    if (p + 10_000 < 65_536 && !(await accepts(p + 10_000))) return p;
  }
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'esg-readme-'));
  cpSync(demoSnapshotsDir, join(root, 'snapshots'), { recursive: true, verbatimSymlinks: true });
  ports.nginx = await freePort();
  ports.a = await shimPort();
  ports.b = await shimPort();
  ports.redis = await freePort();
  base = `http://127.0.0.1:${ports.nginx}`;
});

afterAll(() => {
  // Whatever the stop block left running, by the ids the start block recorded.
  for (const pidFile of [
    join(root, 'nginx', 'nginx.pid'),
    join(root, 'logs', `shim-${ports.a}.pid`),
    join(root, 'logs', `shim-${ports.b}.pid`),
    join(root, 'logs', 'redis.pid'),
  ]) {
    if (!existsSync(pidFile)) continue;
    try {
      process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!NGINX)('deploy/README.md, as written', () => {
  it('starts nginx, two shims and Redis that serve the API and the pages, and stops them', async () => {
    const started = run('start');
    expect(started.status, started.output).toBe(0);

    const file = await fetch(`${base}/api/v1/company/D1101`);
    expect([file.status, file.headers.get('cache-control')]).toEqual([200, 'public, max-age=3600']);
    expect((await file.json()).company.ticker).toBe('D1101');
    const computed = await fetch(`${base}/api/v1/ranking?limit=2`);
    expect([computed.status, computed.headers.get('cache-control')]).toEqual([200, 'private, max-age=3600']);
    expect(computed.headers.get('ratelimit')).toMatch(/^"calls\/min";r=4;/);
    const page = await fetch(`${base}/company/D1101/`);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(await page.text()).toContain('D1101');
    await new Promise((r) => setTimeout(r, 1500)); // nginx flushes its access log once a second
    const log = readFileSync(join(root, 'nginx', 'access.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { uri: string; upstream: string });
    expect(log.find((e) => e.uri === '/api/v1/company/D1101')?.upstream).toBe('');
    expect(log.find((e) => e.uri === '/api/v1/ranking?limit=2')?.upstream).toMatch(new RegExp(`:(${ports.a}|${ports.b})$`));

    const stopped = run('stop');
    expect(stopped.status, stopped.output).toBe(0);
    const deadline = Date.now() + 15_000;
    for (const port of Object.values(ports)) {
      while (await accepts(port)) {
        expect(Date.now(), `port ${port} still open`).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }, 150_000);
});
