import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACT_LIFETIME_MS, LINK_LIFETIME_MS, MAIL_LIMITS } from '../../../src/contract/key-requests.js';
import { PAGE_CSP } from '../../../src/contract/security.js';
import { KeyRequests } from '../../../server/access/key-requests.js';
import { KeyStore } from '../../../server/access/key-store.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';
import { startInbox } from '../../helpers/smtp.js';
import { freePort, startShimProcess, type ShimProcess } from './processes.js';
import { formToken, shownKey, startKeysShim, type KeysShim } from '../../helpers/keys-shim.js';

const run = promisify(execFile);
const KEY = /^esg_[0-9a-f]{10}_[A-Za-z0-9_-]{43}$/;

/** A metered call (a query string) with a key: what the key is for. */
const ranking = (s: KeysShim, key: string) =>
  fetch(`${s.base}/api/v1/ranking?limit=2`, { headers: { 'X-API-Key': key }, signal: AbortSignal.timeout(10_000) });

/** `npm run keys -- …` against the shim's keys database, with its SMTP settings (as an operator's shell would have them). */
const keysCommand = (s: KeysShim, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'server/cli/keys.ts', ...args], {
    env: { ...process.env, KEYS_DB: s.keysPath, SMTP_URL: s.mail!.smtpUrl, SMTP_FROM: s.mail!.from, PUBLIC_URL: s.mail!.publicUrl },
    timeout: 30_000,
  });

/** Asks for a key on the page, follows the mailed link's button, and returns the page it leads to. */
async function askAndConfirm(s: KeysShim, email: string, tier = 'developer', prefix = '') {
  const asked = await s.post(`${prefix}/keys/ask`, { tier, email, use: 'Scoring the disclosures of my portfolio' });
  expect(asked.status).toBe(200);
  const mail = await s.inbox!.next(email);
  const page = await s.get(mail.link);
  expect(page.status).toBe(200);
  // The GET a mail scanner makes spends nothing: the same link opens again, with the same button.
  const scanned = await s.get(mail.link);
  expect(scanned.status).toBe(200);
  expect(formToken(scanned.html)).toBe(formToken(page.html));
  return { mail, page, done: await s.post(`${prefix}/keys/link`, { t: formToken(page.html) }) };
}

/** Asks for a link to one's keys and opens it: the usage page with its rotate and revoke buttons. */
async function openKeys(s: KeysShim, email: string) {
  expect((await s.post('/keys/manage', { email })).status).toBe(200);
  const mail = await s.inbox!.next(email);
  const page = await s.get(mail.link);
  return s.post('/keys/link', { t: formToken(page.html) });
}

