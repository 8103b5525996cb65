import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Security headers (helmet), computed once at start-up and set on every response from a plain
 * header map: the company-file fast path (server/serve.ts) answers outside Express and must send
 * exactly what the Express path sends, and copying a dozen fixed headers costs less than running
 * helmet's middleware per request.
 *
 * Chosen for what this service is: an open JSON API (CORS `*`, so Cross-Origin-Resource-Policy is
 * `cross-origin`, not helmet's `same-origin`, which would stop other sites' scripts from reading
 * it) and read-only pages whose only scripts, styles and images are the site's own files.
 */
function headersOf(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (k: string, v: string | number | string[]) => void (headers[k] = Array.isArray(v) ? v.join(', ') : String(v)),
    removeHeader: (k: string) => void delete headers[k],
    getHeader: (k: string) => headers[k],
  };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, () => {});
  return headers;
}

const common: HelmetOptions = {
  crossOriginResourcePolicy: { policy: 'cross-origin' },
  // Pages open no popups and embed nothing cross-origin; these two only constrain what does.
  crossOriginOpenerPolicy: false,
  crossOriginEmbedderPolicy: false,
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
  xFrameOptions: { action: 'deny' },
  // Left out: helmet's defaults for old browsers and plugins (IE8's downloads, Flash and PDF
  // cross-domain policies, the XSS auditor browsers removed) and two document hints (DNS prefetch,
  // origin-keyed clusters). On a JSON body they say nothing, the pages' CSP covers what they guarded,
  // and every static file through nginx paid for five more headers (bench, "Production shape").
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

/** Every response, JSON included: a body that is data, never to be run, framed or sniffed. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = headersOf({
  ...common,
  contentSecurityPolicy: { useDefaults: false, directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] } },
});

/**
 * The pages' policy: scripts, styles, images, fonts and fetches from the site itself only; no
 * inline script (the pages have none: JSON-LD is a data block, which the policy does not run).
 * The API reference (/docs/) runs Scalar, which injects its styles at run time: that page alone
 * allows inline styles.
 */
const pageDirectives = (inlineStyles: boolean) => ({
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': inlineStyles ? ["'self'", "'unsafe-inline'"] : ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
});
const cspOf = (inlineStyles: boolean) =>
  headersOf({ ...common, contentSecurityPolicy: { useDefaults: false, directives: pageDirectives(inlineStyles) } })['Content-Security-Policy']!;
export const PAGE_CSP = cspOf(false);
export const DOCS_PAGE_CSP = cspOf(true);

/**
 * The OAuth consent page's policy: the pages' own, except that its form may lead on to the client's
 * redirect URI (browsers check form-action against the redirect a form's answer makes), given as
 * its origin, or its scheme for a private-use scheme (`cursor:`).
 */
export function consentPageCsp(redirectUri: string): string {
  const u = new URL(redirectUri);
  const target = u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : u.protocol;
  return headersOf({
    ...common,
    contentSecurityPolicy: { useDefaults: false, directives: { ...pageDirectives(false), 'form-action': ["'self'", target] } },
  })['Content-Security-Policy']!;
}
