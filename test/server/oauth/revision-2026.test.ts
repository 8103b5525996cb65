import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../../server/access/key-store.js';
import { OAuthStore } from '../../../server/oauth/store.js';
import { MAIL_LIMITS } from '../../../src/contract/key-requests.js';
import { l10n } from '../../../src/site/i18n/index.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';
import { formToken, startKeysShim, type KeysShim } from '../../helpers/keys-shim.js';

/**
 * The authorization rules of MCP 2026-07-28 (docs/specification/2026-07-28/basic/authorization in
 * modelcontextprotocol/modelcontextprotocol) where they ask more than 2025-11-25 did, over HTTP:
 * - /mcp takes only tokens granted for this server (RFC 8707 audience; Token Handling, MUST);
 * - the `resource` of a token request must be the grant's, and never carries a fragment;
 * - redirect URIs are https or localhost ("All redirect URIs MUST be either localhost or use HTTPS");
 * - a redirect to localhost is warned of on the pages and in the mail (Localhost Redirect URI Risks);
 * - a public client revokes without a secret, and the metadata says so; no `scope` is claimed.
 */
let s: KeysShim;
let keys: KeyStore;
let keyId: string;
const email = 'ann@example.org';
const LOOPBACK = 'http://127.0.0.1:9/cb';
const HTTPS = 'https://app.example/cb';

const mcpCall = (token: string) =>
  fetch(`${s.base}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });

const register = (redirect_uris: string[], name = 'Revision Client') =>
  fetch(`${s.base}/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris, token_endpoint_auth_method: 'none' }),
  });
const registered = async (redirect: string) => {
  const res = await register([redirect]);
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
};

/** An authorization request's URL with PKCE; `extra` adds or overrides parameters. */
const authorizeUrl = (clientId: string, redirect: string, verifier: string, extra: Record<string, string> = {}) =>
  `/authorize?${new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirect,
    response_type: 'code',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'st',
    resource: `${s.base}/mcp`,
    ...extra,
  })}`;

/** The sign-in page, the mail and the consent page of one authorization, and the code a person's Allow gives. */
async function signIn(clientId: string, redirect: string, extra: Record<string, string> = {}) {
  const verifier = randomBytes(32).toString('base64url');
  const page = await s.get(authorizeUrl(clientId, redirect, verifier, extra));
  expect(page.status).toBe(200);
  const request = /name="request" value="([^"]+)"/.exec(page.html)![1]!;
  // The sign-in form (the language switch is a form too).
  const action = /<form method="post" action="([^"]+)" class="keys-form">/.exec(page.html)![1]!;
  expect((await s.post(action, { request, email })).status).toBe(200);
  const mail = await s.inbox!.next(email);
  const consent = await s.get(mail.link);
  expect(consent.status).toBe(200);
  const answer = await s.post(new URL(mail.link).pathname, { t: formToken(consent.html), decision: 'allow', key: keyId });
  expect(answer.status).toBe(302);
  const code = new URL(answer.headers.get('location')!).searchParams.get('code')!;
  return { page: page.html, mail: mail.text.replace(/\s+/g, ' '), consent: consent.html, code, verifier };
}

const token = (fields: Record<string, string>) => fetch(`${s.base}/token`, { method: 'POST', body: new URLSearchParams(fields) });

beforeAll(async () => {
  s = await startKeysShim(demoSnapshotsDir, { limits: { ...MAIL_LIMITS, perAddress: 100, perEmail: 100 } });
  keys = KeyStore.open(s.keysPath, { maxStalenessMs: 0 });
  keyId = keys.create({ tier: 'developer', owner: email, email }).record.id;
}, 60_000);
afterAll(async () => {
  keys?.close();
  await s?.close();
});

describe('/mcp takes only tokens granted for this server', () => {
  /** A token of a grant for `resource`, made through the store as a consent would make it. */
  const tokenFor = (resource: string) => {
    const store = new OAuthStore(keys);
    try {
      const request = store.openRequest({
        client_id: 'https://client.example/meta.json',
        client_name: 'Audience Test',
        redirect_uri: HTTPS,
        code_challenge: 'c'.repeat(43),
        state: null,
        resource,
        locale: 'en',
      });
      const code = store.grant(request, keys.liveKeysOf(email)[0]!, email);
      const r = store.exchangeCode(request.client_id, code, undefined);
      if (!r.ok) throw new Error(r.why);
      return r.tokens.access_token;
    } finally {
      store.stop();
    }
  };

  it("a token for another server's resource is 401 invalid_token, saying it is for another resource", async () => {
    const res = await mcpCall(tokenFor('https://other.example/mcp'));
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain('for another resource (https://other.example/mcp)');
    const body = (await res.json()) as { error: { data: { error: { code: string; message: string } } } };
    expect(body.error.data.error.code).toBe('UNAUTHORIZED');
  });

  it('a token for /mcp or for the origin is taken', async () => {
    expect((await mcpCall(tokenFor(`${s.base}/mcp`))).status).toBe(200);
    expect((await mcpCall(tokenFor(`${s.base}/`))).status).toBe(200);
  });
});

