import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NGINX, startMailedFront, startNginx, type MailedFront } from './front.js';
import { freePort } from '../server/access/processes.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * A mailed link's one-time token (`/keys/link?t=…`, `/oauth/consent?t=…`) is live until
 * it is used, so whoever reads a log holding it first can confirm the key request or answer the
 * sign-in. Tried as the probe tried it: the real links, mailed by the shim and followed through
 * nginx, and the same token spelled as a client might (among other parameters, `%74`, `T`). After
 * that, nginx's access log and error log and the shim's own log (request lines on) hold none of
 * them; the access log still has each request, its token written `t=REDACTED`.
 */
const PUBLIC_URL = 'https://esg.example.org';
const REDIRECT = 'http://127.0.0.1:9/callback';
let front: MailedFront;

beforeAll(async () => {
  front = (await startMailedFront(demoSnapshotsDir, PUBLIC_URL, { LOG_LEVEL: 'info' }))!;
}, 120_000);
afterAll(async () => {
  await front?.stop();
});

const at = (path: string, init: RequestInit = {}) =>
  fetch(front.nginx.base + path, { redirect: 'manual', signal: AbortSignal.timeout(10_000), ...init });

/** A key request's mailed link, as the keys page sends it: its path and query. */
async function keyLink(email: string): Promise<string> {
  const asked = await at('/keys/ask', { method: 'POST', body: new URLSearchParams({ tier: 'developer', email, use: 'Log check' }) });
  expect(asked.status).toBe(200);
  return (await front.inbox.next(email)).link.slice(PUBLIC_URL.length);
}

/** A sign-in's mailed consent link: a client registered, /authorize, the address typed. */
async function consentLink(email: string): Promise<string> {
  const reg = await at('/register', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'Log Check', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
  });
  expect(reg.status).toBe(201);
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: ((await reg.json()) as { client_id: string }).client_id,
    redirect_uri: REDIRECT,
    code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'log-check',
    resource: `${PUBLIC_URL}/mcp`,
  });
  const signIn = await at(`/authorize?${query}`);
  expect(signIn.status).toBe(200);
  const request = /name="request" value="([^"]+)"/.exec(await signIn.text())![1]!;
  expect((await at('/oauth/sign-in', { method: 'POST', body: new URLSearchParams({ request, email }) })).status).toBe(200);
  return (await front.inbox.next(email)).link.slice(PUBLIC_URL.length);
}

describe.skipIf(!NGINX)('one-time tokens and the logs', () => {
  it('mailed links followed through nginx: no token in nginx’s logs or the shim’s, each request still logged', async () => {
    const links = [await keyLink('log-key@example.org'), await consentLink('log-consent@example.org')];
    const tokens = links.map((l) => new URLSearchParams(l.split('?')[1]).get('t')!);
    for (const t of tokens) expect(t.length).toBeGreaterThanOrEqual(16);
    const [keys, consent] = tokens as [string, string];
    const spelled = [
      `/keys/link?lang=en&t=${keys}`,
      `/keys/link?%74=${keys}`,
      `/oauth/consent?T=${consent}&x=1`,
      `/zh-TW/keys/link?t=${keys}`,
      `/keys/link/?t=${keys}`,
    ];
    // The spellings first, while the tokens are live; the real links last (a link shown is spent).
    for (const path of [...spelled, ...links]) expect((await at(path)).status, path).toBeLessThan(500);

    await new Promise((resolve) => setTimeout(resolve, 1200)); // nginx writes its buffered access log each second
    const accessLog = readFileSync(join(front.dir, 'nginx', 'access.log'), 'utf8');
    const shimLog = front.shim.log();
    const logs = { 'nginx access log': accessLog, 'nginx error log': front.nginx.errorLog(), 'shim log': shimLog };
    for (const [name, text] of Object.entries(logs)) for (const t of tokens) expect(text.includes(t), `${name} holds a token`).toBe(false);
    // Not an empty log: every request is there, the token's place marked.
    const uris = front.nginx.accessLog().map((e) => e.uri);
    expect(uris).toEqual(
      expect.arrayContaining([
        '/keys/link?t=REDACTED',
        '/keys/link?lang=en&t=REDACTED',
        '/oauth/consent?t=REDACTED',
        '/zh-TW/keys/link?t=REDACTED',
        '/keys/link/?t=REDACTED',
      ]),
    );
    expect(uris.filter((u) => u.startsWith('/oauth/consent?')).length).toBe(2);
    expect(shimLog).toMatch(/"route":"\/keys\/link"/);
    expect(existsSync(join(front.dir, 'nginx', 'error.log'))).toBe(true);
  }, 60_000);

  it('a link followed while a shim is down: nginx tries the next one, and its error log names no token', async () => {
    // A shim that refuses connections (nothing listens on its port) beside the live one: nginx's
    // error log writes a line, with the request line, for every connection refused.
    const dead = `127.0.0.1:${await freePort()}`;
    const nginx = await startNginx(join(front.dir, 'nginx-dead'), demoSnapshotsDir, [dead, `127.0.0.1:${front.shim.port}`]);
    try {
      // Without a token, a refused connection is written (the log is on), and the dead shim is left alone for 5 s.
      for (let i = 0; i < 4 && !/Connection refused/.test(nginx.errorLog()); i++)
        expect((await fetch(`${nginx.base}/keys/link?x=${i}`, { signal: AbortSignal.timeout(10_000) })).status).toBeLessThan(500);
      expect(nginx.errorLog()).toMatch(/Connection refused/);
      await new Promise((resolve) => setTimeout(resolve, 5500));
      const link = await keyLink('log-dead@example.org');
      const token = new URLSearchParams(link.split('?')[1]).get('t')!;
      // Until a request with the token meets the refused connection (each is a GET: showing the page spends nothing).
      const paths = [`/keys/link?x=1&t=${token}`, `/keys/link?%74=${token}`, link];
      const refused = () => nginx.errorLog().split('Connection refused').length;
      const before = refused();
      for (let i = 0; i < 12 && refused() === before; i++) {
        if (i === 6) await new Promise((resolve) => setTimeout(resolve, 5500)); // the dead shim's 5 s once more
        expect((await fetch(nginx.base + paths[i % 3]!, { signal: AbortSignal.timeout(10_000) })).status).toBeLessThan(500);
      }
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(nginx.accessLog().filter((e) => e.uri.endsWith('t=REDACTED') && e.upstream.startsWith(`${dead}, `)).length).toBeGreaterThan(0);
      expect(nginx.errorLog().includes(token), 'nginx error log holds a token').toBe(false);
    } finally {
      await nginx.stop();
    }
  }, 60_000);
});
