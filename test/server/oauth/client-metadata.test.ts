import { createServer, type Server, type ServerResponse } from 'node:http';
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
const bodies = new Map<string, { status?: number; body: string; headers?: Record<string, string> }>();
/** How many times each path was fetched (the cache's test). */
const hits = new Map<string, number>();

beforeAll(async () => {
  docs = createServer((req, res) => {
    if (req.url === '/drip.json') return drip(res);
    const doc = bodies.get(req.url ?? '');
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
    res.writeHead(doc?.status ?? (doc ? 200 : 404), { 'Content-Type': 'application/json', ...doc?.headers }).end(doc?.body ?? '{}');
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
  bodies.set('/http-redirect.json', { body: doc('/http-redirect.json', { redirect_uris: ['http://evil.example/cb'] }) });
  bodies.set('/two-lines.json', { body: doc('/two-lines.json', { client_name: 'Claude\nYour account is locked: reply with your key' }) });
  bodies.set('/long-name.json', { body: doc('/long-name.json', { client_name: 'x'.repeat(101) }) });
  bodies.set('/nameless.json', { body: doc('/nameless.json', { client_name: undefined }) });
  bodies.set('/blank-name.json', { body: doc('/blank-name.json', { client_name: '  ' }) });
  bodies.set('/private-scheme.json', {
    body: doc('/private-scheme.json', { redirect_uris: ['cursor://anysphere.cursor-retrieval/oauth/callback'] }),
  });
  const now = new Date();
  for (const [path, headers] of Object.entries<Record<string, string>>({
    '/cache/none.json': {},
    '/cache/no-store.json': { 'Cache-Control': 'no-store' },
    '/cache/no-cache.json': { 'Cache-Control': 'public, no-cache' },
    '/cache/max-age-0.json': { 'Cache-Control': 'max-age=0' },
    '/cache/max-age-1.json': { 'Cache-Control': 'public, max-age=1' },
    '/cache/max-age-day.json': { 'Cache-Control': 'max-age=86400' },
    '/cache/aged.json': { 'Cache-Control': 'max-age=600', Age: '600' },
    '/cache/expired.json': { Expires: new Date(now.getTime() - 60_000).toUTCString(), Date: now.toUTCString() },
    '/cache/bad-expires.json': { Expires: '0' },
    '/cache/expires-later.json': { Expires: new Date(now.getTime() + 3_600_000).toUTCString(), Date: now.toUTCString() },
  }))
    bodies.set(path, { body: doc(path), headers });
  dripped = doc('/drip.json');
});
afterAll(() => {
  docs.closeAllConnections();
  return new Promise<void>((resolve) => docs.close(() => resolve()));
});

/** What the probe did: a valid document, sent as a space a second for longer than the deadline, then the rest. */
const DRIP_SECONDS = Math.ceil(CLIENT_METADATA_LIMITS.timeoutMs / 1000) + 3;
let dripped = '';
function drip(res: ServerResponse) {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  let sent = 0;
  const timer = setInterval(() => {
    if (res.destroyed) return clearInterval(timer);
    if (++sent < DRIP_SECONDS) return void res.write(' ');
    clearInterval(timer);
    res.end(dripped);
  }, 1000);
  res.on('close', () => clearInterval(timer));
}

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

  /** One address in each special-purpose range (IANA's registries), loopback embedded where a form embeds IPv4. */
  const SPECIAL = [
    '192.0.0.8',
    '192.0.2.1',
    '192.31.196.1',
    '192.52.193.1',
    '192.88.99.1',
    '192.175.48.1',
    '198.18.0.1',
    '198.51.100.1',
    '203.0.113.1',
    '224.0.0.1',
    '240.0.0.1',
    '255.255.255.255',
    '64:ff9b::7f00:1', // NAT64 well-known prefix, 127.0.0.1 inside
    '64:ff9b::a9fe:a9fe', // NAT64, 169.254.169.254 inside
    '64:ff9b:1::808:808', // local-use NAT64, whatever inside
    '2002:7f00:1::1', // 6to4, 127.0.0.1 inside
    '2002:808:808::1', // 6to4 of a public address: still a relay's
    '::7f00:1', // IPv4-compatible, 127.0.0.1 inside
    '::808:808', // IPv4-compatible (deprecated) of a public address
    '::ffff:a00:1', // IPv4-mapped, written in hex: 10.0.0.1
    '::ffff:0:7f00:1', // IPv4-translated (SIIT)
    '100::1', // discard-only
    '2001::1', // Teredo
    '2001:2::1', // benchmarking
    '2001:db8::1', // documentation
    '2620:4f:8000::1', // AS112
    '3fff::1', // documentation
    '5f00::1', // SRv6 SIDs
    'fec0::1', // site-local
    'ff02::1', // multicast
  ];

  it('names an address in every special-purpose range, and an embedded private IPv4 address in any form', () => {
    for (const a of SPECIAL) expect(isPrivateAddress(a), a).toBe(true);
    // NAT64's well-known prefix is how an IPv6-only network reaches public IPv4 hosts: judged by what it embeds.
    expect(isPrivateAddress('64:ff9b::808:808')).toBe(false);
  });

  it("refuses a client_id URL whose host is such a literal, before connecting (the probe's NAT64, 6to4 and IPv4-compatible forms)", async () => {
    const closed = new ClientMetadataDocuments();
    for (const a of SPECIAL.filter((x) => x.includes(':')))
      await expect(closed.client(`https://[${a}]/client.json`), a).rejects.toThrow(/private address/);
    for (const a of SPECIAL.filter((x) => !x.includes(':')))
      await expect(closed.client(`https://${a}/client.json`), a).rejects.toThrow(/private address/);
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

  it('refuses a document whose redirect URI is plain http to another host, as registration does', async () => {
    await expect(open.client(`${base}/http-redirect.json`)).rejects.toThrow(/redirect_uri http:\/\/evil\.example\/cb is not allowed/);
  });

  it('refuses a document whose name is more than one line, or over 100 characters', async () => {
    await expect(open.client(`${base}/two-lines.json`)).rejects.toThrow(/one line of plain text/);
    await expect(open.client(`${base}/long-name.json`)).rejects.toThrow(/over 100 characters/);
  });

  it('refuses a document without a client_name (the MCP spec requires one: the pages and the mail show it)', async () => {
    await expect(open.client(`${base}/nameless.json`)).rejects.toThrow(/client_name is missing, and a metadata document must have one/);
    await expect(open.client(`${base}/blank-name.json`)).rejects.toThrow(/client_name is missing/);
  });

  it('refuses a document whose redirect URI is a private-use scheme (MCP 2026-07-28: https or localhost only)', async () => {
    await expect(open.client(`${base}/private-scheme.json`)).rejects.toThrow(
      /redirect_uri cursor:\/\/anysphere\.cursor-retrieval\/oauth\/callback is not allowed: every redirect URI must use https, or be http to localhost/,
    );
  });

  it('reuses a document as long as its HTTP cache headers allow, an hour at the most', async () => {
    const documents = new ClientMetadataDocuments({ allowPrivate: true });
    const twice = async (path: string) => {
      hits.delete(path);
      await documents.client(`${base}${path}`);
      await documents.client(`${base}${path}`);
      return hits.get(path);
    };
    // Fetched once: cached (no header says otherwise, or it says longer than the two calls take).
    for (const path of ['/cache/none.json', '/cache/max-age-day.json', '/cache/expires-later.json']) expect(await twice(path), path).toBe(1);
    // Fetched each time: not to be stored, to be revalidated, or stale already.
    for (const path of [
      '/cache/no-store.json',
      '/cache/no-cache.json',
      '/cache/max-age-0.json',
      '/cache/aged.json',
      '/cache/expired.json',
      '/cache/bad-expires.json',
    ])
      expect(await twice(path), path).toBe(2);
    // A second's max-age: cached within it, fetched again after it.
    expect(await twice('/cache/max-age-1.json')).toBe(1);
    await new Promise((r) => setTimeout(r, 1100));
    await documents.client(`${base}/cache/max-age-1.json`);
    expect(hits.get('/cache/max-age-1.json')).toBe(2);
  });

  it("caps what a document asks at an hour: a day's max-age is fetched again after the hour", async () => {
    const clock = { shiftMs: 0 };
    const documents = new ClientMetadataDocuments({ allowPrivate: true, clock: () => Date.now() + clock.shiftMs });
    const path = '/cache/max-age-day.json';
    hits.delete(path);
    await documents.client(`${base}${path}`);
    clock.shiftMs = CLIENT_METADATA_LIMITS.cacheMs - 1000;
    await documents.client(`${base}${path}`);
    expect(hits.get(path)).toBe(1);
    clock.shiftMs = CLIENT_METADATA_LIMITS.cacheMs + 1000;
    await documents.client(`${base}${path}`);
    expect(hits.get(path)).toBe(2);
  });

  it(
    'gives a document a total deadline: one sent a byte a second is refused at the deadline, not accepted at its end',
    async () => {
      const started = Date.now();
      await expect(open.client(`${base}/drip.json`)).rejects.toThrow(/did not arrive within/);
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(CLIENT_METADATA_LIMITS.timeoutMs - 50);
      expect(took).toBeLessThan(CLIENT_METADATA_LIMITS.timeoutMs + 1500);
    },
    (DRIP_SECONDS + 5) * 1000,
  );

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

  it('an authorization by a URL client_id shows the name its document gives; a bad document is a 400 page that says why', async () => {
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
    expect(bad.headers.get('content-type')).toMatch(/^text\/html/);
    expect(bad.html).toContain('<code>invalid_client</code>');
    expect(bad.html).toMatch(/public client/);
    const nameless = await authorize(`${base}/nameless.json`);
    expect(nameless.status).toBe(400);
    expect(nameless.html).toContain('<code>invalid_client</code>');
    expect(nameless.html).toContain('client_name is missing, and a metadata document must have one');
  });
});
