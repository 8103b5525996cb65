import type { Response } from 'express';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import {
  InvalidClientError,
  InvalidClientMetadataError,
  InvalidGrantError,
  InvalidRequestError,
  InvalidTargetError,
  InvalidTokenError,
  TemporarilyUnavailableError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { Logger } from '../kit/logger.js';
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { MCP_PATH } from '../../src/contract/api-paths.js';
import { OAUTH_RETENTION } from '../../src/contract/oauth.js';
import type { Locale } from '../../src/site/i18n/locales.js';
import { ClientMetadataDocuments, ClientMetadataError, isMetadataUrl } from './client-metadata.js';
import { clientNameProblem, redirectUrisProblem, shownClientName } from './client-rules.js';
import type { AuthorizationRequest, ExchangeRefusal, OAuthStore } from './store.js';

export interface ProviderOptions {
  store: OAuthStore;
  documents: ClientMetadataDocuments;
  /** PUBLIC_URL: the issuer, and the origin of the resources tokens are for. */
  publicUrl: string;
  /** Answers GET /authorize once the request is recorded: the sign-in page (server/oauth/pages.ts). */
  signInPage: (res: Response, request: AuthorizationRequest, locale: Locale) => void;
  logger?: Logger;
}

/**
 * A token exchange the keys database could not lock in time (another shim or the keys command
 * holding it past busy_timeout): nothing was spent, so the client is told to try again, in OAuth's
 * words rather than as a 500, and the operator reads it in the log (the SDK's handler logs nothing).
 */
function unlessBusy<T>(logger: Logger | undefined, what: string, exchange: () => T): T {
  try {
    return exchange();
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY')) {
      logger?.error(`oauth: ${what} failed`, { error: e instanceof Error ? e.stack : String(e) });
      throw e;
    }
    logger?.error(`oauth: ${what} found the keys database locked`, { code });
    throw new TemporarilyUnavailableError('The keys database is busy; nothing was spent. Try again in a moment.');
  }
}

/** The OAuth error of an exchange the store refused. */
const refusal = (r: ExchangeRefusal) => (r.error === 'invalid_target' ? new InvalidTargetError(r.why) : new InvalidGrantError(r.why));

/**
 * The resources a token of this server may be for (RFC 8707): /mcp, and the origin as a whole (what
 * the origin's protected resource metadata names). /mcp takes a token for either, and no other
 * (server/access/identity.ts).
 */
export const resourcesOf = (publicUrl: string): readonly string[] => [`${publicUrl}${MCP_PATH}`, `${publicUrl}/`];

/**
 * The resource a `resource` parameter names, as stored with a grant: one of `resourcesOf`. Anything
 * else is another server's, and refused, as is a URI with a fragment (RFC 8707 §2: it MUST NOT
 * include one). A query is dropped (SHOULD NOT), as are the case of the scheme and host and a
 * trailing slash after /mcp, which name the same server (MCP 2026-07-28, Canonical Server URI).
 */
export function resourceOf(publicUrl: string, requested: URL | undefined): string {
  const [mcp, origin] = resourcesOf(publicUrl) as [string, string];
  if (requested === undefined) return mcp;
  if (requested.href.includes('#'))
    throw new InvalidTargetError(`resource ${requested.href} has a fragment, which a resource indicator must not have (RFC 8707 §2)`);
  const r = new URL(requested.href);
  r.search = '';
  if (r.origin === publicUrl && (r.pathname === '/' || r.pathname === MCP_PATH || r.pathname === `${MCP_PATH}/`))
    return r.pathname === '/' ? origin : mcp;
  throw new InvalidTargetError(`resource ${requested.href} is not served here: tokens of this server are for ${mcp}`);
}

/** The locale of the pages of an authorization (and of its error page, server/oauth/index.ts): `ui_locales` if it names one we have, else the browser's first choice. */
export function localeOf(res: Response): Locale {
  const url = new URL(res.req.originalUrl, 'http://x');
  const wanted = [url.searchParams.get('ui_locales') ?? '', res.req.headers['accept-language'] ?? ''].join(' ');
  for (const tag of wanted.split(/[\s,;]+/)) {
    if (/^zh\b/i.test(tag)) return 'zh-TW';
    if (/^en\b/i.test(tag)) return 'en';
  }
  return 'en';
}

