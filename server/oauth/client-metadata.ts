import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { OAuthClientMetadataSchema, type OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { CLIENT_METADATA_LIMITS } from '../../src/contract/oauth.js';
import { clientNameProblem, redirectUrisProblem } from './client-rules.js';

/**
 * Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document, which the MCP
 * authorization spec of 2026-07-28 puts before dynamic registration, deprecated there): a client's
 * id is an https URL, and the document there describes the client. Fetching a URL a stranger names is a server-side request on
 * their behalf, so: https only, no credentials or fragment, addresses checked at connect time (a
 * name that resolves to a private, loopback or link-local address is refused, whatever it resolved
 * to a moment before, and an address that embeds a private IPv4 one counts as private), a few KiB
 * within a few seconds in all (a total deadline, not an idle one: a document sent a byte a second
 * would otherwise hold a request open for minutes), no redirects, and the document must name
 * itself, have a `client_name` (a property the MCP spec requires: the pages and the mail show it),
 * be a public client (no secret can live in a public document) and follow the rules a registration
 * follows (client-rules.ts: redirect URIs, a one-line name). A document is reused for as long as its
 * HTTP cache headers allow (a SHOULD of the spec), an hour at the most (`cacheLifetimeMs`).
 */

/**
 * Special-purpose IPv4 ranges (the IANA IPv4 Special-Purpose Address Registry, RFC 6890 and its
 * updates), with multicast and the reserved 240/4: none is a public web server's.
 */
const SPECIAL_V4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.31.196.0', 24], // AS112
  ['192.52.193.0', 24], // AMT
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['192.175.48.0', 24], // direct delegation AS112
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 (limited broadcast)
];

/**
 * IPv6: only global unicast (2000::/3) is a public server's; inside it, the special-purpose ranges of
 * the IANA IPv6 Special-Purpose Address Registry are refused. Everything outside 2000::/3 (the
 * unspecified and loopback addresses, ::/96 IPv4-compatible, 100::/64 discard, 5f00::/16 SRv6,
 * fc00::/7 unique-local, fe80::/10 link-local, fec0::/10 site-local, ff00::/8 multicast) is refused
 * by that rule, except the two forms that carry a public IPv4 address: ::ffff:0:0/96 (IPv4-mapped,
 * how Node shows an IPv4 peer) and 64:ff9b::/96 (NAT64's well-known prefix, how a DNS64 resolver on
 * an IPv6-only network shows every IPv4 host). Those are judged by the IPv4 address they embed.
 */
const SPECIAL_V6_IN_GLOBAL: readonly [string, number][] = [
  ['2001::', 23], // IETF protocol assignments: Teredo (2001::/32, an obfuscated IPv4 inside), benchmarking, ORCHID
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: its relays are deprecated (RFC 7526), and it embeds an IPv4 address a relay would reach
  ['2620:4f:8000::', 48], // direct delegation AS112
  ['3fff::', 20], // documentation (RFC 9637)
];

const V4 = new BlockList();
for (const [net, bits] of SPECIAL_V4) V4.addSubnet(net, bits, 'ipv4');
const V6 = new BlockList();
for (const [net, bits] of SPECIAL_V6_IN_GLOBAL) V6.addSubnet(net, bits, 'ipv6');
// 64:ff9b:1::/48 (local-use NAT64, RFC 8215) is outside 2000::/3, so refused whatever it embeds.
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');

/** The eight 16-bit words of an IPv6 address (a dotted IPv4 tail allowed), or null when it is not one. */
function ipv6Words(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const words = (part: string | undefined) => (part ? part.split(':').map((w) => parseInt(w, 16)) : []);
  const h = words(head);
  const t = words(tail);
  return tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

/** The IPv4 address an IPv4-mapped or NAT64 well-known-prefix address carries, or null for any other. */
function embeddedV4(w: number[]): string | null {
  const mapped = w.slice(0, 5).every((x) => x === 0) && w[5] === 0xffff;
  const nat64 = w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0);
  if (!mapped && !nat64) return null;
  return [w[6]! >> 8, w[6]! & 0xff, w[7]! >> 8, w[7]! & 0xff].join('.');
}

