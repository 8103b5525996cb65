import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NGINX, startMailedFront, startNginx, type MailedFront, type Nginx, type Shim } from './front.js';
import { KeyStore } from '../../server/access/key-store.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';
import { formToken } from '../helpers/keys-shim.js';

/**
 * OAuth for /mcp behind the generated nginx front: the metadata, registration, the
 * sign-in and consent pages, the token endpoint and /mcp with the token all reach the shim through
 * nginx and answer with PUBLIC_URL's addresses; a preflight to /token or /register allows
 * `Authorization`, answered by nginx as the shim answers it. Then the retry policy, against shims
 * that read a request and die before answering: a POST that changes something (/token,
 * /oauth/consent…) reaches one shim only, a POST that only reads is tried on the next.
 */
const PUBLIC_URL = 'https://esg.example.org';
const REDIRECT = 'http://127.0.0.1:9/callback';
let front: MailedFront;
let nginx: Nginx;
let shim: Shim;

beforeAll(async () => {
  front = (await startMailedFront(demoSnapshotsDir, PUBLIC_URL))!;
  ({ nginx, shim } = front ?? {});
}, 120_000);
afterAll(async () => {
  await front?.stop();
});

const at = (base: string, path: string, init: RequestInit = {}) =>
  fetch(base + path, { redirect: 'manual', signal: AbortSignal.timeout(10_000), ...init });
const json = async (res: Response) => (await res.json()) as Record<string, unknown>;
/** The upstreams nginx tried for the last request to a path (its access log): `host:port`, comma-separated. */
const upstreamOf = async (path: string) => {
  await new Promise((resolve) => setTimeout(resolve, 1200)); // the log is flushed every second
  return nginx
    .accessLog()
    .filter((e) => e.uri.split('?')[0] === path)
    .at(-1)?.upstream;
};

describe.skipIf(!NGINX)('OAuth through nginx', () => {
  it('the metadata documents reach the shim and name PUBLIC_URL', async () => {
    const prm = await at(nginx.base, '/.well-known/oauth-protected-resource/mcp');
    expect(prm.status).toBe(200);
    expect(prm.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await json(prm)).toMatchObject({ resource: `${PUBLIC_URL}/mcp`, authorization_servers: [`${PUBLIC_URL}/`] });
    expect(await json(await at(nginx.base, '/.well-known/oauth-protected-resource'))).toMatchObject({ resource: `${PUBLIC_URL}/` });
    const as = await at(nginx.base, '/.well-known/oauth-authorization-server');
    expect(as.status).toBe(200);
    expect(await json(as)).toMatchObject({
      issuer: `${PUBLIC_URL}/`,
      authorization_endpoint: `${PUBLIC_URL}/authorize`,
      token_endpoint: `${PUBLIC_URL}/token`,
      registration_endpoint: `${PUBLIC_URL}/register`,
      revocation_endpoint: `${PUBLIC_URL}/revoke`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(await upstreamOf('/.well-known/oauth-authorization-server')).toBe(`127.0.0.1:${shim.port}`);
  });

  it('a preflight to /token or /register allows Authorization and Content-Type, as the shim’s does', async () => {
    for (const path of ['/token', '/register', '/.well-known/oauth-authorization-server']) {
      const init: RequestInit = {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://assistant.example',
          'Access-Control-Request-Method': path.startsWith('/.well-known') ? 'GET' : 'POST',
          'Access-Control-Request-Headers': 'authorization, content-type',
        },
      };
      const [viaNginx, viaShim] = await Promise.all([at(nginx.base, path, init), at(shim.base, path, init)]);
      expect(viaNginx.status, path).toBe(204);
      expect(viaNginx.headers.get('access-control-allow-origin'), path).toBe('*');
      const allowed = viaNginx.headers.get('access-control-allow-headers')!.split(/,\s*/);
      expect(allowed, path).toEqual(expect.arrayContaining(['Authorization', 'Content-Type']));
      expect(viaNginx.headers.get('access-control-allow-methods'), path).toContain('POST');
      for (const h of ['access-control-allow-headers', 'access-control-allow-methods', 'access-control-max-age'])
        expect(viaNginx.headers.get(h), `${path} ${h}`).toBe(viaShim.headers.get(h));
    }
    // The API's preflight is unchanged: no Authorization there.
    const api = await at(nginx.base, '/api/v1/batch', {
      method: 'OPTIONS',
      headers: { Origin: 'https://x.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(api.headers.get('access-control-allow-headers')).toBe('Content-Type, X-API-Key');
  });

  it('registers, signs in by the mailed link, consents, takes the code to /token and calls /mcp with the token, all through nginx', async () => {
    const email = 'front-oauth@example.org';
    const keys = KeyStore.open(front.keysDb, { maxStalenessMs: 0 });
    const key = keys.create({ tier: 'developer', owner: email, email }).record.id;
    keys.close();

    const reg = await at(nginx.base, '/register', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'Front Assistant', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
    });
    expect(reg.status).toBe(201);
    const clientId = (await json(reg)).client_id as string;

    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'front-state',
      resource: `${PUBLIC_URL}/mcp`,
    });
    const signIn = await at(nginx.base, `/authorize?${query}`);
    expect(signIn.status).toBe(200);
    const html = await signIn.text();
    expect(html).toContain('Front Assistant');
    const request = /name="request" value="([^"]+)"/.exec(html)![1]!;
    expect((await at(nginx.base, '/oauth/sign-in', { method: 'POST', body: new URLSearchParams({ request, email }) })).status).toBe(200);

    const mail = await front.inbox.next(email);
    // The link names PUBLIC_URL, the host people reach; here that is this nginx.
    expect(mail.link.startsWith(`${PUBLIC_URL}/oauth/consent?t=`)).toBe(true);
    const consent = await at(nginx.base, mail.link.slice(PUBLIC_URL.length));
    expect(consent.status).toBe(200);
    expect(consent.headers.get('cache-control')).toBe('no-store');
    // The shim's policy passes through nginx untouched: the form may lead on to the redirect.
    expect(consent.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:9");
    const t = formToken(await consent.text());
    const answer = await at(nginx.base, '/oauth/consent', { method: 'POST', body: new URLSearchParams({ t, decision: 'allow', key }) });
    expect(answer.status).toBe(302);
    const redirect = new URL(answer.headers.get('location')!);
    expect(redirect.origin + redirect.pathname).toBe(REDIRECT);
    expect(redirect.searchParams.get('state')).toBe('front-state');
    expect(redirect.searchParams.get('iss')).toBe(`${PUBLIC_URL}/`);

    const token = await at(nginx.base, '/token', {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: redirect.searchParams.get('code')!,
        code_verifier: verifier,
        client_id: clientId,
        redirect_uri: REDIRECT,
        resource: `${PUBLIC_URL}/mcp`,
      }),
    });
    expect(token.status).toBe(200);
    expect(token.headers.get('cache-control')).toBe('no-store');
    const { access_token } = (await json(token)) as { access_token: string };
    expect(access_token).toMatch(/^esgat_/);

    const call = await at(nginx.base, '/mcp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_company', arguments: { ticker: 'D1101' } } }),
    });
    expect(call.status).toBe(200);
    expect(await call.text()).toContain('D1101');
    // /mcp?sign-in's challenge names the metadata at PUBLIC_URL.
    const challenge = await at(nginx.base, '/mcp?sign-in', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
    });
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${PUBLIC_URL}/.well-known/oauth-protected-resource/mcp"`);
    for (const path of ['/register', '/authorize', '/oauth/sign-in', '/oauth/consent', '/token'])
      expect(await upstreamOf(path), path).toBe(`127.0.0.1:${shim.port}`);
  }, 60_000);
});

