import { parseArgs } from 'node:util';
import { KEY_TIERS, type KeyTier } from '../../src/contract/vocabulary.js';
import { DEFAULT_KEYS_DB, KeyStore, type KeyRecord } from '../access/key-store.js';
import { quotasFor } from '../../src/contract/tiers.js';
import { COLLECT_LIFETIME_MS } from '../../src/contract/key-requests.js';
import { KeyRequests } from '../access/key-requests.js';
import { domainOf } from '../access/mail-address.js';
import { asLocale, smtpMailer } from '../access/key-mail.js';
import { mailSetting } from '../kit/settings.js';

/**
 * npm run keys -- create --tier academic|developer|commercial --owner TEXT [--daily N] [--per-minute N]
 * npm run keys -- list
 * npm run keys -- revoke ID
 * npm run keys -- pending
 * npm run keys -- approve REQUEST_ID
 * npm run keys -- reject REQUEST_ID
 * Manages API keys in KEYS_DB (contract 6). A new key is printed once, alone on the last line;
 * only its SHA-256 is stored, so it cannot be shown again.
 */
const USAGE = `usage: npm run keys -- create --tier ${KEY_TIERS.join('|')} --owner TEXT [--daily N --per-minute N (commercial)]
       npm run keys -- list
       npm run keys -- revoke ID
       npm run keys -- pending            (academic requests from the keys page waiting for approval)
       npm run keys -- approve REQUEST_ID (mails the applicant a link to collect the key: needs SMTP_URL, SMTP_FROM, PUBLIC_URL)
       npm run keys -- reject REQUEST_ID  (turns an academic request down; nothing is mailed: write to the applicant yourself if you wish)
The key store is KEYS_DB (default ${DEFAULT_KEYS_DB}).`;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function wholeNumber(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^[1-9]\d{0,14}$/.test(raw)) fail(`--${name} must be a whole number from 1; got "${raw}"`);
  return Number(raw);
}

function table(records: KeyRecord[]): string {
  const rows = [['id', 'tier', 'owner', 'calls/day', 'calls/min', 'created', 'revoked']];
  for (const r of records) {
    const q = quotasFor(r.tier, { daily: r.daily_limit, perMinute: r.per_minute_limit });
    rows.push([r.id, r.tier, r.owner, String(q['calls/day']), String(q['calls/min']), r.created_at, r.revoked_at ?? '-']);
  }
  return columns(rows);
}

/**
 * What a cell shows of its text: control and invisible formatting characters as JSON escapes
 * (`\u001b`), backslashes doubled so an escape shown is never the text's own. The intended use and
 * an owner come from the public form or a shell; raw, an escape sequence in them would drive the
 * operator's terminal (the probe's reached the screen through `pending`).
 */