describe('keys from the page, through a real SMTP server', () => {
  let s: KeysShim;
  beforeAll(async () => {
    // Every flow of this file comes from one loopback address: its own limit is tested on a shim of its own below.
    s = await startKeysShim(demoSnapshotsDir, { limits: { ...MAIL_LIMITS, perAddress: 100 } });
  }, 60_000);
  afterAll(() => s?.close());

  it('asks, confirms, shows the key once; the key is metered; usage, rotate and revoke by mailed links', async () => {
    const email = 'ann@example.org';
    const { mail, page, done } = await askAndConfirm(s, email);
    expect(mail.subject).toBe('Confirm your request for an API key');
    expect(mail.link.startsWith(`${s.base}/keys/link?t=`)).toBe(true);
    expect(formToken(page.html)).not.toBe('');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-security-policy')).toBe(PAGE_CSP);

    expect(done.status).toBe(200);
    const key = shownKey(done.html);
    expect(key).toMatch(KEY);
    // Once: the same button again is refused, and the page says why.
    const again = await s.post('/keys/link', { t: formToken(page.html) });
    expect(again.status).toBe(410);
    expect(again.html).toContain('already been used');
    expect(again.html).not.toContain(key);
    expect((await s.get(mail.link)).status).toBe(410);

    const used = await ranking(s, key);
    expect(used.status).toBe(200);
    expect(used.headers.get('ratelimit-policy')).toContain('q=120'); // the developer tier's calls a minute

    // Usage, then rotate: the old key is refused at once, the new one works.
    const keys = await openKeys(s, email);
    expect(keys.status).toBe(200);
    const id = key.slice(4, 14);
    expect(keys.html).toContain(`data-key-id="${id}"`);
    expect(keys.html).toMatch(/Calls a day<\/th><td class="num">10,000<\/td><td class="num">1<\/td><td class="num">9,999<\/td>/);
    const rotated = await s.post('/keys/link', { t: formToken(keys.html), action: 'rotate', key: id });
    expect(rotated.status).toBe(200);
    const fresh = shownKey(rotated.html);
    expect(fresh).toMatch(KEY);
    expect(fresh).not.toBe(key);
    expect((await ranking(s, key)).status).toBe(401);
    expect((await ranking(s, fresh)).status).toBe(200);
    // The page's buttons share one token: having rotated, the revoke beside it is spent too.
    expect((await s.post('/keys/link', { t: formToken(keys.html), action: 'revoke', key: id })).status).toBe(410);

    const keys2 = await openKeys(s, email);
    const freshId = fresh.slice(4, 14);
    // Revoke asks first: the button shows what it ends, and the key still works until the second button.
    const asked = await s.post('/keys/link', { t: formToken(keys2.html), action: 'revoke', key: freshId });
    expect(asked.status).toBe(200);
    expect(asked.html).toContain(`Revoke key ${freshId}?`);
    expect((await ranking(s, fresh)).status).toBe(200);
    const revoked = await s.post('/keys/link', { t: formToken(asked.html), action: 'revoke', key: freshId, confirm: 'yes' });
    expect(revoked.status).toBe(200);
    expect(revoked.html).toContain(`Key ${freshId} is revoked`);
    expect((await ranking(s, fresh)).status).toBe(401);

    // Three mails went to this address (ask, usage twice); its limit is mail-abuse.test.ts's.
    expect(s.inbox!.count(email)).toBe(3);
  }, 60_000);

  it('serves the static keys page with its forms, posting to the shim, in both languages', async () => {
    for (const prefix of ['', '/zh-TW']) {
      const page = await s.get(`${prefix}/keys/`);
      expect(page.status).toBe(200);
      expect(page.html).toContain(`<form method="post" action="${prefix}/keys/ask"`);
      expect(page.html).toContain(`<form method="post" action="${prefix}/keys/manage"`);
      // The tiers' table is the contract's: the developer tier's 10,000 calls a day.
      expect(page.html).toContain('10,000');
    }
    const unknown = await s.get(`/keys/link?t=${'A'.repeat(43)}`);
    expect(unknown.status).toBe(410);
    expect(unknown.html).toContain('We do not know this link.');
    expect((await s.post('/keys/link', { t: 'nonsense' })).status).toBe(410);
  });

  it('refuses a link past its 24 hours, GET and POST alike', async () => {
    const email = 'late@example.org';
    expect((await s.post('/keys/ask', { tier: 'developer', email, use: 'A thesis on carbon disclosure' })).status).toBe(200);
    const mail = await s.inbox!.next(email);
    const token = formToken((await s.get(mail.link)).html);
    s.clock.shiftMs = LINK_LIFETIME_MS + 1000;
    try {
      const expired = await s.get(mail.link);
      expect(expired.status).toBe(410);
      expect(expired.html).toContain('It has expired.');
      const posted = await s.post('/keys/link', { t: token });
      expect(posted.status).toBe(410);
      expect(shownKey(posted.html)).toBe('');
    } finally {
      s.clock.shiftMs = 0;
    }
  }, 30_000);

  it("refuses a usage page's rotate and revoke buttons after their 15 minutes, and the key stays as it was", async () => {
    const email = 'slow@example.org';
    const key = shownKey((await askAndConfirm(s, email)).done.html);
    expect(key).toMatch(KEY);
    const keys = await openKeys(s, email);
    expect(keys.status).toBe(200);
    s.clock.shiftMs = ACT_LIFETIME_MS + 1000;
    try {
      const late = await s.post('/keys/link', { t: formToken(keys.html), action: 'rotate', key: key.slice(4, 14) });
      expect(late.status).toBe(410);
      expect(late.html).toContain('It has expired.');
      expect(shownKey(late.html)).toBe('');
    } finally {
      s.clock.shiftMs = 0;
    }
    expect((await ranking(s, key)).status).toBe(200);
  }, 30_000);

  it('answers a bad form with what to fix, and sends nothing', async () => {
    const before = s.inbox!.received.length;
    const bad = await s.post('/keys/ask', { tier: 'commercial', email: 'not an address', use: '' });
    expect(bad.status).toBe(400);
    for (const text of ['Choose developer or academic.', 'That is not an e-mail address', 'Say in one line']) expect(bad.html).toContain(text);
    expect(s.inbox!.received.length).toBe(before);
  });

  it('keeps academic requests for the operator: `npm run keys -- pending` shows the domain, `approve` mails a link to collect the key', async () => {
    const email = 'chen@ntu.edu.tw';
    const { done } = await askAndConfirm(s, email, 'academic');
    expect(done.status).toBe(200);
    expect(shownKey(done.html)).toBe('');
    expect(done.html).toContain('Academic keys are approved by the operator');

    const pending = await keysCommand(s, 'pending');
    const row = pending.stdout.split('\n').find((l) => l.includes(email))!;
    expect(row).toMatch(/^[0-9a-f]{10}\s+ntu\.edu\.tw\s+chen@ntu\.edu\.tw\s+\S+\s+Scoring the disclosures of my portfolio$/);
    const id = row.split(/\s+/)[0]!;

    // A mail server that refuses: not approved, still pending, nothing issued.
    const closed = await freePort();
    await expect(
      run(process.execPath, ['--import', 'tsx', 'server/cli/keys.ts', 'approve', id], {
        env: { ...process.env, KEYS_DB: s.keysPath, SMTP_URL: `smtp://127.0.0.1:${closed}`, SMTP_FROM: s.mail!.from, PUBLIC_URL: s.mail!.publicUrl },
        timeout: 30_000,
      }),
    ).rejects.toMatchObject({ stderr: expect.stringContaining(`Request ${id} not approved: the mail to ${email} was not sent`) });
    expect((await keysCommand(s, 'pending')).stdout).toContain(email);

    // Approving twice before the key is collected mails a second link (the first mail may be lost); the first stays good until used.
    expect((await keysCommand(s, 'approve', id)).stdout).toContain(`Approved request ${id}`);
    const approved = await keysCommand(s, 'approve', id);
    expect(approved.stdout).toContain(`Approved request ${id}`);
    const mail = await s.inbox!.next(email);
    const second = await s.inbox!.next(email);
    expect(second.link).not.toBe(mail.link);
    expect(mail.subject).toBe('Your academic API key is approved');
    const page = await s.get(mail.link);
    const collected = await s.post('/keys/link', { t: formToken(page.html) });
    const key = shownKey(collected.html);
    expect(key).toMatch(KEY);
    const used = await ranking(s, key);
    expect(used.status).toBe(200);
    expect(used.headers.get('ratelimit-policy')).toContain('q=30'); // the academic tier's calls a minute
    expect((await keysCommand(s, 'pending')).stdout).not.toContain(email);
    // The second approval's link, once the key is collected: spent with it.
    const late = await s.get(second.link);
    expect(late.status).toBe(200);
    const refused = await s.post('/keys/link', { t: formToken(late.html) });
    expect(refused.status).toBe(410);
    expect(shownKey(refused.html)).toBe('');
    // Collected: approving again is refused, and says why.
    await expect(keysCommand(s, 'approve', id)).rejects.toMatchObject({ stderr: expect.stringContaining('its key collected') });
  }, 90_000);

  it('`npm run keys -- reject` turns an academic request down: off the pending list, never approvable', async () => {
    const email = 'wu@example.net';
    await askAndConfirm(s, email, 'academic');
    const row = (await keysCommand(s, 'pending')).stdout.split('\n').find((l) => l.includes(email))!;
    const id = row.split(/\s+/)[0]!;
    const rejected = await keysCommand(s, 'reject', id);
    expect(rejected.stdout).toContain(`Rejected request ${id} (academic, ${email})`);
    expect((await keysCommand(s, 'pending')).stdout).not.toContain(email);
    await expect(keysCommand(s, 'approve', id)).rejects.toMatchObject({ stderr: expect.stringContaining(`request ${id} was rejected`) });
    await expect(keysCommand(s, 'reject', id)).rejects.toMatchObject({ stderr: expect.stringContaining('already rejected') });
    await expect(keysCommand(s, 'reject', 'ffffffffff')).rejects.toMatchObject({ stderr: expect.stringContaining('no request with id ffffffffff') });
  }, 60_000);

  it('writes the Chinese flow in Chinese: the mail, its link under /zh-TW/, the pages', async () => {
    const email = 'lin@example.com.tw';
    const { mail, page, done } = await askAndConfirm(s, email, 'developer', '/zh-TW');
    expect(mail.subject).toBe('請確認您的 API 金鑰申請');
    expect(mail.link.startsWith(`${s.base}/zh-TW/keys/link?t=`)).toBe(true);
    expect(page.html).toContain('<html lang="zh-Hant-TW"');
    expect(page.html).toContain('確認並繼續');
    expect(done.html).toContain('您的 API 金鑰');
    expect(shownKey(done.html)).toMatch(KEY);
  }, 30_000);
});

