import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryCounters } from '../../server/access/counters.js';
import { smtpMailer } from '../../server/access/key-mail.js';
import { KeyRequests } from '../../server/access/key-requests.js';
import { KeyStore } from '../../server/access/key-store.js';
import { Meter } from '../../server/access/meter.js';
import type { MailSettings } from '../../server/kit/settings.js';
import type { AppOptions } from '../../server/app.js';
import { freePort } from '../server/access/processes.js';
import { startServer } from './server.js';
import { startInbox, type Inbox } from './smtp.js';

export interface KeysShim {
  base: string;
  /** The in-process SMTP server the shim mails through; absent for a shim without SMTP. */
  inbox?: Inbox;
  /** The SMTP settings the shim has, as the keys command reads them from the environment. */
  mail?: MailSettings;
  keysPath: string;
  /** Moves the keys flow's clock (links' expiry, the daily limits) ahead of the real one. */
  clock: { shiftMs: number };
  /** Posts a form as a browser does (application/x-www-form-urlencoded), following no redirect. */
  post(path: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<{ status: number; html: string; headers: Headers }>;
  get(pathOrUrl: string): Promise<{ status: number; html: string; headers: Headers }>;
  close(): Promise<void>;
}

/** The hidden link token of a page's first form (the button a link page shows). */
export const formToken = (html: string) => /name="t" value="([^"]+)"/.exec(html)?.[1] ?? '';
/** The key a page shows once. */
export const shownKey = (html: string) => /<code data-key>([^<]+)<\/code>/.exec(html)?.[1] ?? '';

/**
 * The shim with keys and quotas (counters in memory) and, unless `mail: false`, SMTP to a real
 * in-process SMTP server, its mailed links starting with the shim's own address. `limits`: the
 * daily mail limits, MAIL_LIMITS unless given.
 */
export async function startKeysShim(
  snapshotsDir: string,
  o: { mail?: boolean; limits?: { perAddress: number; perEmail: number }; app?: Partial<AppOptions> } = {},
): Promise<KeysShim> {
  const dir = mkdtempSync(join(tmpdir(), 'esg-keys-page-'));
  const keysPath = join(dir, 'keys.sqlite');
  const clock = { shiftMs: 0 };
  // No staleness: a key issued, rotated or revoked is seen by the very next call, as the page promises within a second.
  const access = new Meter({ keys: KeyStore.open(keysPath, { maxStalenessMs: 0 }), counters: memoryCounters() });
  const inbox = o.mail === false ? undefined : await startInbox();
  // The port first: PUBLIC_URL (the mailed links, OAuth's issuer) is the shim's own address, known before it starts.
  const port = await freePort();
  const mail: MailSettings | undefined = inbox && { smtpUrl: inbox.url, from: 'ESG keys <keys@example.org>', publicUrl: `http://127.0.0.1:${port}` };
  const mailer = mail && smtpMailer(mail);
  const keyRequests = new KeyRequests(access.keys, { clock: () => Date.now() + clock.shiftMs, limits: o.limits });
  const server = await startServer(snapshotsDir, { access, mailer, keyRequests, ...o.app }, port);
  const read = async (res: Response) => ({ status: res.status, html: await res.text(), headers: res.headers });
  return {
    base: server.base,
    inbox,
    mail,
    keysPath,
    clock,
    post: async (path, fields, headers) =>
      read(
        await fetch(server.base + path, {
          method: 'POST',
          body: new URLSearchParams(fields),
          headers,
          redirect: 'manual',
          signal: AbortSignal.timeout(10_000),
        }),
      ),
    get: async (path) =>
      read(await fetch(path.startsWith('http') ? path : server.base + path, { redirect: 'manual', signal: AbortSignal.timeout(10_000) })),
    close: async () => {
      await server.close();
      mailer?.close();
      await access.close();
      await inbox?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
