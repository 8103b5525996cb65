import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import Database from 'better-sqlite3';
import { KeyStore } from '../../../server/access/key-store.js';
import { MAIL_LIMITS } from '../../../src/contract/key-requests.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';
import { formToken, startKeysShim, type KeysShim } from '../../helpers/keys-shim.js';
import { AssistantAuth, signInAndChoose } from './person.js';

/**
 * OAuth 2.1 for /mcp, end to end over HTTP: the MCP SDK's own client with its OAuth
 * provider interface, knowing nothing of our internals but the URL, discovers the metadata, registers,
 * is sent to the sign-in page, a person signs in by the mailed link (a real SMTP server in-process)
 * and picks a key, and the client's tool calls then count against that key.
 */

const connect = async (url: string, auth: AssistantAuth) => {
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: auth });
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
};

/** Two companies of the demo snapshot, from the static ranking file (unmetered). */
const tickers = async (s: KeysShim) => {
  const body = (await (await fetch(`${s.base}/api/v1/ranking`)).json()) as { data: { ticker: string }[] };
  return body.data.slice(0, 2).map((r) => r.ticker);
};

const usageOf = async (s: KeysShim, key: string) => {
  const res = await fetch(`${s.base}/api/v1/usage`, { headers: { 'X-API-Key': key } });
  const body = (await res.json()) as { buckets: { bucket: string; used: number }[] };
  return body.buckets.find((b) => b.bucket === 'calls/day')!.used;
};