describe('the mail limit of one client address', () => {
  let s: KeysShim;
  beforeAll(async () => {
    s = await startKeysShim(demoSnapshotsDir);
  }, 60_000);
  afterAll(() => s?.close());

  it('limits the e-mail addresses one client address has mailed in a day', async () => {
    // Each to another e-mail address, so only the client address's limit can bind.
    const ask = (n: number) => s.post('/keys/ask', { tier: 'developer', email: `many${n}@example.org`, use: 'Load testing' });
    for (let n = 0; n < MAIL_LIMITS.perAddress; n++) expect((await ask(n)).status, `mail ${n + 1}`).toBe(200);
    const refused = await ask(MAIL_LIMITS.perAddress);
    expect(refused.status).toBe(429);
    expect(refused.html).toContain('This network address has had mail sent to as many e-mail addresses today as we allow');
    // Until the first of those mails is a day old: a little under 86,400 seconds.
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(86_400 - 60);
    expect(retry).toBeLessThanOrEqual(86_400);
    expect(s.inbox!.received).toHaveLength(MAIL_LIMITS.perAddress);
    // The day rolls on: a day later the address may ask again.
    s.clock.shiftMs = 24 * 3_600_000 + 1000;
    try {
      expect((await s.post('/keys/ask', { tier: 'developer', email: 'tomorrow@example.org', use: 'Load testing' })).status).toBe(200);
    } finally {
      s.clock.shiftMs = 0;
    }
  }, 30_000);
});