describe('the resource of a token request', () => {
  it("must be the grant's, at the code exchange and at a refresh (invalid_target, nothing spent); no fragment anywhere", async () => {
    const clientId = await registered(LOOPBACK);
    const { code, verifier } = await signIn(clientId, LOOPBACK);
    const exchange = (resource: string) => token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, resource });
    for (const resource of [`${s.base}/`, `${s.base}/mcp#frag`, 'https://other.example/mcp']) {
      const wrong = await exchange(resource);
      expect(wrong.status, resource).toBe(400);
      expect(((await wrong.json()) as { error: string }).error, resource).toBe('invalid_target');
    }
    // The code was not spent by the refusals.
    const right = await exchange(`${s.base}/mcp`);
    expect(right.status).toBe(200);
    const tokens = (await right.json()) as { refresh_token: string };

    const refresh = (resource: string) => token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId, resource });
    const other = await refresh(`${s.base}/`);
    expect(other.status).toBe(400);
    const why = (await other.json()) as { error: string; error_description: string };
    expect(why.error).toBe('invalid_target');
    expect(why.error_description).toContain(`not the one this grant is for (${s.base}/mcp)`);
    expect((await refresh(`${s.base}/mcp/`)).status).toBe(200);
  });

  it('an authorization naming a resource with a fragment is a 400 page saying invalid_target', async () => {
    const clientId = await registered(LOOPBACK);
    const res = await s.get(authorizeUrl(clientId, LOOPBACK, 'v'.repeat(43), { resource: `${s.base}/mcp#x` }));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.html).toContain('<code>invalid_target</code>');
    expect(res.html).toContain('fragment');
  });
});

describe('redirect URIs are https or localhost', () => {
  it('a registration with a private-use scheme or plain http to another machine is refused, naming the rule', async () => {
    for (const uri of [
      'cursor://anysphere.cursor-retrieval/oauth/callback',
      'com.example.app:/cb',
      'http://192.168.1.5/cb',
      'https://app.example/cb#x',
    ]) {
      const res = await register([HTTPS, uri]);
      expect(res.status, uri).toBe(400);
      const body = (await res.json()) as { error: string; error_description: string };
      expect(body.error).toBe('invalid_client_metadata');
      expect(body.error_description).toContain(`redirect_uri ${uri} is not allowed: every redirect URI must use https, or be http to localhost`);
    }
    for (const uri of [HTTPS, 'http://localhost:3000/cb', 'http://127.0.0.1:33418/cb', 'http://[::1]:3000/cb'])
      expect((await register([uri])).status, uri).toBe(201);
  });

  it('a client registered before the rule with another scheme is refused at /authorize, on a page', async () => {
    const store = new OAuthStore(keys);
    const { client_id } = store.registerClient({ client_name: 'Old', redirect_uris: ['cursor://old/cb'], token_endpoint_auth_method: 'none' });
    store.stop();
    const res = await s.get(authorizeUrl(client_id, 'cursor://old/cb', 'v'.repeat(43)));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.html).toContain('redirect_uri cursor://old/cb is not allowed');
  });
});

describe('a redirect to localhost is warned of', () => {
  it('on the sign-in page, in the mail and on the consent page, in English', async () => {
    const { page, mail, consent } = await signIn(await registered(LOOPBACK), LOOPBACK);
    for (const html of [page, consent]) {
      expect(html).toContain('<p data-loopback-warning><strong>Be sure this is yours.</strong>');
      expect(html).toContain('an address on the computer where the sign-in began (localhost)');
    }
    expect(mail).toContain('Be sure this is yours: http://127.0.0.1:9 is an address on the computer where the sign-in began (localhost)');
  });

  it('and in Chinese', async () => {
    const zh = l10n('zh-TW');
    const { page, mail, consent } = await signIn(await registered('http://localhost:7777/cb'), 'http://localhost:7777/cb', { ui_locales: 'zh-TW' });
    expect(page).toContain(`action="${zh.u.oauthSignIn}"`);
    for (const html of [page, consent]) {
      expect(html).toContain('<p data-loopback-warning><strong>請確認這是您本人的操作。</strong>');
      expect(html).toContain('<code>http://localhost:7777</code>');
    }
    expect(mail).toContain('請確認這是您本人的操作：http://localhost:7777 是發起登入的那台電腦上的本機位址');
  });

  it('but not a redirect to an https site', async () => {
    const { page, mail, consent } = await signIn(await registered(HTTPS), HTTPS);
    for (const text of [page, consent, mail]) {
      expect(text).toContain('https://app.example');
      expect(text).not.toContain('Be sure this is yours');
    }
  });
});

describe('revocation and scope', () => {
  it('the metadata lists revocation without a secret, and a public client revokes its grant with its client_id alone', async () => {
    const as = (await (await fetch(`${s.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as.revocation_endpoint_auth_methods_supported).toEqual(['client_secret_post', 'none']);

    const clientId = await registered(LOOPBACK);
    const { code, verifier } = await signIn(clientId, LOOPBACK, { scope: 'files:read' });
    const res = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, resource: `${s.base}/mcp` });
    const tokens = (await res.json()) as Record<string, unknown>;
    // No scopes are granted here: the response claims none, whatever the request asked for.
    expect(Object.keys(tokens).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
    const access = tokens.access_token as string;
    expect((await mcpCall(access)).status).toBe(200);
    const revoked = await fetch(`${s.base}/revoke`, { method: 'POST', body: new URLSearchParams({ token: access, client_id: clientId }) });
    expect(revoked.status).toBe(200);
    expect((await mcpCall(access)).status).toBe(401);
  });
});
