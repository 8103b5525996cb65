import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../../server/access/key-store.js';
import { MAIL_LIMITS } from '../../../src/contract/key-requests.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';
import { startKeysShim, type KeysShim } from '../../helpers/keys-shim.js';

/**
 * The probe of the sign-in, tried again as it was tried: a client registered (no login
 * needed) or described by a metadata document, then /authorize and the sign-in page driven by hand.
 * - An invalid authorization request was a 302 to the client's https redirect URI, with no person
 *   involved (an open redirector, RFC 9700 §4.11.2): now a 400 page, in the frame the OAuth pages use.
 * - A client's name (newlines, links, 99 KB) was mailed word for word to any address typed on the
 *   sign-in page, and the mail never said where the code goes: now a name is one line of plain
 *   text, at most 100 characters, and the mail and the consent page name the redirect's origin.
 */
let s: KeysShim;
let keys: KeyStore;
let docs: Server;
let docsBase: string;
const email = 'ann@example.org';
const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
const ATTACKER = 'https://attacker.example/landing';

const register = (metadata: Record<string, unknown>) =>
  fetch(`${s.base}/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token_endpoint_auth_method: 'none', redirect_uris: [ATTACKER], ...metadata }),
  });
const registered = async (metadata: Record<string, unknown>) => {
  const res = await register(metadata);
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
};
const authorize = (params: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${s.base}/authorize?${new URLSearchParams(params)}`, { redirect: 'manual', headers });

/** The page frame the OAuth pages use (the keys page's frame, from the snapshot's site). */
const expectFramedPage = async (res: Response, status: number) => {
  expect(res.status).toBe(status);
  expect(res.headers.get('location')).toBeNull();
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  const html = await res.text();
  expect(html).toMatch(/^<!doctype html>/i);
  expect(html).toContain('class="keys-flow"');
  return html;
};

beforeAll(async () => {
  docs = createServer((req, res) => {
    const id = `${docsBase}${req.url}`;
    res
      .writeHead(200, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ client_id: id, client_name: 'Document Client', redirect_uris: [ATTACKER], token_endpoint_auth_method: 'none' }));
  });
  await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
  docsBase = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
  s = await startKeysShim(demoSnapshotsDir, {
    limits: { ...MAIL_LIMITS, perAddress: 100, perEmail: 100 },
    app: { oauthClientMetadataPrivate: true },
  });
  keys = KeyStore.open(s.keysPath, { maxStalenessMs: 0 });
  keys.create({ tier: 'developer', owner: email, email });
}, 60_000);
afterAll(async () => {
  keys?.close();
  await s?.close();
  await new Promise<void>((resolve) => docs?.close(() => resolve()));
});

describe('no redirect to a client before a person has acted', () => {
  const invalid: [string, Record<string, string>][] = [
    ['no PKCE challenge', { response_type: 'code' }],
    ['response_type=token', { response_type: 'token', code_challenge: challenge, code_challenge_method: 'S256' }],
    ['a plain PKCE challenge', { response_type: 'code', code_challenge: challenge, code_challenge_method: 'plain' }],
    [
      'a resource of another server',
      { response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', resource: 'https://other.example/mcp' },
    ],
  ];

  it.each(invalid)('a registered client with an https redirect URI and %s: a 400 page, no Location', async (_what, params) => {
    const clientId = await registered({ client_name: 'Redirector' });
    const res = await authorize({ client_id: clientId, redirect_uri: ATTACKER, state: 'x', ...params });
    const html = await expectFramedPage(res, 400);
    expect(html).toContain('This sign-in request is not valid');
    expect(html).not.toContain('attacker.example');
  });

  it('a metadata document naming an https redirect URI: the same', async () => {
    const res = await authorize({ client_id: `${docsBase}/client.json`, redirect_uri: ATTACKER, response_type: 'code' });
    await expectFramedPage(res, 400);
  });

  it('an unknown client or an unregistered redirect URI: the page too (not JSON), in the language asked for', async () => {
    const unknown = await authorize({ client_id: 'no-such-client', response_type: 'code' }, { 'Accept-Language': 'zh-TW' });
    expect(await expectFramedPage(unknown, 400)).toContain('此登入要求無效');
    const clientId = await registered({ client_name: 'Redirector' });
    const elsewhere = await authorize({ client_id: clientId, redirect_uri: 'https://elsewhere.example/cb', response_type: 'code' });
    expect(await expectFramedPage(elsewhere, 400)).toContain('Unregistered redirect_uri');
  });
});

describe('client names are one line of plain text, and the mail says where the code goes', () => {
  it('refuses at registration a name with newlines, a link, bidirectional overrides, or over 100 characters', async () => {
    for (const client_name of [
      'Claude\n\nYour keys expire today: confirm at the link below',
      'Claude (verify at https://attacker.example/login)',
      'Claude for www.attacker.example',
      'Claude \u202egnp.exe',
      'x'.repeat(99_000),
      'y'.repeat(101),
    ]) {
      const res = await register({ client_name });
      expect(res.status, JSON.stringify(client_name.slice(0, 60))).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe('invalid_client_metadata');
    }
    expect((await register({ client_name: 'z'.repeat(100) })).status).toBe(201);
    expect((await register({ client_name: 'Claude Desktop（桌面版）' })).status).toBe(201);
  });

  it('the sign-in page, the mail and the consent page name the redirect URI origin', async () => {
    const clientId = await registered({ client_name: 'Honest Assistant', redirect_uris: ['https://app.example:8443/oauth/cb'] });
    const signIn = await authorize({
      client_id: clientId,
      response_type: 'code',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    expect(signIn.status).toBe(200);
    const page = await signIn.text();
    expect(page).toContain('<code>https://app.example:8443</code>');
    const request = /name="request" value="([^"]+)"/.exec(page)![1]!;
    expect((await s.post('/oauth/sign-in', { request, email })).status).toBe(200);
    const mail = await s.inbox!.next(email);
    const text = mail.text.replace(/\s+/g, ' ');
    // The name the client gave, quoted as its claim; the origin is what a person checks it against.
    expect(text).toContain('An application calling itself "Honest Assistant" asked');
    expect(text).toContain('is sent to https://app.example:8443.');
    const consent = await s.get(mail.link);
    expect(consent.status).toBe(200);
    expect(consent.html).toContain('<code>https://app.example:8443</code>');
  });
});