describe('a mail server that is down', () => {
  it('answers 503 saying the mail was not sent, in the page language, and shows no link', async () => {
    const s = await startKeysShim(demoSnapshotsDir);
    try {
      await s.inbox!.close();
      for (const [prefix, text] of [
        ['', 'The mail could not be sent'],
        ['/zh-TW', '無法寄出郵件'],
      ] as const) {
        const asked = await s.post(`${prefix}/keys/ask`, {
          tier: 'developer',
          email: `down${prefix.length}@example.org`,
          use: 'While the relay is down',
        });
        expect(asked.status).toBe(503);
        expect(asked.html).toContain(text);
        expect(asked.html).not.toContain('/keys/link?t=');
      }
    } finally {
      await s.close();
    }
  }, 60_000);
});

describe('keys without SMTP', () => {
  let s: KeysShim;
  beforeAll(async () => {
    s = await startKeysShim(demoSnapshotsDir, { mail: false });
  }, 60_000);
  afterAll(() => s?.close());

  it('says keys come from the operator, on the page and on its forms, in both languages', async () => {
    for (const [prefix, text] of [
      ['', 'Keys come from the operator'],
      ['/zh-TW', '金鑰由營運者核發'],
    ] as const) {
      const page = await s.get(`${prefix}/keys/`);
      expect(page.status).toBe(200);
      expect(page.html).toContain(text);
      expect(page.html).toContain('npm run keys -- create --tier developer');
      expect(page.html).not.toContain('<form');
      const posted = await s.post(`${prefix}/keys/ask`, { tier: 'developer', email: 'a@example.org', use: 'x' });
      expect(posted.status).toBe(503);
      expect(posted.html).toContain(text);
    }
  });

  it('serves everything else as before', async () => {
    expect((await s.get('/api/v1/company/D1101')).status).toBe(200);
    expect((await s.get('/ranking/')).status).toBe(200);
  });
});

