import express, { type NextFunction, type Request, type Response } from 'express';
import { createOAuthMetadata } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Options as RateLimitOptions, Store } from 'express-rate-limit';
import { MCP_PATH } from '../../src/contract/api-paths.js';
import { OAUTH_PATHS, OAUTH_RATE_LIMITS, TOKEN_PREFIX, type OAuthLimiter } from '../../src/contract/oauth.js';
import { l10n } from '../../src/site/i18n/index.js';
import type { KeyMailer } from '../access/key-mail.js';
import type { KeyRequests } from '../access/key-requests.js';
import type { KeyStore } from '../access/key-store.js';
import { BEARER, type AccessTokens } from '../access/identity.js';
import type { Logger } from '../kit/logger.js';
import type { SnapshotSource } from '../kit/snapshot-source.js';
import { ClientMetadataDocuments } from './client-metadata.js';
import { authorizeErrorPage, oauthPagesRoute, signInPage } from './pages.js';
import { KeysOAuthProvider, localeOf, resourcesOf } from './provider.js';
import { OAuthStore } from './store.js';
import { bearerChallenge } from './challenge.js';
import { formProblem } from '../kit/person-page.js';

export { OAuthStore } from './store.js';

export interface OAuthOptions {
  snapshots: SnapshotSource;
  keys: KeyStore;
  requests: KeyRequests;
  mailer: KeyMailer;
  logger?: Logger;
  /** OAUTH_CLIENT_METADATA_PRIVATE: client metadata documents may be on private addresses (tests, closed networks). */
  clientMetadataPrivate?: boolean;
  /** The store; made over the key store when absent (tests pass one on their own clock). */
  store?: OAuthStore;
  /** A bounded store for each endpoint's rate limiter: the quota counters' (Meter.limiterStore), in memory or Redis. */
  limiterStore: (name: OAuthLimiter) => Store;
}

export interface OAuth {
  /** Every OAuth endpoint and page, for the app to mount at its root. */
  router: express.Router;
  store: OAuthStore;
  /** The store's access tokens as /mcp takes them: only those granted for this server (RFC 8707). */
  tokens: AccessTokens;
  /** The URL of /mcp's protected resource metadata, which a 401 from /mcp names. */
  resourceMetadataUrl: string;
}

/** Whether a Bearer credential is an OAuth access token (rather than an API key). */
export const isAccessToken = (presented: string) => presented.startsWith(TOKEN_PREFIX.access);

/**
 * OAuth 2.1 for /mcp (the MCP authorization spec of 2026-07-28, which 2025-11-25 clients meet too):
 * the SDK's handlers for authorize, token, registration (RFC 7591) and revocation (RFC 7009), with
 * its metadata handler for RFC 8414 and RFC 9728, all over KeysOAuthProvider. A client is known by
 * its client ID metadata document first (client-metadata.ts); dynamic registration, deprecated in
 * 2026-07-28, is still offered after it for the clients that only register. Tokens are bound to
 * this server (RFC 8707: `resource` at /authorize and /token, the audience checked at /mcp), and the
 * redirect names its issuer (RFC 9207). Only the glue is here:
 * - the app parses no query strings (contract: parameters are the route table's), and the SDK's
 *   authorize handler reads `req.query`: it gets its own parse;
 * - a client secret is compared as its SHA-256, the only form kept: the secret a client sends is
 *   hashed before the SDK's client authentication compares it;
 * - the registration endpoint treats a Bearer credential as an RFC 7591 initial access token: a key
 *   or token that is not live is refused there with why (mcp-remote sends its configured
 *   `Authorization` header everywhere, so the person learns that their key was revoked instead of
 *   being sent through a sign-in they did not ask for).
 */
