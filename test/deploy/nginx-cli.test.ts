import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npm run deploy:nginx` takes the caps on downloads from the environment, as the shims do (README
 * "Environment"), and refuses a bad one with one line and exit 2.
 */
const dir = mkdtempSync(join(tmpdir(), 'esg-nginx-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function generate(env: Record<string, string>) {
  const out = join(dir, 'nginx.conf');
  rmSync(out, { force: true });
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'build-scripts/deploy/cli.ts', '--snapshots', join(dir, 'snapshots'), '--upstream', '127.0.0.1:8081', '--out', out],
    {
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 30_000,
    },
  );
  return { status: r.status, stderr: r.stderr.trim(), config: r.status === 0 ? readFileSync(out, 'utf8') : '' };
}

describe('the caps nginx is generated with', () => {
  it('the defaults, and each from its variable', () => {
    const defaults = generate({});
    expect(defaults.status, defaults.stderr).toBe(0);
    expect(defaults.config).toMatch(/listen 8080 sndbuf=256k;/);
    expect(defaults.config).toMatch(/limit_conn esg_downloads 6;\n\s+limit_conn_status 429;/);
    expect(defaults.config).toMatch(/location \^~ \/api\/v1\/downloads\/ \{[^}]*send_timeout 30s;/);
    const set = generate({ DOWNLOADS_PER_CLIENT: '3', DOWNLOAD_STALL_MS: '12500', NGINX_SEND_BUFFER_KIB: '128' });
    expect(set.config).toMatch(/listen 8080 sndbuf=128k;/);
    expect(set.config).toMatch(/limit_conn esg_downloads 3;/);
    expect(set.config).toMatch(/location \^~ \/api\/v1\/downloads\/ \{[^}]*send_timeout 13s;/);
    expect(set.config).toContain('at most 3 connections from one client');
  });

  it('a bad value: one line naming it, exit 2, no file', () => {
    for (const [name, value, line] of [
      ['DOWNLOADS_PER_CLIENT', '0', 'DOWNLOADS_PER_CLIENT must be a whole number of at least 1; got 0'],
      ['NGINX_SEND_BUFFER_KIB', '2', 'NGINX_SEND_BUFFER_KIB must be a whole number of KiB, at least 4; got 2'],
    ]) {
      const r = generate({ [name!]: value! });
      expect([r.status, r.stderr], name).toEqual([2, `deploy:nginx: ${line}`]);
      expect(existsSync(join(dir, 'nginx.conf')), name).toBe(false);
    }
  });
});