describe('OAuth for /mcp, with the SDK client', () => {
  let s: KeysShim;
  let keys: KeyStore;
  let developer: { id: string; key: string };
  let academic: { id: string; key: string };
  const email = 'ann@example.org';

  beforeAll(async () => {
    s = await startKeysShim(demoSnapshotsDir, { limits: { ...MAIL_LIMITS, perAddress: 100, perEmail: 100 } });
    keys = KeyStore.open(s.keysPath, { maxStalenessMs: 0 });
    const d = keys.create({ tier: 'developer', owner: email, email });
    const a = keys.create({ tier: 'academic', owner: email, email });
    developer = { id: d.record.id, key: d.key };
    academic = { id: a.record.id, key: a.key };
  }, 60_000);
  afterAll(async () => {
    keys?.close();
    await s?.close();
  });

  it('publishes the protected resource and authorization server metadata', async () => {
    const prm = (await (await fetch(`${s.base}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(prm.resource).toBe(`${s.base}/mcp`);
    expect(prm.authorization_servers).toEqual([`${s.base}/`]);
    const origin = (await (await fetch(`${s.base}/.well-known/oauth-protected-resource`)).json()) as Record<string, unknown>;
    expect(origin.resource).toBe(`${s.base}/`);
    const as = (await (await fetch(`${s.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as).toMatchObject({
      issuer: `${s.base}/`,
      authorization_endpoint: `${s.base}/authorize`,
      token_endpoint: `${s.base}/token`,
      registration_endpoint: `${s.base}/register`,
      revocation_endpoint: `${s.base}/revoke`,
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
    });
  });

  it('keyless calls stay the free tier; /mcp?sign-in asks for a token with the challenge that names the metadata', async () => {
    const free = await connect(`${s.base}/mcp`, new AssistantAuth());
    const tools = await free.client.listTools();
    expect(tools.tools.length).toBeGreaterThan(0);
    await free.client.close();

    const res = await fetch(`${s.base}/mcp?sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${s.base}/.well-known/oauth-protected-resource/mcp"`);
  });

  it('discovers, registers, signs in with PKCE through the consent page, calls tools against the chosen key; revoking the key refuses its token at once', async () => {
    const auth = new AssistantAuth();
    // The first connection: 401, and the SDK goes through discovery and registration to the authorization URL.
    await expect(connect(`${s.base}/mcp?sign-in`, auth)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(auth.info?.client_id).toBeTruthy();
    const url = auth.authorizationUrl!;
    expect(url.origin + url.pathname).toBe(`${s.base}/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(`${s.base}/mcp`);

    const before = await usageOf(s, developer.key);
    const redirect = await signInAndChoose(s, url, email, developer.id);
    expect(redirect.origin + redirect.pathname).toBe(auth.redirectUrl);
    expect(redirect.searchParams.get('state')).toBe(url.searchParams.get('state'));
    expect(redirect.searchParams.get('iss')).toBe(`${s.base}/`);
    const code = redirect.searchParams.get('code')!;

    const pending = new StreamableHTTPClientTransport(new URL(`${s.base}/mcp?sign-in`), { authProvider: auth });
    await pending.finishAuth(code);
    expect(auth.saved?.access_token).toMatch(/^esgat_/);
    expect(auth.saved?.refresh_token).toMatch(/^esgrt_/);

    const { client } = await connect(`${s.base}/mcp?sign-in`, auth);
    const [a, b] = await tickers(s);
    const result = await client.callTool({ name: 'get_company', arguments: { ticker: a } });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.structuredContent)).toContain(`"ticker":"${a}"`);
    await client.callTool({ name: 'get_company', arguments: { ticker: b } });
    // Two tool calls, counted against the developer key the person chose, none against their other key.
    expect(await usageOf(s, developer.key)).toBe(before + 2);
    expect(await usageOf(s, academic.key)).toBe(0);

    // A code works once.
    const again = await fetch(`${s.base}/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: auth.verifier, client_id: auth.info!.client_id }),
    });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toBe('invalid_grant');
    await client.close();
  });

  it('refresh tokens rotate; a rotated one presented again revokes the grant; a revoked key refuses its token with why', async () => {
    const auth = new AssistantAuth();
    await expect(connect(`${s.base}/mcp?sign-in`, auth)).rejects.toBeInstanceOf(UnauthorizedError);
    const throwaway = keys.create({ tier: 'developer', owner: email, email });
    const redirect = await signInAndChoose(s, auth.authorizationUrl!, email, throwaway.record.id);
    await new StreamableHTTPClientTransport(new URL(`${s.base}/mcp`), { authProvider: auth }).finishAuth(redirect.searchParams.get('code')!);
    const first = auth.saved!;

    const refresh = (token: string) =>
      fetch(`${s.base}/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, client_id: auth.info!.client_id }),
      });
    const rotated = await refresh(first.refresh_token!);
    expect(rotated.status).toBe(200);
    const second = (await rotated.json()) as OAuthTokens;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);

    const call = (token: string) =>
      fetch(`${s.base}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_company', arguments: { ticker: 'D1101' } } }),
      });
    expect((await call(second.access_token)).status).toBe(200);

    // Revoking the key (here from another connection to the keys database, as the keys page or the command do) refuses the token on the next call.
    keys.revoke(throwaway.record.id);
    const refused = await call(second.access_token);
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get('www-authenticate')!;
    expect(challenge).toContain(`resource_metadata="${s.base}/.well-known/oauth-protected-resource/mcp"`);
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toMatch(new RegExp(`error_description="[^"]*key ${throwaway.record.id}[^"]*was revoked`));
    const body = (await refused.json()) as { error: { data: { error: { code: string } } } };
    expect(body.error.data.error.code).toBe('UNAUTHORIZED');
    // Nor can it be refreshed.
    const afterRevoke = await refresh(second.refresh_token!);
    expect(afterRevoke.status).toBe(400);
    expect(((await afterRevoke.json()) as { error_description: string }).error_description).toContain('revoked');

    // Reuse detection, on a live key: a rotated refresh token presented again ends the grant, the live access token with it.
    const auth2 = new AssistantAuth();
    await expect(connect(`${s.base}/mcp?sign-in`, auth2)).rejects.toBeInstanceOf(UnauthorizedError);
    const r2 = await signInAndChoose(s, auth2.authorizationUrl!, email, developer.id);
    await new StreamableHTTPClientTransport(new URL(`${s.base}/mcp`), { authProvider: auth2 }).finishAuth(r2.searchParams.get('code')!);
    const refresh2 = (token: string) =>
      fetch(`${s.base}/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, client_id: auth2.info!.client_id }),
      });
    const next = (await (await refresh2(auth2.saved!.refresh_token!)).json()) as OAuthTokens;
    expect((await call(next.access_token)).status).toBe(200);
    const replay = await refresh2(auth2.saved!.refresh_token!);
    expect(replay.status).toBe(400);
    expect((await call(next.access_token)).status).toBe(401);
  });

  it('refusing on the consent page redirects with access_denied; PKCE is S256 only; a consent link works once', async () => {
    const auth = new AssistantAuth();
    await expect(connect(`${s.base}/mcp?sign-in`, auth)).rejects.toBeInstanceOf(UnauthorizedError);
    const refused = await signInAndChoose(s, auth.authorizationUrl!, email, null);
    expect(refused.searchParams.get('error')).toBe('access_denied');
    expect(refused.searchParams.has('code')).toBe(false);

    const plain = new URL(auth.authorizationUrl!);
    const verifier = randomBytes(32).toString('base64url');
    plain.searchParams.set('code_challenge', verifier);
    plain.searchParams.set('code_challenge_method', 'plain');
    // Refused on a page, not by a redirect to the client: no person has acted yet (RFC 9700 §4.11.2).
    const res = await s.get(plain.href);
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.html).toContain('<code>invalid_request</code>');

    // The same consent link twice: the second is refused, saying why.
    const fresh = new URL(auth.authorizationUrl!);
    fresh.searchParams.set('code_challenge', createHash('sha256').update(verifier).digest('base64url'));
    const page = await s.get(fresh.href);
    const request = /name="request" value="([^"]+)"/.exec(page.html)![1]!;
    await s.post('/oauth/sign-in', { request, email });
    const mail = await s.inbox!.next(email);
    const t = formToken((await s.get(mail.link)).html);
    expect((await s.post('/oauth/consent', { t, decision: 'allow', key: developer.id })).status).toBe(302);
    const twice = await s.post('/oauth/consent', { t, decision: 'allow', key: developer.id });
    expect(twice.status).toBe(410);
    expect(twice.html).toContain('already been answered');
  });

  it("the keys page lists a key's connected assistants; Disconnect ends one's grant, its token refused at the next call", async () => {
    const auth = new AssistantAuth();
    await expect(connect(`${s.base}/mcp?sign-in`, auth)).rejects.toBeInstanceOf(UnauthorizedError);
    const redirect = await signInAndChoose(s, auth.authorizationUrl!, email, academic.id);
    await new StreamableHTTPClientTransport(new URL(`${s.base}/mcp`), { authProvider: auth }).finishAuth(redirect.searchParams.get('code')!);
    const token = auth.saved!.access_token;
    const call = () =>
      fetch(`${s.base}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
    expect((await call()).status).toBe(200);

    expect((await s.post('/keys/manage', { email })).status).toBe(200);
    const mail = await s.inbox!.next(email);
    const page = await s.post('/keys/link', { t: formToken((await s.get(mail.link)).html) });
    const section = new RegExp(`<section data-key-id="${academic.id}">[\\s\\S]*?</section>`).exec(page.html)![0];
    expect(section).toContain('Assistants connected with this key');
    expect(section).toContain('Test Assistant, since');
    const form = /<form[^>]*>(?:(?!<\/form>).)*name="action" value="disconnect"(?:(?!<\/form>).)*<\/form>/s.exec(section)![0];
    const fields = Object.fromEntries([...form.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    const done = await s.post('/keys/link', fields);
    expect(done.status).toBe(200);
    expect(done.html).toContain('Test Assistant is disconnected');
    const refused = await call();
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('disconnected by the key holder');
  });

  it('a confidential client: its secret is shown once at registration, kept only as its SHA-256, and required at the token endpoint', async () => {
    const registered = await fetch(`${s.base}/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Hosted Chat',
        redirect_uris: ['https://chat.example.org/cb'],
        token_endpoint_auth_method: 'client_secret_post',
      }),
    });
    expect(registered.status).toBe(201);
    const client = (await registered.json()) as { client_id: string; client_secret: string };
    expect(client.client_secret).toMatch(/^[0-9a-f]{64}$/);
    const stored = new Database(s.keysPath, { readonly: true });
    const row = stored.prepare('SELECT secret_hash, info FROM oauth_clients WHERE client_id = ?').get(client.client_id) as {
      secret_hash: string;
      info: string;
    };
    stored.close();
    expect(row.secret_hash).toBe(createHash('sha256').update(client.client_secret).digest('hex'));
    expect(row.info).not.toContain(client.client_secret);

    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL(`${s.base}/authorize`);
    for (const [k, v] of Object.entries({
      client_id: client.client_id,
      redirect_uri: 'https://chat.example.org/cb',
      response_type: 'code',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'xyz',
      resource: `${s.base}/mcp`,
    }))
      authorize.searchParams.set(k, v);
    const page = await s.get(authorize.href);
    expect(page.html).toContain('Hosted Chat');
    expect(page.html).toContain('chat.example.org');
    const request = /name="request" value="([^"]+)"/.exec(page.html)![1]!;
    await s.post('/oauth/sign-in', { request, email });
    const mail = await s.inbox!.next(email);
    const consent = await s.get(mail.link);
    expect(consent.headers.get('content-security-policy')).toContain("form-action 'self' https://chat.example.org");
    const answer = await s.post('/oauth/consent', { t: formToken(consent.html), decision: 'allow', key: developer.id });
    const code = new URL(answer.headers.get('location')!).searchParams.get('code')!;
    const token = (secret: string) =>
      fetch(`${s.base}/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          client_id: client.client_id,
          client_secret: secret,
        }),
      });
    const wrong = await token('0'.repeat(64));
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe('invalid_client');
    const right = await token(client.client_secret);
    expect(right.status).toBe(200);
    expect(((await right.json()) as { access_token: string }).access_token).toMatch(/^esgat_/);
  });

  it('a registration presenting a revoked key as its initial access token is refused with why (what mcp-remote shows)', async () => {
    const gone = keys.create({ tier: 'developer', owner: email, email });
    keys.revoke(gone.record.id);
    const res = await fetch(`${s.base}/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${gone.key}` },
      body: JSON.stringify({ client_name: 'x', redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' }),
    });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_token');
    expect(body.error_description).toMatch(/^The key sent was revoked at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\./);
    expect(body.error_description).not.toContain(gone.record.id);
    // A registration with a javascript: redirect is refused whatever the credential.
    const bad = await fetch(`${s.base}/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'x', redirect_uris: ['javascript:alert(1)'], token_endpoint_auth_method: 'none' }),
    });
    expect(bad.status).toBe(400);
  });
});