export function openOAuth(o: OAuthOptions): OAuth {
  const publicUrl = o.mailer.publicUrl;
  const store = o.store ?? new OAuthStore(o.keys);
  const provider = new KeysOAuthProvider({
    store,
    documents: new ClientMetadataDocuments({ allowPrivate: o.clientMetadataPrivate }),
    publicUrl,
    signInPage: (res, request, locale) => signInPage(o, res, request, l10n(locale)),
    logger: o.logger,
  });
  const issuerUrl = new URL(publicUrl);
  const metadata: OAuthMetadata = {
    ...createOAuthMetadata({ provider, issuerUrl, serviceDocumentationUrl: new URL('/docs/', issuerUrl) }),
    // Client ID metadata documents are read (client-metadata.ts); the redirect names its issuer (RFC 9207).
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    // A public client (no secret) revokes its own tokens with its client_id alone (RFC 7009 §2.1).
    revocation_endpoint_auth_methods_supported: ['client_secret_post', 'none'],
  } as OAuthMetadata;
  const resourceMetadata = (resource: string): OAuthProtectedResourceMetadata => ({
    resource,
    authorization_servers: [metadata.issuer],
    bearer_methods_supported: ['header'],
    resource_name: 'ESG disclosure credibility API (MCP)',
    resource_documentation: new URL('/docs/', issuerUrl).href,
  });

  const router = express.Router();
  router.use(OAUTH_PATHS.resourceMetadataMcp, metadataHandler(resourceMetadata(`${publicUrl}${MCP_PATH}`)));
  router.use(OAUTH_PATHS.resourceMetadata, (req: Request, res: Response, next: NextFunction) =>
    // Exactly the origin's document here; the /mcp one is above, and nothing else is under it.
    req.path === '/' ? next() : res.status(404).json({ error: 'not_found' }),
  );
  router.use(OAUTH_PATHS.resourceMetadata, metadataHandler(resourceMetadata(`${publicUrl}/`)));
  router.use(OAUTH_PATHS.serverMetadata, metadataHandler(metadata));
  router.use(OAUTH_PATHS.authorize, (req: Request, res: Response, next: NextFunction) => {
    const query = Object.fromEntries(new URLSearchParams(req.originalUrl.split('?')[1] ?? ''));
    Object.defineProperty(req, 'query', { value: query, configurable: true, enumerable: true });
    refuseWithPage(o, res);
    next();
  });
  const rateLimit = (name: OAuthLimiter): Partial<RateLimitOptions> => ({
    ...OAUTH_RATE_LIMITS[name],
    store: o.limiterStore(name),
    // Counters unreachable (Redis down): the request goes through, as a metered call does; the
    // counters log the outage once, where express-rate-limit would write a line per request.
    passOnStoreError: true,
    logger: { error: () => {}, warn: (...args: unknown[]) => o.logger?.warn('oauth rate limiter', { detail: String(args[0]) }) },
  });
  router.use(OAUTH_PATHS.authorize, authorizationHandler({ provider, rateLimit: rateLimit('authorize') }));
  const hashSecret = express.urlencoded({ extended: false, limit: '16kb' });
  const withHashedSecret = (req: Request, res: Response, next: NextFunction) =>
    hashSecret(req, res, (err?: unknown) => {
      if (err) return next(err);
      const body = req.body as Record<string, unknown> | undefined;
      if (body && typeof body.client_secret === 'string') body.client_secret = OAuthStore.hashSecret(body.client_secret);
      next();
    });
  router.use(OAUTH_PATHS.token, withHashedSecret, tokenHandler({ provider, rateLimit: rateLimit('token') }));
  router.use(OAUTH_PATHS.revoke, withHashedSecret, revocationHandler({ provider, rateLimit: rateLimit('revoke') }));
  router.use(OAUTH_PATHS.register, refuseDeadCredential(o.keys, store));
  router.use(
    OAUTH_PATHS.register,
    clientRegistrationHandler({
      clientsStore: provider.clientsStore,
      clientSecretExpirySeconds: 0,
      rateLimit: rateLimit('register'),
    }),
  );
  router.use(oauthPagesRoute({ ...o, store, issuer: metadata.issuer }));
  router.use(unreadableBody);
  const tokens: AccessTokens = { checkAccess: (token) => store.checkAccess(token), audience: resourcesOf(publicUrl) };
  return { router, store, tokens, resourceMetadataUrl: `${publicUrl}${OAUTH_PATHS.resourceMetadataMcp}` };
}

const BODY_PROBLEMS = {
  tooManyFields: 'The form has more than 1,000 fields; this endpoint reads at most 1,000.',
  tooLarge: 'The request body is larger than this endpoint reads.',
  unreadable: 'The request body could not be read.',
} as const;

/**
 * A body that the endpoints' parsers (the SDK's and the glue's above) could not read: more than
 * 1,000 form fields at /token was a 500. It is the client's error, in OAuth's shape.
 */
function unreadableBody(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  const e = err as { type?: unknown; status?: unknown } | undefined;
  if (typeof e?.type !== 'string' || typeof e.status !== 'number' || e.status < 400 || e.status > 499) return next(err);
  const problem = formProblem(err);
  res
    .status(problem === 'tooLarge' ? 413 : 400)
    .set('Cache-Control', 'no-store')
    .json({ error: 'invalid_request', error_description: BODY_PROBLEMS[problem] });
}

