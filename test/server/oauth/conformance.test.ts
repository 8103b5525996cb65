import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../../server/access/key-store.js';
import { MAIL_LIMITS } from '../../../src/contract/key-requests.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';
import { startKeysShim, type KeysShim } from '../../helpers/keys-shim.js';
import { freePort } from '../access/processes.js';
import { runConformance, unmet } from '../../helpers/mcp-conformance.js';
import { signInAndChoose } from './person.js';

/**
 * The official conformance suite's authorization-server scenarios (`conformance authorization`)
 * against the shim's own authorization server, at 2026-07-28 and at 2025-11-25: the metadata
 * document, and an authorization code grant with PKCE, `state`, `iss` and the RFC 8707 resource,
 * for a client registered here with the suite's callback as its redirect URI. The suite prints the
 * URL a person opens; the test is that person (the sign-in page, the mailed link, Allow), and the
 * browser's redirect lands on the suite's callback server, which exchanges the code.
 */
let s: KeysShim;
let keys: KeyStore;
let keyId: string;
const email = 'cy@example.org';

beforeAll(async () => {
  s = await startKeysShim(demoSnapshotsDir, { limits: { ...MAIL_LIMITS, perAddress: 100, perEmail: 100 } });
  keys = KeyStore.open(s.keysPath, { maxStalenessMs: 0 });
  keyId = keys.create({ tier: 'developer', owner: email, email }).record.id;
}, 60_000);
afterAll(async () => {
  keys?.close();
  await s?.close();
});

/** A public client registered at /register (RFC 7591) whose redirect URI is the suite's callback on `port`. */
async function register(port: number): Promise<string> {
  const res = await fetch(`${s.base}/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Conformance Suite',
      redirect_uris: [`http://127.0.0.1:${port}/callback`],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

describe.each(['2026-07-28', '2025-11-25'])('the authorization server, conformance at %s', (revision) => {
  it('serves its metadata and completes an authorization code grant', async () => {
    const port = await freePort();
    const clientId = await register(port);
    let signedIn: Promise<void> | undefined;
    const run = await runConformance(
      [
        'authorization',
        '--url',
        `${s.base}/`,
        '--client-id',
        clientId,
        '--resource',
        `${s.base}/mcp`,
        '-p',
        String(port),
        '--spec-version',
        revision,
      ],
      {
        timeoutMs: 120_000,
        onLine: (line) => {
          const url = line.trim();
          if (!url.startsWith(`${s.base}/authorize?`)) return;
          signedIn = (async () => {
            const redirect = await signInAndChoose(s, new URL(url), email, keyId, { name: 'Conformance Suite', redirectHost: `127.0.0.1:${port}` });
            expect(redirect.origin).toBe(`http://127.0.0.1:${port}`);
            await fetch(redirect); // the browser follows the redirect to the suite's callback server
          })();
        },
      },
    );
    await signedIn;
    expect([...run.scenarios.keys()].sort(), run.output).toEqual(['authorization-code-grant', 'authorization-server-metadata-endpoint']);
    for (const [scenario, checks] of run.scenarios) {
      expect(checks.length, scenario).toBeGreaterThan(0);
      expect(unmet(checks), `${scenario}\n${run.output}`).toEqual([]);
      expect(
        checks.filter((c) => c.status === 'SKIPPED' || c.status === 'WARNING').map((c) => c.id),
        scenario,
      ).toEqual([]);
    }
  }, 150_000);
});
