import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NGINX, startMailedFront, type MailedFront } from './front.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';
import { formToken, shownKey } from '../helpers/keys-shim.js';

/**
 * The keys page behind the generated nginx front: nginx serves /keys/ as a file, and
 * sends the form's POSTs and the mailed link (a query string) to the shim, which mails through a
 * real in-process SMTP server. The link is followed through nginx, the key is used through nginx.
 */
const PUBLIC_URL = 'https://esg.example.org';
let front: MailedFront;

beforeAll(async () => {
  front = (await startMailedFront(demoSnapshotsDir, PUBLIC_URL))!;
}, 120_000);
afterAll(async () => {
  await front?.stop();
});

const post = async (path: string, fields: Record<string, string>) => {
  const res = await fetch(front.nginx.base + path, { method: 'POST', body: new URLSearchParams(fields), signal: AbortSignal.timeout(10_000) });
  return { status: res.status, html: await res.text() };
};

describe.skipIf(!NGINX)('the keys page through nginx', () => {
  it('serves the page, passes its form posts and the mailed link to the shim, and the key works through it', async () => {
    const page = await fetch(`${front.nginx.base}/zh-TW/keys/`, { signal: AbortSignal.timeout(10_000) });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('action="/zh-TW/keys/ask"');

    expect((await post('/zh-TW/keys/ask', { tier: 'developer', email: 'front@example.org', use: 'Behind nginx' })).status).toBe(200);
    const mail = await front.inbox.next('front@example.org');
    // The link names PUBLIC_URL, the host people reach; here that is this nginx.
    expect(mail.link.startsWith(`${PUBLIC_URL}/zh-TW/keys/link?t=`)).toBe(true);
    const viaNginx = front.nginx.base + mail.link.slice(PUBLIC_URL.length);
    const linkPage = await fetch(viaNginx, { signal: AbortSignal.timeout(10_000) });
    expect(linkPage.status).toBe(200);
    expect(linkPage.headers.get('cache-control')).toBe('no-store');
    const shown = await post('/zh-TW/keys/link', { t: formToken(await linkPage.text()) });
    expect(shown.status).toBe(200);
    const key = shownKey(shown.html);
    expect(key).toMatch(/^esg_[0-9a-f]{10}_/);
    const used = await fetch(`${front.nginx.base}/api/v1/ranking?limit=2`, { headers: { 'X-API-Key': key }, signal: AbortSignal.timeout(10_000) });
    expect(used.status).toBe(200);
    // Used once: the same link through nginx is refused by the shim.
    expect((await fetch(viaNginx, { signal: AbortSignal.timeout(10_000) })).status).toBe(410);
  }, 60_000);
});
