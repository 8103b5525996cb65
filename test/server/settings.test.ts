import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailSetting, mcpAllowedOriginsSetting, SettingError, trustProxySetting } from '../../server/kit/settings.js';
import { freePort } from './access/processes.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * Every setting server/index.ts reads, given a bad value: the server exits 2 having printed one
 * line that names the setting, never a stack trace (`TRUST_PROXY=true` used to end in one). Each
 * case is the real server process (`node --import tsx server/index.ts`), with settings that would
 * otherwise start it; four at a time, each stopped after 60 s if it does not exit by itself.
 */
let dir: string;
let aFile: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'esg-settings-'));
  aFile = join(dir, 'a-file');
  writeFileSync(aFile, 'not a folder');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An address no interface of a machine like this one has (TEST-NET-2, RFC 5737). */
const NOT_HERE = '198.51.100.7';

function run(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      env: { ...process.env, SNAPSHOTS_DIR: demoSnapshotsDir, KEYS_DB: join(dir, 'keys.sqlite'), HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    for (const s of [child.stdout, child.stderr]) s.setEncoding('utf8').on('data', (c: string) => (output += c));
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, output });
    });
  });
}

describe('a bad setting: exit 2 and one line naming it', () => {
  const cases = (): [string, Record<string, string>][] => [
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['HOST', { HOST: 'not a host' }],
    ['HOST', { HOST: NOT_HERE }],
    ['HOST', { HOST: 'no-such-host.invalid' }],
    ['METRICS_PORT', { METRICS_PORT: '8o8o' }],
    ['METRICS_HOST', { METRICS_HOST: NOT_HERE, METRICS_PORT: 'FREE' }],
    ['SHUTDOWN_GRACE_MS', { SHUTDOWN_GRACE_MS: '1e3' }],
    ['SHUTDOWN_DRAIN_MS', { SHUTDOWN_DRAIN_MS: '-5' }],
    ['SHUTDOWN_DRAIN_MS', { SHUTDOWN_DRAIN_MS: '9999999999' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'true' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'my proxy' }],
    ['TRUST_PROXY', { TRUST_PROXY: '1', HOST: '0.0.0.0' }],
    ['TRUST_PROXY_PUBLIC_HOST', { TRUST_PROXY: '1', HOST: '0.0.0.0', TRUST_PROXY_PUBLIC_HOST: 'yes' }],
    ['REDIS_URL', { REDIS_URL: 'localhost:6379' }],
    ['KEYS_DB', { KEYS_DB: join(aFile, 'keys.sqlite') }],
    ['SNAPSHOTS_DIR', { SNAPSHOTS_DIR: aFile }],
    ['QUOTA_MEMORY_CLIENTS', { QUOTA_MEMORY_CLIENTS: 'lots' }],
    ['DOWNLOADS_PER_CLIENT', { DOWNLOADS_PER_CLIENT: '0' }],
    ['DOWNLOADS_MAX', { DOWNLOADS_MAX: 'many' }],
    ['DOWNLOAD_STALL_MS', { DOWNLOAD_STALL_MS: '-1' }],
    ['MCP_ALLOWED_ORIGINS', { MCP_ALLOWED_ORIGINS: 'https://chat.example.org/path' }],
    ['OAUTH_CLIENT_METADATA_PRIVATE', { OAUTH_CLIENT_METADATA_PRIVATE: 'yes' }],
    ['SMTP_URL', { SMTP_URL: 'http://mail.example.org', SMTP_FROM: 'keys@example.org', PUBLIC_URL: 'https://esg.example.org' }],
    ['SMTP_FROM', { SMTP_URL: 'smtp://127.0.0.1:2525', SMTP_FROM: 'not an address', PUBLIC_URL: 'https://esg.example.org' }],
    ['PUBLIC_URL', { SMTP_URL: 'smtp://127.0.0.1:2525', SMTP_FROM: 'keys@example.org', PUBLIC_URL: 'https://esg.example.org/keys' }],
  ];

  it('for each setting the server reads', async () => {
    const all = cases();
    const results: { name: string; env: Record<string, string>; code: number | null; output: string }[] = [];
    for (let i = 0; i < all.length; i += 4) {
      const batch = all.slice(i, i + 4);
      results.push(
        ...(await Promise.all(
          batch.map(async ([name, env]) => {
            const filled = Object.fromEntries(
              await Promise.all(Object.entries(env).map(async ([k, v]) => [k, v === 'FREE' ? String(await freePort()) : v])),
            );
            return { name, env, ...(await run(filled)) };
          }),
        )),
      );
    }
    for (const r of results) {
      const what = `${JSON.stringify(r.env)} printed:\n${r.output}`;
      expect(r.code, what).toBe(2);
      const lines = r.output.trim().split('\n');
      expect(lines, what).toHaveLength(1);
      expect(lines[0], what).toContain(r.name);
      expect(lines[0], what).not.toMatch(/\bat .*:\d+|Error:/);
    }
  }, 300_000);
});

