import { statSync } from 'node:fs';
import { isIP } from 'node:net';
import express from 'express';

/**
 * The settings server/index.ts reads from the environment, each checked before anything starts: a
 * bad one fails with one line naming it (index.ts prints it and exits 2), never a stack trace.
 */
export type Env = Readonly<Record<string, string | undefined>>;

/** The one line a bad setting prints. */
export class SettingError extends Error {}

const set = (env: Env, name: string) => env[name] !== undefined && env[name] !== '';

/** Timers take at most 2^31 - 1 ms (about 24.8 days); Node turns a longer one into 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function portSetting(env: Env, name: string, fallback: number): number;
export function portSetting(env: Env, name: string): number | undefined;
export function portSetting(env: Env, name: string, fallback?: number): number | undefined {
  if (!set(env, name)) return fallback;
  const value = env[name]!;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new SettingError(`${name} must be a port number; got ${value}`);
  return Number(value);
}

/** A whole number of milliseconds a timer can wait. */
export function msSetting(env: Env, name: string, fallback: number): number {
  if (!set(env, name)) return fallback;
  const value = env[name]!;
  if (!/^\d{1,10}$/.test(value) || Number(value) > MAX_TIMER_MS)
    throw new SettingError(`${name} must be a whole number of milliseconds (at most ${MAX_TIMER_MS}); got ${value}`);
  return Number(value);
}

/** An address or a host name to listen on; whether this machine has it, listening tells (index.ts). */
export function hostSetting(env: Env, name: string, fallback: string): string {
  if (!set(env, name)) return fallback;
  const value = env[name]!;
  const hostName = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
  if (isIP(value) === 0 && !hostName.test(value)) throw new SettingError(`${name} must be an IP address or a host name; got ${value}`);
  return value;
}

/** `1` or nothing (`0` or unset: off). */
export function flagSetting(env: Env, name: string): boolean {
  if (!set(env, name)) return false;
  if (env[name] === '1') return true;
  if (env[name] === '0') return false;
  throw new SettingError(`${name} must be 1 (on) or 0 (off); got ${env[name]}`);
}

/** Where the published snapshots are: a folder, or nothing yet (the server starts unready until a publish). */
export function snapshotsDirSetting(dir: string): string {
  const info = statSync(dir, { throwIfNoEntry: false });
  if (info && !info.isDirectory()) throw new SettingError(`SNAPSHOTS_DIR must be a folder; ${dir} is not one`);
  return dir;
}

export function redisUrlSetting(env: Env): string | undefined {
  if (!set(env, 'REDIS_URL')) return undefined;
  const value = env.REDIS_URL!;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // reported below
  }
  if (!url || !['redis:', 'rediss:'].includes(url.protocol) || url.hostname === '')
    throw new SettingError(`REDIS_URL must be a redis:// or rediss:// URL with a host, e.g. redis://127.0.0.1:6379; got ${value}`);
  return value;
}

/**
 * MCP_ALLOWED_ORIGINS: the browser origins whose pages may call /mcp (the Streamable HTTP transport
 * says servers must check `Origin`, against DNS rebinding): a comma-separated list of origins
 * (`https://chat.example.org`, scheme, host and port, no path), or `*` for any. Unset: pages served
 * from loopback only (a local inspector). A request without `Origin` (not from a browser) is always
 * allowed: the check is there for pages, not programs.
 */
export function mcpAllowedOriginsSetting(env: Env): readonly string[] | '*' | undefined {
  if (!set(env, 'MCP_ALLOWED_ORIGINS')) return undefined;
  const value = env.MCP_ALLOWED_ORIGINS!.trim();
  if (value === '*') return '*';
  const origins = value.split(',').map((o) => o.trim());
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      // reported below
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin.replace(/\/$/, '').toLowerCase())
      throw new SettingError(
        `MCP_ALLOWED_ORIGINS must be * or comma-separated origins such as https://chat.example.org,http://localhost:6274 (scheme, host, port; no path); got ${origin || '(empty)'}`,
      );
  }
  return origins.map((o) => new URL(o).origin);
}

export const isLoopback = (host: string) =>
  host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || /^::ffff:127\./i.test(host);

/**
 * TRUST_PROXY: whose `X-Forwarded-For` is believed, as Express's `trust proxy` takes it (a hop count,
 * or addresses, subnets and the names loopback, linklocal, uniquelocal), checked by Express itself.
 * `true` is refused (any client could choose its own address, so its own quota). A hop count
 * believes the nearest hops whatever their address, which is right only when nothing but the proxy
 * can reach the server: with HOST other than loopback it is refused, unless
 * TRUST_PROXY_PUBLIC_HOST=1 says a firewall or a container's published port sees to that.
 */