/** Whether an address is one a public service must not be made to call (anything not plainly a public unicast address). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return V4.check(address, 'ipv4');
  const w = ipv6Words(address);
  if (!w) return true;
  const v4 = embeddedV4(w);
  if (v4 !== null) return V4.check(v4, 'ipv4');
  const canonical = w.map((x) => x.toString(16)).join(':');
  return !GLOBAL_UNICAST.check(canonical, 'ipv6') || V6.check(canonical, 'ipv6');
}

export class ClientMetadataError extends Error {}

export interface ClientMetadataOptions {
  /** OAUTH_CLIENT_METADATA_PRIVATE: allow documents on private and loopback addresses, over http too (tests, closed networks). */
  allowPrivate?: boolean;
  /** Epoch milliseconds, for the cache; tests move it past a document's lifetime. */
  clock?: () => number;
}

/**
 * How long a fetched document may be reused (RFC 9111, as the MCP spec asks: "SHOULD cache metadata
 * respecting HTTP cache headers"): not at all when `Cache-Control` says `no-store`, or `no-cache`
 * (a revalidation this server does not make: it fetches again); else for its `max-age`, or until its
 * `Expires` (counted from its `Date`), less its `Age`; an unreadable `max-age` or `Expires` is
 * already stale (RFC 9111 §4.2.1, §5.3). Never longer than CLIENT_METADATA_LIMITS.cacheMs, which is
 * also the life of a document that says nothing.
 */
export function cacheLifetimeMs(headers: http.IncomingHttpHeaders, now = Date.now()): number {
  const directives = (headers['cache-control'] ?? '')
    .toLowerCase()
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d !== '');
  const named = (name: string) => directives.find((d) => d === name || d.startsWith(`${name}=`));
  if (named('no-store') !== undefined || named('no-cache') !== undefined) return 0;
  const seconds = (raw: string | undefined) => (raw !== undefined && /^\d+$/.test(raw) ? Number(raw) * 1000 : null);
  const age = seconds(headers.age?.trim()) ?? 0;
  const maxAge = named('max-age');
  let fresh: number;
  if (maxAge !== undefined) fresh = seconds(/^max-age="?(\d+)"?$/.exec(maxAge)?.[1]) ?? 0;
  else if (headers.expires !== undefined) {
    const expires = Date.parse(headers.expires);
    const date = headers.date !== undefined ? Date.parse(headers.date) : NaN;
    fresh = Number.isNaN(expires) ? 0 : expires - (Number.isNaN(date) ? now : date);
  } else return CLIENT_METADATA_LIMITS.cacheMs;
  return Math.min(Math.max(fresh - age, 0), CLIENT_METADATA_LIMITS.cacheMs);
}

/** Whether a client id is a URL naming a metadata document (rather than an id we registered). */
export const isMetadataUrl = (clientId: string) => /^https?:\/\//i.test(clientId);

export class ClientMetadataDocuments {
  private readonly cache = new Map<string, { client: OAuthClientInformationFull; until: number }>();
  private static readonly MAX_CACHED = 1000;

  constructor(private readonly o: ClientMetadataOptions = {}) {}

