import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { KeyStore } from '../../../server/access/key-store.js';
import { MAIL_LIMITS } from '../../../src/contract/key-requests.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';
import { startKeysShim, type KeysShim } from '../../helpers/keys-shim.js';
import { AssistantAuth, signInAndChoose } from './person.js';

/**
 * Sign-in as a 2026-07-28 assistant does it: the SDK v2 client, pinned to 2026-07-28, with its own
 * OAuth client knowing nothing of ours but the URL. It discovers the protected resource and the
 * authorization server, registers, asks for a token for /mcp (RFC 8707 `resource`), a person signs
 * in and allows, and the client checks the redirect's `iss` against the issuer it discovered (RFC
 * 9207, which the 2026-07-28 revision asks of clients) before it exchanges the code. Its calls then
 * count against the key the person chose.
 */
const client2026 = () => new Client({ name: 'oauth-2026-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });

describe('OAuth sign-in for a 2026-07-28 client (SDK v2)', () => {
  let s: KeysShim;
  let keys: KeyStore;
  let developer: { id: string; key: string };
  const email = 'bo@example.org';

  beforeAll(async () => {
    s = await startKeysShim(demoSnapshotsDir, { limits: { ...MAIL_LIMITS, perAddress: 100, perEmail: 100 } });
    keys = KeyStore.open(s.keysPath, { maxStalenessMs: 0 });
    const d = keys.create({ tier: 'developer', owner: email, email });
    developer = { id: d.record.id, key: d.key };
  }, 60_000);
  afterAll(async () => {
    keys?.close();
    await s?.close();
  });

  it('discovers, registers, asks for a token for /mcp, checks iss, and calls tools against the chosen key', async () => {
    const auth = new AssistantAuth();
    const url = new URL(`${s.base}/mcp?sign-in`);
    await expect(client2026().connect(new StreamableHTTPClientTransport(url, { authProvider: auth }))).rejects.toBeInstanceOf(UnauthorizedError);
    // It registered (no metadata document of its own), and asks for a token for this server's /mcp.
    expect(auth.info?.client_id).toMatch(/\S/);
    const asked = auth.authorizationUrl!;
    expect(asked.origin + asked.pathname).toBe(`${s.base}/authorize`);
    expect(asked.searchParams.get('resource')).toBe(`${s.base}/mcp`);
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');

    const redirect = await signInAndChoose(s, asked, email, developer.id);
    const issuer = ((await (await fetch(`${s.base}/.well-known/oauth-authorization-server`)).json()) as { issuer: string }).issuer;
    expect(redirect.searchParams.get('iss')).toBe(issuer);
    expect(redirect.searchParams.getAll('iss')).toHaveLength(1);
    // The SDK compares iss with the issuer it discovered before it sends the code (RFC 9207).
    await new StreamableHTTPClientTransport(url, { authProvider: auth }).finishAuth(redirect.searchParams);
    expect(auth.saved?.access_token).toMatch(/\S/);

    const client = client2026();
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: auth }));
    try {
      const before = await usedToday(s, developer.key);
      const result = await client.callTool({ name: 'get_company', arguments: { ticker: 'D1101' } });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      expect(await usedToday(s, developer.key)).toBe(before + 1);
    } finally {
      await client.close();
    }
  });

  it('a redirect whose iss is not the issuer is refused by the client before any code is sent', async () => {
    const auth = new AssistantAuth();
    const url = new URL(`${s.base}/mcp?sign-in`);
    await expect(client2026().connect(new StreamableHTTPClientTransport(url, { authProvider: auth }))).rejects.toBeInstanceOf(UnauthorizedError);
    const redirect = await signInAndChoose(s, auth.authorizationUrl!, email, developer.id);
    redirect.searchParams.set('iss', 'https://attacker.example/');
    await expect(new StreamableHTTPClientTransport(url, { authProvider: auth }).finishAuth(redirect.searchParams)).rejects.toThrow(/iss|issuer/i);
    expect(auth.saved).toBeUndefined();
  });
});

async function usedToday(s: KeysShim, key: string): Promise<number> {
  const res = await fetch(`${s.base}/api/v1/usage`, { headers: { 'X-API-Key': key } });
  const body = (await res.json()) as { buckets: { bucket: string; used: number }[] };
  return body.buckets.find((b) => b.bucket === 'calls/day')!.used;
}