/** A shim that reads a whole request, counts it, and dies before answering (a crash after doing the work). */
async function dyingShim(): Promise<{ server: Server; port: number; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((socket: Socket) => {
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffered.subarray(0, end).toString('latin1');
      const length = Number(/^content-length:\s*(\d+)/im.exec(head)?.[1] ?? 0);
      if (buffered.length < end + 4 + length) return;
      seen.push(head.split('\r\n')[0]!);
      socket.destroy();
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, seen };
}

describe.skipIf(!NGINX)('the retry policy of the generated nginx', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'esg-front-retry-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  // [method, path, how many shims see it]: a POST that changes something is sent once; one that only reads, and a GET, on to the next shim.
  const cases: [string, string, number][] = [
    ['POST', '/token', 1],
    ['POST', '/oauth/consent', 1],
    ['POST', '/oauth/sign-in', 1],
    ['POST', '/register', 1],
    ['POST', '/revoke', 1],
    ['POST', '/keys/ask', 1],
    ['POST', '/zh-TW/keys/link', 1],
    ['POST', '/api/v1/batch', 2],
    ['GET', '/authorize?client_id=x', 2],
  ];

  it.each(cases)('%s %s reaches %i shim(s) when each dies after reading it', async (method, path, times) => {
    // A fresh nginx each time: a shim that failed is left alone for 5 s (max_fails=1), which would skew the next case.
    const shims = [await dyingShim(), await dyingShim()];
    const front = await startNginx(
      join(root, `${method}${path.replace(/\W+/g, '-')}`),
      demoSnapshotsDir,
      shims.map((s) => `127.0.0.1:${s.port}`),
    );
    try {
      const res = await at(front.base, path, method === 'GET' ? {} : { method, body: new URLSearchParams({ t: 'x', decision: 'allow' }) });
      expect(res.status).toBe(502);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UPSTREAM_FAILURE');
      expect(shims.flatMap((s) => s.seen)).toEqual(Array(times).fill(`${method} ${path} HTTP/1.1`));
    } finally {
      await front.stop();
      for (const s of shims) s.server.close();
    }
  });

  it('a preflight to /token is answered by nginx with no shim at all', async () => {
    const shims = [await dyingShim()];
    const front = await startNginx(join(root, 'preflight'), demoSnapshotsDir, [`127.0.0.1:${shims[0]!.port}`]);
    try {
      const res = await at(front.base, '/token', {
        method: 'OPTIONS',
        headers: { Origin: 'https://assistant.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-headers')).toContain('Authorization');
      expect(shims[0]!.seen).toEqual([]);
    } finally {
      await front.stop();
      shims[0]!.server.close();
    }
  });
});