  /** The client a metadata URL describes (cached as its headers allow, an hour at most), or a ClientMetadataError saying why not. */
  async client(clientId: string): Promise<OAuthClientInformationFull> {
    const now = this.o.clock ?? Date.now;
    const cached = this.cache.get(clientId);
    if (cached && cached.until > now()) return cached.client;
    this.cache.delete(clientId);
    const { client, lifetimeMs } = await this.fetchClient(clientId);
    if (lifetimeMs > 0) {
      if (this.cache.size >= ClientMetadataDocuments.MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(clientId, { client, until: now() + lifetimeMs });
    }
    return client;
  }

  private async fetchClient(clientId: string): Promise<{ client: OAuthClientInformationFull; lifetimeMs: number }> {
    let url: URL;
    try {
      url = new URL(clientId);
    } catch {
      throw new ClientMetadataError('client_id is not a URL');
    }
    const httpAllowed = this.o.allowPrivate === true && url.protocol === 'http:';
    if (url.protocol !== 'https:' && !httpAllowed) throw new ClientMetadataError('a client_id URL must use https');
    if (url.username || url.password || url.hash || url.pathname === '/' || url.href !== clientId)
      throw new ClientMetadataError('a client_id URL must be a plain https URL with a path, no credentials or fragment, written as normalised');
    const { body, headers } = await this.get(url);
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch {
      throw new ClientMetadataError(`the client metadata document at ${clientId} is not JSON`);
    }
    const parsed = OAuthClientMetadataSchema.safeParse(doc);
    if (!parsed.success) throw new ClientMetadataError(`the client metadata document at ${clientId} is not client metadata: ${parsed.error.message}`);
    const named = (doc as { client_id?: unknown }).client_id;
    if (named !== clientId) throw new ClientMetadataError(`the client metadata document at ${clientId} names another client_id`);
    if ((doc as Record<string, unknown>).client_secret !== undefined || !['none', undefined].includes(parsed.data.token_endpoint_auth_method))
      throw new ClientMetadataError('a client described by a metadata document is a public client (token_endpoint_auth_method "none")');
    const problem =
      redirectUrisProblem(parsed.data.redirect_uris) ??
      (parsed.data.client_name?.trim() ? null : 'client_name is missing, and a metadata document must have one (MCP 2026-07-28)') ??
      clientNameProblem(parsed.data.client_name);
    if (problem !== null) throw new ClientMetadataError(`the client metadata document at ${clientId}: ${problem}`);
    return {
      client: { ...parsed.data, client_id: clientId, token_endpoint_auth_method: 'none' },
      lifetimeMs: cacheLifetimeMs(headers, (this.o.clock ?? Date.now)()),
    };
  }

  /** GET with the limits: the address checked where the socket connects, a size and time bound, no redirect followed. */
  private get(url: URL): Promise<{ body: string; headers: http.IncomingHttpHeaders }> {
    const allowPrivate = this.o.allowPrivate === true;
    const lookup: LookupFunction = (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
        if (err) return callback(err, '', 4);
        const usable = addresses.filter((a) => allowPrivate || !isPrivateAddress(a.address));
        if (usable.length === 0)
          return callback(new ClientMetadataError(`${hostname} resolves only to private addresses`) as NodeJS.ErrnoException, '', 4);
        if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
        callback(null, usable[0]!.address, usable[0]!.family);
      });
    };
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && !allowPrivate && isPrivateAddress(literal))
      return Promise.reject(new ClientMetadataError(`${url.hostname} is a private address`));
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = client.get(url, { lookup, headers: { Accept: 'application/json' } }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(new ClientMetadataError(`the client metadata document at ${url.href} answered HTTP ${res.statusCode}`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > CLIENT_METADATA_LIMITS.bytes) {
            req.destroy();
            reject(new ClientMetadataError(`the client metadata document at ${url.href} is over ${CLIENT_METADATA_LIMITS.bytes} bytes`));
          } else chunks.push(c);
        });
        res.on('end', () => resolve({ body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
        res.on('error', reject);
      });
      // From the request's start to the document's last byte, however the bytes are spaced (a socket
      // timeout would count only the silences between them).
      const deadline = setTimeout(() => {
        reject(new ClientMetadataError(`the client metadata document at ${url.href} did not arrive within ${CLIENT_METADATA_LIMITS.timeoutMs} ms`));
        req.destroy();
      }, CLIENT_METADATA_LIMITS.timeoutMs);
      req.on('close', () => clearTimeout(deadline));
      req.on('error', (e) =>
        reject(
          e instanceof ClientMetadataError
            ? e
            : new ClientMetadataError(`the client metadata document at ${url.href} could not be fetched: ${e.message}`),
        ),
      );
    });
  }
}