describe('MCP_ALLOWED_ORIGINS', () => {
  it('* or comma-separated origins (scheme, host, port), kept as browsers send them; a path, a bare host or an empty entry refused', () => {
    expect(mcpAllowedOriginsSetting({})).toBeUndefined();
    expect(mcpAllowedOriginsSetting({ MCP_ALLOWED_ORIGINS: '*' })).toBe('*');
    expect(mcpAllowedOriginsSetting({ MCP_ALLOWED_ORIGINS: 'https://Chat.example.org, http://localhost:6274/' })).toEqual([
      'https://chat.example.org',
      'http://localhost:6274',
    ]);
    for (const bad of [
      'https://chat.example.org/path',
      'chat.example.org',
      'ftp://x.example',
      'https://a.example,,https://b.example',
      'https://a.example?x=1',
    ])
      expect(() => mcpAllowedOriginsSetting({ MCP_ALLOWED_ORIGINS: bad }), bad).toThrow(/^MCP_ALLOWED_ORIGINS must be/);
  });
});

describe('SMTP_URL, SMTP_FROM and PUBLIC_URL', () => {
  const good = {
    SMTP_URL: 'smtp://user:secret@mail.example.org:587',
    SMTP_FROM: 'ESG API <keys@example.org>',
    PUBLIC_URL: 'https://ESG.example.org/',
  };
  it('none: no mail (keys come from the operator); SMTP_URL takes the other two, as an origin and an address', () => {
    expect(mailSetting({})).toBeUndefined();
    expect(mailSetting(good)).toEqual({ smtpUrl: good.SMTP_URL, from: good.SMTP_FROM, publicUrl: 'https://esg.example.org' });
    expect(mailSetting({ ...good, SMTP_FROM: 'keys@example.org' })?.from).toBe('keys@example.org');
  });
  it('refuses each bad value with one line naming it, and never prints the SMTP password', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ ...good, SMTP_URL: 'https://user:secret@mail.example.org' }, /^SMTP_URL must be/],
      [{ ...good, SMTP_URL: 'mail.example.org' }, /^SMTP_URL must be/],
      [{ ...good, SMTP_FROM: '' }, /^SMTP_FROM is required/],
      [{ ...good, SMTP_FROM: 'keys' }, /^SMTP_FROM must be/],
      [{ ...good, PUBLIC_URL: '' }, /^PUBLIC_URL is required/],
      [{ ...good, PUBLIC_URL: 'https://esg.example.org/app' }, /^PUBLIC_URL must be an origin/],
      [{ ...good, PUBLIC_URL: 'esg.example.org' }, /^PUBLIC_URL must be an origin/],
      // Without SMTP_URL the others would do nothing: said, rather than silently ignored.
      [{ SMTP_FROM: 'keys@example.org' }, /^SMTP_FROM is set but SMTP_URL is not/],
    ];
    for (const [env, message] of cases) {
      let error: unknown;
      try {
        mailSetting(env);
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(env)).toBeInstanceOf(SettingError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('secret');
      expect((error as Error).message).not.toContain('\n');
    }
  });
});

describe('TRUST_PROXY and the address the server listens on', () => {
  it('a hop count needs a loopback HOST, or TRUST_PROXY_PUBLIC_HOST=1; addresses and names are fine on any HOST', () => {
    expect(trustProxySetting({ TRUST_PROXY: '1' }, '127.0.0.1')).toBe(1);
    expect(trustProxySetting({ TRUST_PROXY: '2' }, '::1')).toBe(2);
    expect(trustProxySetting({ TRUST_PROXY: '1' }, 'localhost')).toBe(1);
    expect(() => trustProxySetting({ TRUST_PROXY: '1' }, '0.0.0.0')).toThrow(SettingError);
    expect(() => trustProxySetting({ TRUST_PROXY: '1' }, '10.0.0.5')).toThrow(/TRUST_PROXY_PUBLIC_HOST=1/);
    expect(trustProxySetting({ TRUST_PROXY: '1', TRUST_PROXY_PUBLIC_HOST: '1' }, '0.0.0.0')).toBe(1);
    expect(() => trustProxySetting({ TRUST_PROXY: '1', TRUST_PROXY_PUBLIC_HOST: '0' }, '0.0.0.0')).toThrow(SettingError);
    // Zero hops trusts nobody, like no setting at all.
    expect(trustProxySetting({ TRUST_PROXY: '0' }, '0.0.0.0')).toBe(0);
    expect(trustProxySetting({ TRUST_PROXY: 'loopback' }, '0.0.0.0')).toBe('loopback');
    expect(trustProxySetting({ TRUST_PROXY: '10.0.0.0/8, loopback' }, '0.0.0.0')).toBe('10.0.0.0/8, loopback');
    expect(trustProxySetting({}, '0.0.0.0')).toBeUndefined();
  });
});
