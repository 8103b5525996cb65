import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeyStore } from '../../../server/access/key-store.js';
import { OAuthStore } from '../../../server/oauth/store.js';
import { OAUTH_LIFETIMES, OAUTH_RETENTION } from '../../../src/contract/oauth.js';

/**
 * Registration needs no sign-in and /authorize no person (1,000 registrations added 95 MB
 * to the keys database, 500 authorizations 51 MB): their rows expire and are deleted by the schedule
 * of OAUTH_RETENTION (docs/keys-and-quotas.md "Limits and caps"), and live ones are kept.
 */
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let dir: string;
let keys: KeyStore;
let store: OAuthStore;
const clock = { now: Date.UTC(2026, 10, 23, 10) };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'esg-oauth-prune-'));
  keys = KeyStore.open(join(dir, 'keys.sqlite'));
  store = new OAuthStore(keys, { clock: () => clock.now });
});
afterEach(() => {
  store.stop();
  keys.close();
  rmSync(dir, { recursive: true, force: true });
});

const register = (name = 'Assistant') =>
  store.registerClient({ client_name: name, redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' }).client_id;
const open = (clientId: string) =>
  store.openRequest({
    client_id: clientId,
    client_name: 'Assistant',
    redirect_uri: 'http://127.0.0.1:9/cb',
    code_challenge: 'c'.repeat(43),
    state: null,
    resource: 'https://esg.example.org/mcp',
    locale: 'en',
  });
/** A person consents and the client takes its tokens: a live grant. */
const signIn = (clientId: string) => {
  const { record } = keys.create({ tier: 'developer', owner: 'someone', email: 'someone@example.org' });
  const code = store.grant(open(clientId), record, 'someone@example.org');
  const r = store.exchangeCode(clientId, code, undefined);
  if (!r.ok) throw new Error(r.why);
  return r.tokens;
};

describe('pending authorizations', () => {
  it('are deleted an hour after their link expired; live ones and the recently expired are kept', () => {
    const old = open(register());
    clock.now += OAUTH_LIFETIMES.requestMs + OAUTH_RETENTION.requestKeptMs - MINUTE;
    const recent = open(register());
    expect(store.request(old.id)).toEqual({ ok: false, why: 'expired' }); // within the hour: says why
    clock.now += 2 * MINUTE;
    expect(store.prune().requests).toBe(1);
    expect(store.request(old.id)).toEqual({ ok: false, why: 'unknown' });
    expect(store.request(recent.id).ok).toBe(true);
  });

  it('are deleted at the next write once over, without waiting for the timer', () => {
    const clientId = register();
    const old = open(clientId);
    clock.now += OAUTH_LIFETIMES.requestMs + OAUTH_RETENTION.requestKeptMs + MINUTE;
    open(clientId);
    expect(store.request(old.id)).toEqual({ ok: false, why: 'unknown' });
  });

  it(`at most ${OAUTH_RETENTION.maxRequests} are kept: the oldest go first`, () => {
    const clientId = register();
    const first = open(clientId);
    clock.now += 1;
    const second = open(clientId);
    const db = keys.connection();
    // Filled to the cap without 10,000 writes through the store: copies of the second, a moment later.
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO oauth_requests SELECT 'filler' || i, client_id, client_name, redirect_uri, code_challenge, state, resource, locale, expires_at + 1, NULL
         FROM oauth_requests, n WHERE id = ?`,
    ).run(OAUTH_RETENTION.maxRequests - 2, second.id);
    clock.now += 1;
    const newest = open(clientId);
    expect(db.prepare('SELECT COUNT(*) FROM oauth_requests').pluck().get()).toBe(OAUTH_RETENTION.maxRequests);
    expect([store.request(first.id).ok, store.request(second.id).ok, store.request(newest.id).ok]).toEqual([false, true, true]);
  });
});

describe('registrations', () => {
  it('one never used at /authorize is deleted after a day; one used, or younger, is kept', () => {
    const unused = register();
    const used = register();
    open(used);
    clock.now += DAY - MINUTE;
    const young = register();
    clock.now += 2 * MINUTE;
    expect(store.prune().registrations).toBe(1);
    expect([store.client(unused), store.client(used)?.client_id, store.client(young)?.client_id]).toEqual([undefined, used, young]);
  });

  it('one with a live grant is kept however long ago it was used; without one, deleted 30 days after its last use', () => {
    const withGrant = register();
    const tokens = signIn(withGrant);
    const without = register();
    open(without);
    clock.now += OAUTH_RETENTION.idleRegistrationMs - MINUTE;
    // A refresh within the refresh token's month keeps the grant live and counts as a use.
    expect(store.refresh(withGrant, tokens.refresh_token).ok).toBe(true);
    clock.now += 2 * MINUTE;
    store.prune();
    expect([store.client(withGrant)?.client_id, store.client(without)]).toEqual([withGrant, undefined]);
  });

  it('one whose grant was revoked is deleted 30 days after its last use', () => {
    const clientId = register();
    const tokens = signIn(clientId);
    store.revokeToken(clientId, tokens.access_token);
    clock.now += OAUTH_RETENTION.idleRegistrationMs + MINUTE;
    store.prune();
    expect(store.client(clientId)).toBeUndefined();
  });

  it(`at most ${OAUTH_RETENTION.maxUnusedRegistrations} never used are kept: the oldest go first; used ones are not counted`, () => {
    const used = register();
    open(used);
    const first = register();
    clock.now += 1;
    const db = keys.connection();
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO oauth_clients (client_id, secret_hash, info, created_at) SELECT 'filler' || i, NULL, '{}', ? FROM n`,
    ).run(OAUTH_RETENTION.maxUnusedRegistrations - 1, clock.now);
    clock.now += 1;
    const newest = register();
    expect(db.prepare('SELECT COUNT(*) FROM oauth_clients WHERE used_at IS NULL').pluck().get()).toBe(OAUTH_RETENTION.maxUnusedRegistrations);
    expect([store.client(used)?.client_id, store.client(first), store.client(newest)?.client_id]).toEqual([used, undefined, newest]);
  });

  it('a database made before used_at: clients with grants are counted as used at registration, so a live grant keeps them', () => {
    const clientId = register();
    signIn(clientId);
    store.stop();
    const db = new Database(join(dir, 'keys.sqlite'));
    db.exec('DROP INDEX oauth_clients_by_use; ALTER TABLE oauth_clients DROP COLUMN used_at');
    db.close();
    store = new OAuthStore(keys, { clock: () => clock.now });
    clock.now += 2 * DAY;
    store.prune();
    expect(store.client(clientId)?.client_id).toBe(clientId);
  });
});
