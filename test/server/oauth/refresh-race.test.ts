import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../../server/access/key-store.js';
import { OAuthStore } from '../../../server/oauth/store.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';
import { startShimProcess, type ShimProcess } from '../access/processes.js';

/**
 * The probe's race: one refresh token presented to two shims at once (two processes, one keys
 * database) gave 500 (SQLITE_BUSY_SNAPSHOT, not logged) and escaped reuse detection in 9 of 40
 * races, so both a thief and the client could hold live tokens. Now the rotation's read, check and
 * write are one IMMEDIATE transaction: whichever shim is second sees the token spent and revokes the
 * grant, so however the two are timed there is never a 500, at most one answer with tokens, and
 * the grant (with those tokens) is revoked.
 */
const RACES = 30; // Under the SDK token limiter's 50 a client address per 15 minutes, on each shim.

let dir: string;
let keysDb: string;
let keys: KeyStore;
let store: OAuthStore;
let shims: ShimProcess[] = [];
let keyRecord: Parameters<OAuthStore['grant']>[1];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'esg-oauth-race-'));
  keysDb = join(dir, 'keys.sqlite');
  keys = KeyStore.open(keysDb, { maxStalenessMs: 0 });
  store = new OAuthStore(keys);
  keyRecord = keys.create({ tier: 'developer', owner: 'ann@example.org', email: 'ann@example.org' }).record;
  const env = {
    SNAPSHOTS_DIR: demoSnapshotsDir,
    KEYS_DB: keysDb,
    LOG_LEVEL: 'warn',
    // Sign-in on: mail settings (nothing is mailed here) and a loopback issuer.
    SMTP_URL: 'smtp://127.0.0.1:9',
    SMTP_FROM: 'keys@example.org',
    PUBLIC_URL: 'http://127.0.0.1:9',
  };
  shims = await Promise.all([startShimProcess(env), startShimProcess(env)]);
}, 120_000);
afterAll(async () => {
  await Promise.all(shims.map((s) => s.stop()));
  keys?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A consented grant and its first tokens, written straight to the keys database as a sign-in would. */
function freshGrant(clientId: string): { grantId: string; refresh: string } {
  const request = store.openRequest({
    client_id: clientId,
    client_name: 'Racer',
    redirect_uri: 'http://127.0.0.1:9/cb',
    code_challenge: 'x',
    state: null,
    resource: 'http://127.0.0.1:9/mcp',
    locale: 'en',
  });
  const code = store.grant(request, keyRecord, 'ann@example.org');
  const first = store.exchangeCode(clientId, code, undefined);
  if (!first.ok) throw new Error(first.why);
  const grantId = (store.grantsOfKey(keyRecord.id).at(-1) as { id: string }).id;
  return { grantId, refresh: first.tokens.refresh_token };
}

const postRefresh = async (shim: ShimProcess, clientId: string, refresh: string): Promise<Answer> => {
  const res = await fetch(`${shim.base}/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: clientId, refresh_token: refresh }),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
};

interface Answer {
  status: number;
  body: { access_token?: string; error?: string };
}

/**
 * The same POST /token to every shim at the same instant, as a race is best made: each request
 * written whole but its last byte, then, once the shims have read the rest, every last byte in one
 * tick (so neither shim's work starts before the other's has).
 */
async function raceRefresh(clientId: string, refresh: string): Promise<Answer[]> {
  const body = new URLSearchParams({ grant_type: 'refresh_token', client_id: clientId, refresh_token: refresh }).toString();
  const head = `POST /token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  const sockets = await Promise.all(
    shims.map(
      (s) =>
        new Promise<Socket>((resolve, reject) => {
          const socket = connect(s.port, '127.0.0.1', () => resolve(socket));
          socket.once('error', reject);
        }),
    ),
  );
  const answers = sockets.map(
    (socket) =>
      new Promise<Answer>((resolve, reject) => {
        let text = '';
        socket.setEncoding('utf8').on('data', (c: string) => (text += c));
        socket.once('error', reject);
        socket.once('end', () => {
          const [headers = '', json = ''] = text.split('\r\n\r\n');
          resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(headers)?.[1]), body: JSON.parse(json) as Answer['body'] });
        });
        socket.write(head + body.slice(0, -1));
      }),
  );
  await new Promise((r) => setTimeout(r, 30));
  for (const socket of sockets) socket.write(body.slice(-1));
  return Promise.all(answers);
}

describe('a refresh token raced on two shims', () => {
  it(
    `never yields two live token pairs or a 500, in ${RACES} races; the grant ends revoked`,
    async () => {
      const { client_id: clientId } = store.registerClient({
        redirect_uris: ['http://127.0.0.1:9/cb'],
        token_endpoint_auth_method: 'none',
        client_name: 'Racer',
      });
      const statuses: number[] = [];
      const escaped: string[] = [];
      for (let i = 0; i < RACES; i++) {
        const { grantId, refresh } = freshGrant(clientId);
        const answers = await raceRefresh(clientId, refresh);
        statuses.push(...answers.map((a) => a.status));
        const issued = answers.filter((a) => a.status === 200);
        expect(issued.length, `race ${i}`).toBeLessThanOrEqual(1);
        for (const a of answers) if (a.status !== 200) expect(a.body.error, `race ${i}`).toBe('invalid_grant');
        // The replay was seen: the grant is revoked, and the tokens the first answer carried are refused.
        const grant = store.grantsOfKey(keyRecord.id).find((g) => g.id === grantId);
        if (grant) escaped.push(`race ${i}: grant still live`);
        for (const a of issued) if (store.checkAccess(a.body.access_token!).ok) escaped.push(`race ${i}: issued token live`);
      }
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      expect(escaped).toEqual([]);
    },
    RACES * 5_000,
  );

  it('a keys database locked past busy_timeout is temporarily_unavailable (400) and logged, not a 500; nothing is spent', async () => {
    const { client_id: clientId } = store.registerClient({ redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' });
    const { refresh } = freshGrant(clientId);
    const db = keys.connection();
    // The keys command, a backup or a stuck shim holding the write lock longer than a shim waits.
    db.exec('BEGIN IMMEDIATE');
    let locked: Answer;
    try {
      locked = await postRefresh(shims[0]!, clientId, refresh);
    } finally {
      db.exec('COMMIT');
    }
    expect(locked.status).toBe(400);
    expect(locked.body.error).toBe('temporarily_unavailable');
    // The shim's log arrives through a pipe: on a busy machine a moment after the answer (bounded wait).
    const loggedLine = () =>
      shims[0]!
        .log()
        .split('\n')
        .find((line) => line.includes('oauth: refresh found the keys database locked'));
    for (const end = Date.now() + 5_000; loggedLine() === undefined && Date.now() < end;) await new Promise((r) => setTimeout(r, 50));
    expect(loggedLine()).toContain('"code":"SQLITE_BUSY');
    const again = await postRefresh(shims[1]!, clientId, refresh);
    expect(again.status).toBe(200);
  }, 30_000);
});
