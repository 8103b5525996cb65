import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientMetadataDocuments, isPrivateAddress } from '../../../server/oauth/client-metadata.js';
import { MAIL_LIMITS } from '../../../src/contract/key-requests.js';
import { CLIENT_METADATA_LIMITS } from '../../../src/contract/oauth.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';
import { startKeysShim, type KeysShim } from '../../helpers/keys-shim.js';

/**
 * Client ID metadata documents (server/oauth/client-metadata.ts): a client whose id is a URL is
 * described by the document there, fetched by the server under limits, because the URL is a
 * stranger's choice. Documents are served here by a loopback HTTP server, which only a server with
 * OAUTH_CLIENT_METADATA_PRIVATE may read.
 */
let docs: Server;
let base: string;
const bodies = new Map<string, { status?: number; body: string }>();

beforeAll(async () => {
  docs = createServer((req, res) => {
    const doc = bodies.get(req.url ?? '');
    res.writeHead(doc?.status ?? (doc ? 200 : 404), { 'Content-Type': 'application/json' }).end(doc?.body ?? '{}');
  });
  await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
  const doc = (path: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ client_id: `${base}${path}`, client_name: 'Metadata Assistant', redirect_uris: ['http://127.0.0.1:9/cb'], ...extra });
  bodies.set('/good.json', { body: doc('/good.json') });
  bodies.set('/other-id.json', { body: doc('/good.json') });
  bodies.set('/secret.json', { body: doc('/secret.json', { token_endpoint_auth_method: 'client_secret_post' }) });
  bodies.set('/big.json', { body: doc('/big.json', { padding: 'x'.repeat(CLIENT_METADATA_LIMITS.bytes) }) });
  bodies.set('/broken.json', { body: '{not json' });
  bodies.set('/gone.json', { status: 410, body: '{}' });
});
afterAll(() => new Promise<void>((resolve) => docs.close(() => resolve())));

describe('isPrivateAddress', () => {
  it('names loopback, private, link-local, shared and mapped addresses; public ones pass', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      'nonsense',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '140.112.8.116', '2001:4860:4860::8888', '::ffff:8.8.8.8']) expect(isPrivateAddress(a), a).toBe(false);
  });
});

describe('ClientMetadataDocuments', () => {
  const open = new ClientMetadataDocuments({ allowPrivate: true });
  const closed = new ClientMetadataDocuments();

  it('reads a document that names itself, as a public client', async () => {
    const client = await open.client(`${base}/good.json`);
    expect(client).toMatchObject({ client_id: `${base}/good.json`, client_name: 'Metadata Assistant', token_endpoint_auth_method: 'none' });
  });

  it('refuses documents that name another id, want a secret, are too large, are not JSON or are not there', async () => {
    await expect(open.client(`${base}/other-id.json`)).rejects.toThrow(/names another client_id/);
    await expect(open.client(`${base}/secret.json`)).rejects.toThrow(/public client/);
    await expect(open.client(`${base}/big.json`)).rejects.toThrow(new RegExp(`over ${CLIENT_METADATA_LIMITS.bytes} bytes`));
    await expect(open.client(`${base}/broken.json`)).rejects.toThrow(/not JSON/);
    await expect(open.client(`${base}/gone.json`)).rejects.toThrow(/HTTP 410/);
    await expect(open.client(`${base}/`)).rejects.toThrow(/with a path/);
  });

  it('without OAUTH_CLIENT_METADATA_PRIVATE: https only, and never a private address, by literal or by name', async () => {
    await expect(closed.client(`${base}/good.json`)).rejects.toThrow(/must use https/);
    const port = (docs.address() as AddressInfo).port;
    await expect(closed.client(`https://127.0.0.1:${port}/good.json`)).rejects.toThrow(/private address/);
    // A name is checked where the socket connects, on what it resolved to.
    await expect(closed.client(`https://localhost:${port}/good.json`)).rejects.toThrow(/resolves only to private addresses/);
  });
});

describe('a shim reading client metadata documents', () => {
  let s: KeysShim;
  beforeAll(async () => {
    s = await startKeysShim(demoSnapshotsDir, { limits: { ...MAIL_LIMITS, perAddress: 100 }, app: { oauthClientMetadataPrivate: true } });
  }, 60_000);
  afterAll(() => s?.close());

  it('an authorization by a URL client_id shows the name its document gives; a bad document is a 400 that says why', async () => {
    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    const authorize = (clientId: string) =>
      s.get(
        `/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: 'http://127.0.0.1:9/cb', response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', state: 's1' })}`,
      );
    const page = await authorize(`${base}/good.json`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Metadata Assistant');
    const bad = await authorize(`${base}/secret.json`);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.html)).toMatchObject({ error: 'invalid_client' });
    expect(JSON.parse(bad.html).error_description).toMatch(/public client/);
  });
});