/**
 * No redirect to a client before a person has acted (RFC 9700 §4.11.2). The SDK's authorize
 * handler redirects every error found after its client check (a missing PKCE challenge, a wrong
 * response_type, a resource not ours) to the client's redirect URI, and answers its client check's
 * errors in JSON. KeysOAuthProvider.authorize itself never redirects (it shows the sign-in page), so
 * at /authorize every redirect and every JSON error is a refusal: both become the error page, in the
 * person's language. Only the consent page, after a person's choice, sends anyone to the client.
 */
function refuseWithPage(o: OAuthOptions, res: Response): void {
  const page = (status: number, error: string, description: string) => {
    if (status >= 500) o.logger?.error('oauth: authorization request failed', { error, description });
    authorizeErrorPage(o, res, l10n(localeOf(res)), status, error, description);
  };
  res.redirect = ((...args: [string] | [number, string]) => {
    const to = new URL(String(args.length === 2 ? args[1] : args[0]), 'http://invalid');
    const error = to.searchParams.get('error') ?? 'invalid_request';
    page(error === 'server_error' ? 500 : 400, error, to.searchParams.get('error_description') ?? '');
  }) as Response['redirect'];
  const json = res.json.bind(res);
  res.json = ((body: unknown) => {
    const e = body as { error?: unknown; error_description?: unknown } | null;
    if ((res.statusCode === 400 || res.statusCode === 500) && typeof e?.error === 'string') {
      page(res.statusCode, e.error, typeof e.error_description === 'string' ? e.error_description : '');
      return res;
    }
    return json(body);
  }) as Response['json'];
}

/**
 * RFC 7591 §3: a registration may present an initial access token. Here a Bearer credential at
 * /register is taken as one, and one that is not live (a revoked or unknown key, a dead token) is
 * refused with why. mcp-remote, configured with a key, sends that header with its discovery and
 * registration after a 401 from /mcp: so a person whose key was revoked reads the reason in its log
 * rather than being sent to a sign-in they did not ask for (or, without sign-in, an SSE fallback).
 */
function refuseDeadCredential(keys: KeyStore, store?: OAuthStore) {
  return (req: Request, res: Response, next: NextFunction) => {
    const bearer = BEARER.exec(req.headers.authorization ?? '')?.[1];
    if (bearer === undefined || req.method !== 'POST') return next();
    let why: string | null;
    // Without the key's id or a time's milliseconds: mcp-remote (0.15.1) takes any error whose text
    // holds "404" or "405" for a transport that lacks Streamable HTTP and falls back to SSE, and a
    // random hex id holds one now and then. Dates and times to the second never do.
    if (!isAccessToken(bearer)) why = keys.whyNotLive(bearer, { withId: false });
    else if (!store) why = 'This server does not take OAuth access tokens (its operator has not set up sign-in).';
    else {
      const c = store.checkAccess(bearer);
      why = c.ok ? null : c.why;
    }
    if (why === null) return next();
    res
      .status(401)
      .set({ 'Cache-Control': 'no-store', 'WWW-Authenticate': bearerChallenge({ error: 'invalid_token', description: why }) })
      .json({ error: 'invalid_token', error_description: why });
  };
}

/**
 * Without sign-in (no mail, or PUBLIC_URL not https) the OAuth addresses still answer in JSON, as
 * clients that probe them read JSON: the metadata is 404 saying sign-in is not set up, and a
 * registration is refused saying so, after the same check of a presented credential, so that
 * mcp-remote with a dead key shows why on a server without sign-in too (`npm start` as it comes).
 */
export function withoutSignIn(keys: KeyStore | undefined): express.Router {
  const router = express.Router();
  const notSetUp =
    'Sign-in (OAuth) is not set up on this server: send a key as X-API-Key or Authorization: Bearer (keys: /keys/), or call /mcp without one for the free tier.';
  router.use([OAUTH_PATHS.resourceMetadata, OAUTH_PATHS.serverMetadata], (_req: Request, res: Response) =>
    res.status(404).set('Cache-Control', 'no-store').json({ error: 'not_found', error_description: notSetUp }),
  );
  if (keys) router.use(OAUTH_PATHS.register, refuseDeadCredential(keys));
  router.post(OAUTH_PATHS.register, (_req: Request, res: Response) =>
    res.status(400).set('Cache-Control', 'no-store').json({ error: 'invalid_client_metadata', error_description: notSetUp }),
  );
  return router;
}
