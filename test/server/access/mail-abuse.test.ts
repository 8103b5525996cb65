import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_LIMITS } from '../../../src/contract/key-requests.js';
import { KeyStore } from '../../../server/access/key-store.js';
import { mailAddress } from '../../../server/access/mail-address.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';
import { formToken, shownKey, startKeysShim, type KeysShim } from '../../helpers/keys-shim.js';

/**
 * The keys page's and sign-in's mail, tried again as the probe tried it: addresses that
 * count as new but reach one inbox, a relay that is down, one person's documented steps on a shared
 * address, cross-site posts, `/keys/manage` as an oracle, 1,001 form fields, and terminal escapes
 * from the public form on the operator's screen.
 */

const run = promisify(execFile);
const use = 'Scoring the disclosures of my portfolio';
const REDIRECT = 'http://127.0.0.1:9/callback';

/** An OAuth sign-in as an assistant starts it: a registration, then /authorize; returns the sign-in form's request id. */
async function signInRequest(s: KeysShim): Promise<string> {
  const registered = await fetch(`${s.base}/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'Notebook assistant', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
  });
  expect(registered.status).toBe(201);
  const { client_id } = (await registered.json()) as { client_id: string };
  const query = new URLSearchParams({
    client_id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuwGhc8mFOA',
    code_challenge_method: 'S256',
    state: 's',
  });
  const page = await s.get(`/authorize?${query}`);
  expect(page.status).toBe(200);
  return /name="request" value="([^"]+)"/.exec(page.html)![1]!;
}

/** The steps docs/keys-and-quotas.md and docs/mcp.md give one person, as a browser takes them: two keys, two sign-ins, one link to manage the keys. */
async function documentedSteps(s: KeysShim, email: string): Promise<void> {
  const keys: string[] = [];
  for (const tier of ['developer', 'developer']) {
    const asked = await s.post('/keys/ask', { tier, email, use });
    expect(asked.status, `ask for a ${tier} key`).toBe(200);
    const link = await s.get((await s.inbox!.next(email)).link);
    const done = await s.post('/keys/link', { t: formToken(link.html) });
    expect(done.status).toBe(200);
    keys.push(shownKey(done.html).slice(4, 14));
  }
  for (const key of keys) {
    const sent = await s.post('/oauth/sign-in', { request: await signInRequest(s), email });
    expect(sent.status, 'sign-in').toBe(200);
    const consent = await s.get((await s.inbox!.next(email)).link);
    const answer = await s.post('/oauth/consent', { t: formToken(consent.html), decision: 'allow', key });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toContain('code=');
  }
  expect((await s.post('/keys/manage', { email })).status, 'a link to manage the keys').toBe(200);
  const page = await s.get((await s.inbox!.next(email)).link);
  const listed = await s.post('/keys/link', { t: formToken(page.html) });
  for (const key of keys) expect(listed.html).toContain(`data-key-id="${key}"`);
}

describe('addresses are read one way: the mailbox a mail reaches is what the limits count', () => {
  let s: KeysShim;
  beforeAll(async () => {
    s = await startKeysShim(demoSnapshotsDir);
  }, 60_000);
  afterAll(() => s?.close());

  it('refuses control and invisible characters with a 400 saying so, and mails nothing', async () => {
    // Each counted as a new address before, and delivered to victim@example.org: nine mails reached one inbox.
    const variants = [
      '\x00victim@example.org',
      'vic\x01tim@example.org',
      'victim\x1b@example.org',
      'vic\x7ftim@example.org',
      'victim\x85@example.org',
      'vic\u200btim@example.org',
      'victim\u202e@example.org',
      'vic\x0btim@example.org',
    ];
    for (const email of variants) {
      for (const path of ['/keys/ask', '/keys/manage']) {
        const answer = await s.post(path, { tier: 'developer', email, use });
        expect(answer.status, JSON.stringify(email)).toBe(400);
        expect(answer.html).toContain('That e-mail address holds a control or invisible character');
      }
    }
    const signIn = await s.post('/oauth/sign-in', { request: await signInRequest(s), email: 'vic\x01tim@example.org' });
    expect(signIn.status).toBe(400);
    expect(signIn.html).toContain('control or invisible character');
    await new Promise((r) => setTimeout(r, 300));
    expect(s.inbox!.received).toHaveLength(0);
  }, 60_000);

  it('counts sub-addresses, case and Gmail dots as the one mailbox they reach', async () => {
    const spellings = (n: number) => [`victim+${n}@example.org`, ` Victim+x${n}@EXAMPLE.org\n`, `VICTIM@Example.Org`][n % 3]!;
    for (let n = 0; n < MAIL_LIMITS.perEmail; n++) {
      const asked = await s.post('/keys/ask', { tier: 'developer', email: spellings(n), use });
      expect(asked.status, spellings(n)).toBe(200);
    }
    const refused = await s.post('/keys/ask', { tier: 'developer', email: 'victim+one-more@example.org', use });
    expect(refused.status).toBe(429);
    expect(refused.html).toContain('This e-mail address has been sent as many mails today as we allow');
    // Sent to the address as typed (trimmed, in lower case): a server that does not sub-address has its own mailbox there.
    expect(s.inbox!.count('victim+0@example.org')).toBe(1);
    expect(s.inbox!.received).toHaveLength(MAIL_LIMITS.perEmail);

    expect(mailAddress('J.Doe+news@GoogleMail.com')).toEqual({ ok: true, address: 'j.doe+news@googlemail.com', mailbox: 'jdoe@gmail.com' });
    expect(mailAddress('+x@example.org')).toEqual({ ok: true, address: '+x@example.org', mailbox: '+x@example.org' });
  }, 60_000);
});

describe('a relay that is down', () => {
  it('does not count the mails it refused: the day is not used up, and the mail goes when the relay is back', async () => {
    const s = await startKeysShim(demoSnapshotsDir);
    try {
      s.inbox!.down();
      // The probe: three 503s, then 429 for 24 hours, nothing ever sent.
      for (let n = 0; n < MAIL_LIMITS.perEmail + 2; n++) {
        const asked = await s.post('/keys/ask', { tier: 'developer', email: 'patient@example.org', use });
        expect(asked.status, `try ${n + 1}`).toBe(503);
        expect(asked.html).toContain('The mail could not be sent');
      }
      const signIn = await s.post('/oauth/sign-in', { request: await signInRequest(s), email: 'patient@example.org' });
      expect(signIn.status).toBe(503);
      // /keys/manage answers before it mails (below): its refused mails are handed back after the answer.
      for (let n = 0; n < MAIL_LIMITS.perEmail + 2; n++) {
        expect((await s.post('/keys/manage', { email: 'patient@example.org' })).status, `manage ${n + 1}`).toBe(200);
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 500));
      expect(s.inbox!.received).toHaveLength(0);
      s.inbox!.up();
      expect((await s.post('/keys/ask', { tier: 'developer', email: 'patient@example.org', use })).status).toBe(200);
      expect((await s.inbox!.next('patient@example.org')).subject).toBe('Confirm your request for an API key');
    } finally {
      await s.close();
    }
  }, 60_000);
});

describe("the mail limits leave one person's documented steps room, on an address a campus shares", () => {
  let s: KeysShim;
  beforeAll(async () => {
    s = await startKeysShim(demoSnapshotsDir);
  }, 60_000);
  afterAll(() => s?.close());

  it('lets two people behind one address each ask for two keys, sign in twice and manage their keys', async () => {
    await documentedSteps(s, 'first.student@campus.example.edu');
    await documentedSteps(s, 'second.student@campus.example.edu');
  }, 120_000);

  it('still stops a flood: of mailboxes from one address, and of mails to one mailbox', async () => {
    // Two mailboxes were mailed above from this address.
    for (let n = 2; n < MAIL_LIMITS.perAddress; n++) expect((await s.post('/keys/manage', { email: `stranger${n}@example.org` })).status).toBe(200);
    const refused = await s.post('/keys/manage', { email: 'one.too.many@example.org' });
    expect(refused.status).toBe(429);
    expect(refused.html).toContain('This network address has had mail sent to as many e-mail addresses today as we allow');
    // A mailbox already mailed today is not a new one: its own limit binds it.
    const mailbox = 'stranger2@example.org';
    for (let n = 1; n < MAIL_LIMITS.perEmail; n++) expect((await s.post('/keys/manage', { email: mailbox })).status).toBe(200);
    expect((await s.post('/keys/manage', { email: mailbox })).status).toBe(429);
    await new Promise((r) => setTimeout(r, 500));
    expect(s.inbox!.count(mailbox)).toBe(MAIL_LIMITS.perEmail);
  }, 120_000);
});

describe('forms posted from another site', () => {
  let s: KeysShim;
  beforeAll(async () => {
    s = await startKeysShim(demoSnapshotsDir);
  }, 60_000);
  afterAll(() => s?.close());

  const crossSite: Record<string, string>[] = [
    { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    { Origin: 'https://keys.evil.example', 'Sec-Fetch-Site': 'same-site' },
    // A browser that sends no Sec-Fetch-Site (plain http): an Origin of another site, or the opaque one of a sandboxed frame.
    { Origin: 'https://evil.example' },
    { Origin: 'null' },
  ];

  it('refuses them with a 403 page saying why, on every form of the keys page and of sign-in, and mails nothing', async () => {
    const email = 'target@example.org';
    const forms: [string, Record<string, string>, string][] = [
      ['/keys/ask', { tier: 'developer', email, use }, 'Sent from another site'],
      ['/keys/manage', { email }, 'Sent from another site'],
      ['/keys/link', { t: 'A'.repeat(43) }, 'Sent from another site'],
      ['/zh-TW/keys/ask', { tier: 'developer', email, use }, '由其他網站送出'],
      ['/oauth/sign-in', { request: await signInRequest(s), email }, 'Sent from another site'],
      ['/oauth/consent', { t: 'A'.repeat(43), decision: 'deny' }, 'Sent from another site'],
    ];
    for (const [path, fields, text] of forms)
      for (const headers of crossSite) {
        const answer = await s.post(path, fields, headers);
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(answer.html).toContain(text);
      }
    await new Promise((r) => setTimeout(r, 300));
    expect(s.inbox!.received).toHaveLength(0);
  }, 60_000);

  it('takes them from this site (as a browser sends them, Origin: null under no-referrer) and from curl (no Origin)', async () => {
    const browser: Record<string, string>[] = [
      { Origin: 'null', 'Sec-Fetch-Site': 'same-origin' },
      { Origin: s.base, 'Sec-Fetch-Site': 'same-origin' },
      { Origin: s.base },
      {},
    ];
    for (const [n, headers] of browser.entries()) {
      const email = `own${n}@example.org`;
      expect((await s.post('/keys/ask', { tier: 'developer', email, use }, headers)).status).toBe(200);
      const link = await s.get((await s.inbox!.next(email)).link);
      expect((await s.post('/keys/link', { t: formToken(link.html) }, headers)).status).toBe(200);
      expect((await s.post('/oauth/sign-in', { request: await signInRequest(s), email }, headers)).status).toBe(200);
    }
  }, 60_000);
});

describe('/keys/manage tells nobody whether an address holds a key', () => {
  it('answers both before any mail is accepted, the same page; then mails each: a link, or how to get a key', async () => {
    const s = await startKeysShim(demoSnapshotsDir);
    const keys = KeyStore.open(s.keysPath, { maxStalenessMs: 0 });
    try {
      keys.create({ tier: 'developer', owner: 'holder@example.org', email: 'holder@example.org' });
      // The relay takes nothing until released: an answer that waits for the mail cannot come.
      const release = s.inbox!.hold();
      const [holder, stranger] = await Promise.all(['holder@example.org', 'nobody@example.org'].map((email) => s.post('/keys/manage', { email })));
      expect(s.inbox!.received).toHaveLength(0);
      release();
      expect(holder!.status).toBe(200);
      expect(stranger!.status).toBe(200);
      expect(holder!.html.replace('holder@example.org', 'X')).toBe(stranger!.html.replace('nobody@example.org', 'X'));
      expect((await s.inbox!.next('holder@example.org')).link).toContain('/keys/link?t=');
      const note = await s.inbox!.next('nobody@example.org');
      expect(note.text).toContain('it holds none');
      expect(note.link).toBe(`${s.mail!.publicUrl}/keys/`);
    } finally {
      keys.close();
      await s.close();
    }
  }, 60_000);
});

describe('more than 1,000 form fields', () => {
  it('are a 400 saying so, on every form route, the OAuth endpoints included', async () => {
    const s = await startKeysShim(demoSnapshotsDir);
    try {
      // Short fields, as the probe sent them: 1,001 of them in 3 KB, under the pages' 4 KB.
      const body = `email=a%40example.org&${'a=&'.repeat(1001)}`;
      const post = (path: string) => fetch(s.base + path, { method: 'POST', body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
      for (const path of ['/keys/ask', '/keys/manage', '/keys/link', '/zh-TW/keys/manage', '/oauth/sign-in', '/oauth/consent']) {
        const answer = await post(path);
        expect(answer.status, path).toBe(400);
        expect(await answer.text()).toMatch(/more fields than any of ours has|表單欄位數超過/);
      }
      for (const path of ['/token', '/revoke']) {
        const answer = await post(path);
        expect(answer.status, path).toBe(400);
        expect(await answer.json()).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('more than 1,000 fields') });
      }
      // /authorize answers a person's browser: an error page, never a redirect to the client (RFC 9700 §4.11.2).
      const authorize = await post('/authorize');
      expect([authorize.status, authorize.headers.get('location')]).toEqual([400, null]);
      const page = await authorize.text();
      expect(page).toContain('invalid_request');
      expect(page).toContain('more than 1,000 fields');
      const broken = await fetch(`${s.base}/register`, { method: 'POST', body: '{', headers: { 'Content-Type': 'application/json' } });
      expect(broken.status).toBe(400);
      expect(await broken.json()).toEqual({ error: 'invalid_request', error_description: 'The request body could not be read.' });
    } finally {
      await s.close();
    }
  }, 60_000);
});

describe('`npm run keys -- pending` and terminal escapes from the public form', () => {
  it('shows control characters escaped, JSON-style, never raw', async () => {
    const s = await startKeysShim(demoSnapshotsDir);
    try {
      const email = 'prof@uni.example.edu';
      const hostile = 'Research \x1b]0;pwned\x07\x1b[2J\x1b[1;31mAPPROVE ME\x1b[0m \u202eevil\u202c \\u001b';
      expect((await s.post('/keys/ask', { tier: 'academic', email, use: hostile })).status).toBe(200);
      const link = await s.get((await s.inbox!.next(email)).link);
      expect((await s.post('/keys/link', { t: formToken(link.html) })).status).toBe(200);
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/cli/keys.ts', 'pending'], {
        env: { ...process.env, KEYS_DB: s.keysPath },
        timeout: 30_000,
      });
      expect(stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e\u202c]/);
      expect(stdout).toContain('Research \\u001b]0;pwned\\u0007\\u001b[2J\\u001b[1;31mAPPROVE ME\\u001b[0m \\u202eevil\\u202c \\\\u001b');
    } finally {
      await s.close();
    }
  }, 60_000);
});