export function trustProxySetting(env: Env, host: string): number | string | undefined {
  const publicHost = flagSetting(env, 'TRUST_PROXY_PUBLIC_HOST');
  if (!set(env, 'TRUST_PROXY')) return undefined;
  const value = env.TRUST_PROXY!.trim();
  if (value === 'true')
    throw new SettingError("TRUST_PROXY=true would believe any client's X-Forwarded-For; give a hop count or the proxies' addresses (e.g. loopback)");
  const trust = /^\d+$/.test(value) ? Number(value) : value;
  try {
    express().set('trust proxy', trust);
  } catch (e) {
    throw new SettingError(`TRUST_PROXY must be a hop count or proxy addresses (e.g. loopback, 10.0.0.0/8); got ${value} (${(e as Error).message})`);
  }
  if (typeof trust === 'number' && trust > 0 && !isLoopback(host) && !publicHost) {
    throw new SettingError(
      `TRUST_PROXY=${trust} (a hop count) with HOST=${host} would let any client that reaches this port choose its ` +
        `own address: listen on loopback (HOST=127.0.0.1), name the proxy (TRUST_PROXY=loopback or its address), or ` +
        `set TRUST_PROXY_PUBLIC_HOST=1 if only the proxy can reach this port`,
    );
  }
  return trust;
}

/**
 * A listen error that is a bad setting, as the line to print; null for the others (a port in use
 * is another process's doing, not the setting's: exit 1, and a supervisor may try again).
 */
export function listenSettingError(
  e: NodeJS.ErrnoException,
  [hostName, host]: [string, string],
  [portName, port]: [string, number | undefined],
): string | null {
  switch (e.code) {
    case 'EADDRNOTAVAIL':
      return `${hostName}=${host} is not an address of this machine`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${hostName}=${host} does not resolve to an address (${e.code})`;
    case 'EACCES':
      return `${portName}=${port} cannot be listened on without privileges (ports below 1024 need them)`;
    default:
      return null;
  }
}

/** What the keys page needs to send mail (SMTP_URL, SMTP_FROM, PUBLIC_URL); absent without SMTP_URL. */
export interface MailSettings {
  /** nodemailer's connection URL: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465`. */
  smtpUrl: string;
  /** The sender, `keys@example.org` or `ESG API <keys@example.org>`. */
  from: string;
  /** The origin people reach the service at (`https://esg.example.org`): the mailed links start with it, never with a request's Host. */
  publicUrl: string;
}

/**
 * SMTP_URL, SMTP_FROM and PUBLIC_URL: unset SMTP_URL means no mail, and the keys page says keys come
 * from the operator. With SMTP_URL the other two are required: a link built from a request's Host
 * header would let anyone have the service mail a link to a host of their choosing.
 */
export function mailSetting(env: Env): MailSettings | undefined {
  if (!set(env, 'SMTP_URL')) {
    for (const name of ['SMTP_FROM', 'PUBLIC_URL'])
      if (set(env, name))
        throw new SettingError(`${name} is set but SMTP_URL is not: set SMTP_URL (smtp://host:587) for the keys page to send mail, or unset ${name}`);
    return undefined;
  }
  const smtpUrl = env.SMTP_URL!.trim();
  let url: URL | undefined;
  try {
    url = new URL(smtpUrl);
  } catch {
    // reported below
  }
  if (!url || !['smtp:', 'smtps:'].includes(url.protocol) || url.hostname === '')
    throw new SettingError(
      `SMTP_URL must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:pass@mail.example.org:587; got ${redactUrl(smtpUrl)}`,
    );
  if (!set(env, 'SMTP_FROM')) throw new SettingError('SMTP_FROM is required with SMTP_URL: the sender of the keys mails, e.g. keys@example.org');
  const from = env.SMTP_FROM!.trim();
  if (!/^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/.test(from))
    throw new SettingError(`SMTP_FROM must be an address (keys@example.org) or a name and one (ESG API <keys@example.org>); got ${from}`);
  if (!set(env, 'PUBLIC_URL'))
    throw new SettingError('PUBLIC_URL is required with SMTP_URL: the origin the mailed links start with, e.g. https://esg.example.org');
  const raw = env.PUBLIC_URL!.trim();
  let origin: URL | undefined;
  try {
    origin = new URL(raw);
  } catch {
    // reported below
  }
  if (!origin || !['http:', 'https:'].includes(origin.protocol) || origin.origin !== raw.replace(/\/$/, '').toLowerCase())
    throw new SettingError(`PUBLIC_URL must be an origin (scheme, host, port; no path), e.g. https://esg.example.org; got ${raw}`);
  return { smtpUrl, from, publicUrl: origin.origin };
}

/** A URL with its password hidden, for a message that may be logged. */
function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return raw.replace(/:[^:@/]*@/, ':***@');
  }
}
