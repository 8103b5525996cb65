import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { OAuthClientMetadataSchema, type OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { CLIENT_METADATA_LIMITS } from '../../src/contract/oauth.js';

/**
 * Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document, which the MCP
 * authorization spec of 2025-11-25 prefers to registration): a client's id is an https URL, and the
 * document there describes the client. Fetching a URL a stranger names is a server-side request on
 * their behalf, so: https only, no credentials or fragment, addresses checked at connect time (a
 * name that resolves to a private, loopback or link-local address is refused, whatever it resolved
 * to a moment before), a few KiB within a few seconds, no redirects, and the document must name
 * itself and be a public client (no secret can live in a public document).
 */

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

/** Whether an address is one a public service must not be made to call. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  return family === 0 || PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class ClientMetadataError extends Error {}

export interface ClientMetadataOptions {
  /** OAUTH_CLIENT_METADATA_PRIVATE: allow documents on private and loopback addresses, over http too (tests, closed networks). */
  allowPrivate?: boolean;
}

/** Whether a client id is a URL naming a metadata document (rather than an id we registered). */
export const isMetadataUrl = (clientId: string) => /^https?:\/\//i.test(clientId);

export class ClientMetadataDocuments {
  private readonly cache = new Map<string, { client: OAuthClientInformationFull; until: number }>();
  private static readonly MAX_CACHED = 1000;

  constructor(private readonly o: ClientMetadataOptions = {}) {}

  /** The client a metadata URL describes (cached for an hour), or a ClientMetadataError saying why not. */
  async client(clientId: string): Promise<OAuthClientInformationFull> {
    const cached = this.cache.get(clientId);
    if (cached && cached.until > Date.now()) return cached.client;
    const client = await this.fetchClient(clientId);
    if (this.cache.size >= ClientMetadataDocuments.MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(clientId, { client, until: Date.now() + CLIENT_METADATA_LIMITS.cacheMs });
    return client;
  }

  private async fetchClient(clientId: string): Promise<OAuthClientInformationFull> {
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
    const body = await this.get(url);
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
    return { ...parsed.data, client_id: clientId, token_endpoint_auth_method: 'none' };
  }

  /** GET with the limits: the address checked where the socket connects, a size and time bound, no redirect followed. */
  private get(url: URL): Promise<string> {
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
      const req = client.get(url, { lookup, headers: { Accept: 'application/json' }, timeout: CLIENT_METADATA_LIMITS.timeoutMs }, (res) => {
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
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new ClientMetadataError(`the client metadata document at ${url.href} did not arrive in time`)));
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