const shown = (text: string) =>
  text.replace(/[\\\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (c) =>
    c === '\\' ? '\\\\' : [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );

/** Rows as columns padded to their widest cell, the first row the heading. */
function columns(raw: string[][]): string {
  const rows = raw.map((row) => row.map(shown));
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => [...row[i]!].length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    tier: { type: 'string' },
    owner: { type: 'string' },
    daily: { type: 'string' },
    'per-minute': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
const [verb, ...rest] = positionals;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const path = process.env.KEYS_DB || DEFAULT_KEYS_DB;

switch (verb) {
  case 'create': {
    if (rest.length > 0) fail(`create takes no positional arguments; got ${rest.join(' ')}`);
    const tier = values.tier;
    if (!tier || !(KEY_TIERS as readonly string[]).includes(tier)) fail(`--tier must be one of ${KEY_TIERS.join(', ')}`);
    const owner = values.owner?.trim();
    if (!owner) fail('--owner is required: who holds the key (a name, an e-mail, an organisation)');
    const daily = wholeNumber(values.daily, 'daily');
    const perMinute = wholeNumber(values['per-minute'], 'per-minute');
    if (tier !== 'commercial' && (daily !== undefined || perMinute !== undefined)) fail('--daily and --per-minute are for commercial keys only');
    const store = KeyStore.open(path);
    const { record, key } = store.create({ tier: tier as KeyTier, owner, daily, perMinute });
    store.close();
    const q = quotasFor(record.tier, { daily: record.daily_limit, perMinute: record.per_minute_limit });
    console.log(
      `Created key ${record.id} (${record.tier}, ${q['calls/day']} calls/day, ${q['calls/min']} calls/min) for ${record.owner} in ${path}.`,
    );
    console.log('Send it as the X-API-Key header. It is shown only now: only its SHA-256 is stored.');
    console.log(key);
    break;
  }
  case 'list': {
    if (rest.length > 0) fail('list takes no arguments');
    const store = KeyStore.open(path);
    const records = store.list();
    store.close();
    console.log(records.length === 0 ? `No keys in ${path}.` : table(records));
    break;
  }
  case 'revoke': {
    if (rest.length !== 1) fail('revoke takes one key id (see `npm run keys -- list`)');
    const store = KeyStore.open(path);
    const outcome = store.revoke(rest[0]!);
    store.close();
    if (outcome === 'unknown') {
      console.error(`No key with id ${rest[0]} in ${path}.`);
      process.exit(1);
    }
    console.log(
      outcome === 'revoked' ? `Revoked key ${rest[0]}: a running server refuses it within a second.` : `Key ${rest[0]} was already revoked.`,
    );
    break;
  }
  case 'pending': {
    if (rest.length > 0) fail('pending takes no arguments');
    const store = KeyStore.open(path);
    const pending = new KeyRequests(store).pending();
    store.close();
    if (pending.length === 0) console.log(`No academic request waits for approval in ${path}.`);
    // The domain first: an academic request is judged by it (a university's, or a free mail service's).
    else
      console.log(
        columns([
          ['id', 'domain', 'e-mail', 'requested', 'intended use'],
          ...pending.map((r) => [r.id, domainOf(r.email), r.email, r.created_at, r.intended_use]),
        ]),
      );
    break;
  }
  case 'approve': {
    if (rest.length !== 1) fail('approve takes one request id (see `npm run keys -- pending`)');
    let mail;
    try {
      mail = mailSetting(process.env);
    } catch (e) {
      fail((e as Error).message);
    }
    if (!mail) fail('approve mails the applicant a link to collect the key: set SMTP_URL, SMTP_FROM and PUBLIC_URL as the server has them');
    const store = KeyStore.open(path);
    const requests = new KeyRequests(store);
    const approved = requests.approve(rest[0]!);
    if (!approved.ok) {
      store.close();
      console.error(`Not approved: ${approved.why}.`);
      process.exit(1);
    }
    const { request } = approved;
    const token = requests.link('collect', { email: request.email, requestId: request.id, locale: request.locale }, COLLECT_LIFETIME_MS);
    const mailer = smtpMailer(mail);
    try {
      await mailer.sendLink('collect', request.email, asLocale(request.locale), token);
    } catch (e) {
      // Approved but not told: undo the approval, so the operator can run the same command again.
      requests.unapprove(request.id);
      store.close();
      console.error(`Request ${request.id} not approved: the mail to ${shown(request.email)} was not sent (${(e as Error).message}).`);
      process.exit(1);
    } finally {
      mailer.close();
    }
    store.close();
    console.log(
      `Approved request ${request.id} (academic, ${shown(request.email)}): mailed a link to collect the key, valid ${COLLECT_LIFETIME_MS / 86_400_000} days.`,
    );
    break;
  }
  case 'reject': {
    if (rest.length !== 1) fail('reject takes one request id (see `npm run keys -- pending`)');
    const store = KeyStore.open(path);
    const rejected = new KeyRequests(store).reject(rest[0]!);
    store.close();
    if (!rejected.ok) {
      console.error(`Not rejected: ${rejected.why}.`);
      process.exit(1);
    }
    console.log(
      `Rejected request ${rejected.request.id} (academic, ${shown(rejected.request.email)}): it leaves the pending list; nothing was mailed to the applicant.`,
    );
    break;
  }
  default:
    fail(verb ? `unknown command "${verb}"` : 'a command is required');
}