/**
 * The authorization server behind the MCP SDK's handlers (`mcpAuthRouter`'s parts, server/oauth/index.ts):
 * they parse and check the protocol (PKCE S256, redirect URIs, client authentication); this class
 * answers from the keys database. A person consents on pages of ours (the e-mailed link), so
 * `authorize` shows the sign-in page rather than redirecting at once.
 */
export class KeysOAuthProvider implements OAuthServerProvider {
  readonly clientsStore: OAuthRegisteredClientsStore;

  constructor(private readonly o: ProviderOptions) {
    this.clientsStore = {
      getClient: async (clientId: string) => {
        if (!isMetadataUrl(clientId)) return o.store.client(clientId);
        try {
          return await o.documents.client(clientId);
        } catch (e) {
          if (e instanceof ClientMetadataError) throw new InvalidClientError(`client_id ${clientId}: ${e.message}`);
          throw e;
        }
      },
      registerClient: (info: Omit<OAuthClientInformationFull, 'client_id' | 'client_id_issued_at'>) => {
        const problem = redirectUrisProblem(info.redirect_uris) ?? clientNameProblem(info.client_name);
        if (problem !== null) throw new InvalidClientMetadataError(problem);
        if (info.grant_types && info.grant_types.some((g) => !['authorization_code', 'refresh_token'].includes(g)))
          throw new InvalidClientMetadataError('grant_types: only authorization_code and refresh_token are supported');
        // Registration needs no sign-in: its row is bounded (docs/keys-and-quotas.md "Limits and caps").
        if (Buffer.byteLength(JSON.stringify(info)) > OAUTH_RETENTION.registrationBytes)
          throw new InvalidClientMetadataError(`the client metadata is over ${OAUTH_RETENTION.registrationBytes} bytes as JSON`);
        return o.store.registerClient(info);
      },
    };
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const resource = resourceOf(this.o.publicUrl, params.resource);
    // A registration stored before the redirect rules of MCP 2026-07-28 (client-rules.ts) may hold another scheme.
    const problem = redirectUrisProblem([params.redirectUri]);
    if (problem !== null) throw new InvalidRequestError(`${problem}; register the client again`);
    const request = this.o.store.openRequest({
      client_id: client.client_id,
      // Shown as one line whatever a client stored before the name rules (client-rules.ts).
      client_name:
        shownClientName(client.client_name ?? '') || shownClientName(client.client_uri ? new URL(client.client_uri).host : client.client_id),
      redirect_uri: params.redirectUri,
      code_challenge: params.codeChallenge,
      state: params.state ?? null,
      resource,
      locale: localeOf(res),
    });
    this.o.signInPage(res, request, request.locale as Locale);
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    const challenge = this.o.store.challengeOf(client.client_id, code);
    if (challenge === undefined) throw new InvalidGrantError('The authorization code is not one issued to this client.');
    return challenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _verifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    const wanted = resource && resourceOf(this.o.publicUrl, resource);
    const r = unlessBusy(this.o.logger, 'code exchange', () => this.o.store.exchangeCode(client.client_id, code, redirectUri, wanted));
    if (!r.ok) throw refusal(r);
    return r.tokens;
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string, _scopes?: string[], resource?: URL): Promise<OAuthTokens> {
    const wanted = resource && resourceOf(this.o.publicUrl, resource);
    const r = unlessBusy(this.o.logger, 'refresh', () => this.o.store.refresh(client.client_id, refreshToken, wanted));
    if (!r.ok) throw refusal(r);
    return r.tokens;
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const c = this.o.store.checkAccess(token);
    if (!c.ok) throw new InvalidTokenError(c.why);
    return {
      token,
      clientId: c.clientId,
      scopes: [],
      expiresAt: Math.floor(c.expiresAt / 1000),
      resource: new URL(c.resource),
      extra: { keyId: c.key.id },
    };
  }

  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    this.o.store.revokeToken(client.client_id, request.token);
  }
}