describe('the keys database', () => {
  it('upgrades a store made before the keys page: its keys stay live, and keys get an owner e-mail', () => {
    const dir = mkdtempSync(join(tmpdir(), 'esg-keys-old-'));
    try {
      const path = join(dir, 'keys.sqlite');
      // The schema as it was before keys came from the page, with a key in it.
      const old = new Database(path);
      old.exec(
        'CREATE TABLE api_keys (id TEXT PRIMARY KEY, hash TEXT NOT NULL, tier TEXT NOT NULL, owner TEXT NOT NULL, daily_limit INTEGER, per_minute_limit INTEGER, created_at TEXT NOT NULL, revoked_at TEXT)',
      );
      old.close();
      const before = KeyStore.open(path);
      before.close();
      const store = KeyStore.open(path, { maxStalenessMs: 0 });
      const { key } = store.create({ tier: 'developer', owner: 'x@example.org', email: 'x@example.org' });
      expect(store.verify(key)).toMatchObject({ owner_email: 'x@example.org' });
      expect(store.liveKeysOf('x@example.org')).toHaveLength(1);
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('spends a link once, whoever presents it, and keeps only its SHA-256', () => {
    const dir = mkdtempSync(join(tmpdir(), 'esg-keys-links-'));
    try {
      const path = join(dir, 'keys.sqlite');
      const a = KeyStore.open(path);
      const b = KeyStore.open(path);
      const token = new KeyRequests(a).link('manage', { email: 'y@example.org', locale: 'en' });
      // Two shims on one keys database, both pressing the button: one of them wins.
      const outcomes = [new KeyRequests(a).consume(token, ['manage']), new KeyRequests(b).consume(token, ['manage'])];
      expect(outcomes.map((o) => o.ok).sort()).toEqual([false, true]);
      expect(outcomes.find((o) => !o.ok)).toEqual({ ok: false, why: 'used' });
      // A link for another purpose is no key to this one.
      const confirm = new KeyRequests(a).link('confirm', { email: 'y@example.org', locale: 'en' });
      expect(new KeyRequests(a).consume(confirm, ['act'])).toEqual({ ok: false, why: 'unknown' });
      a.close();
      b.close();
      const bytes = ['', '-wal'].map((s) => (existsSync(path + s) ? readFileSync(path + s).toString('latin1') : '')).join('');
      expect(bytes).not.toContain(token);
      expect(bytes).toContain(createHash('sha256').update(token).digest('hex'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the server process (server/index.ts) and its environment', () => {
  it('with SMTP_URL, SMTP_FROM and PUBLIC_URL mails links that start with PUBLIC_URL; without them says keys come from the operator', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esg-keys-process-'));
    const inbox = await startInbox();
    const shims: ShimProcess[] = [];
    try {
      const port = await freePort();
      const publicUrl = `http://127.0.0.1:${port}`;
      const common = { SNAPSHOTS_DIR: demoSnapshotsDir, KEYS_DB: join(dir, 'keys.sqlite'), LOG_LEVEL: 'warn' };
      const mailing = await startShimProcess({ ...common, SMTP_URL: inbox.url, SMTP_FROM: 'keys@example.org', PUBLIC_URL: publicUrl }, { port });
      shims.push(mailing);
      const asked = await fetch(`${mailing.base}/keys/ask`, {
        method: 'POST',
        body: new URLSearchParams({ tier: 'developer', email: 'proc@example.org', use: 'Checking the process' }),
        signal: AbortSignal.timeout(10_000),
      });
      expect(asked.status).toBe(200);
      const mail = await inbox.next('proc@example.org');
      expect(mail.link.startsWith(`${publicUrl}/keys/link?t=`)).toBe(true);
      const page = await (await fetch(mail.link, { signal: AbortSignal.timeout(10_000) })).text();
      const shown = await fetch(`${mailing.base}/keys/link`, {
        method: 'POST',
        body: new URLSearchParams({ t: formToken(page) }),
        signal: AbortSignal.timeout(10_000),
      });
      const key = shownKey(await shown.text());
      expect(key).toMatch(KEY);
      const used = await fetch(`${mailing.base}/api/v1/ranking?limit=2`, { headers: { 'X-API-Key': key }, signal: AbortSignal.timeout(10_000) });
      expect(used.status).toBe(200);

      // As `npm start` has always run: no SMTP settings, the same keys database.
      const plain = await startShimProcess(common);
      shims.push(plain);
      const keysPage = await fetch(`${plain.base}/keys/`, { signal: AbortSignal.timeout(10_000) });
      expect(keysPage.status).toBe(200);
      expect(await keysPage.text()).toContain('Keys come from the operator');
      // The key from the page works on it too: it is in the keys database like any other.
      expect(
        (await fetch(`${plain.base}/api/v1/ranking?limit=2`, { headers: { 'X-API-Key': key }, signal: AbortSignal.timeout(10_000) })).status,
      ).toBe(200);
    } finally {
      await Promise.all(shims.map((s) => s.stop()));
      await inbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
