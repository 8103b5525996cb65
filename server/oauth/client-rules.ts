import { isLoopback } from '../kit/settings.js';

/**
 * What a client may say about itself, the same whether it registers (RFC 7591) or is described by a
 * client ID metadata document (client-metadata.ts): both are a stranger's words, and both reach a
 * person's screen and inbox.
 */

/**
 * Redirect URIs a client may name: https, or http to a loopback address (a desktop client's local
 * listener, RFC 8252 §7.3). MCP 2026-07-28 (Security Considerations, Communication Security): "All
 * redirect URIs MUST be either localhost or use HTTPS": so no private-use scheme (`cursor://…`), no
 * scheme a browser runs (javascript:, data:), no plain http to another machine, and no fragment.
 */
export function redirectUriAllowed(raw: string): boolean {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return false;
  }
  if (u.hash || raw.includes('#')) return false;
  if (u.protocol === 'https:') return true;
  return u.protocol === 'http:' && onLoopback(u);
}

/** Whether a URL's host is this machine: `localhost`, 127.0.0.0/8 or [::1]. */
const onLoopback = (u: URL) => isLoopback(u.hostname.replace(/^\[|\]$/g, ''));

/**
 * Whether a redirect URI sends the code to the person's own machine. Any program there may listen on
 * a loopback port, and a metadata document or registration cannot prove which one will (MCP
 * 2026-07-28, Localhost Redirect URI Risks): the pages and the mail say so (a SHOULD there).
 */
export function isLoopbackRedirect(redirectUri: string): boolean {
  try {
    const u = new URL(redirectUri);
    return (u.protocol === 'http:' || u.protocol === 'https:') && onLoopback(u);
  } catch {
    return false;
  }
}

/** The redirect URIs of a client that break the rule, with why, or null when all may be used. */
export function redirectUrisProblem(uris: readonly string[]): string | null {
  const bad = uris.find((u) => !redirectUriAllowed(u));
  return bad === undefined
    ? null
    : `redirect_uri ${bad} is not allowed: every redirect URI must use https, or be http to localhost (127.0.0.1, [::1]), without a fragment (MCP 2026-07-28)`;
}

/** How long a client's name may be: a line on the sign-in page and in the mail. */
export const CLIENT_NAME_MAX = 100;

/**
 * Characters that would make a name more than one line of plain text, or show it other than as
 * stored: controls (newlines among them), line and paragraph separators, and the bidirectional
 * overrides and isolates that reorder what follows them (a name could otherwise hide the words
 * after it, or turn "moc.elgoog" into "google.com" on screen).
 */
const NOT_PLAIN = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]/u;
/** A link a mail reader would make clickable: a scheme's `://`, `mailto:`, or a `www.` name. */
const LINK = /[a-z][a-z0-9+.-]*:\/\/|\bmailto:|\bwww\./i;

/**
 * Why a client name may not be shown, or null when it may. Refused rather than rewritten (RFC 7591
 * §3.2.2 `invalid_client_metadata`): a client learns at registration what a person will read,
 * instead of a person reading a name its client never sent.
 */
export function clientNameProblem(name: string | undefined): string | null {
  if (name === undefined) return null;
  if ([...name].length > CLIENT_NAME_MAX) return `client_name is over ${CLIENT_NAME_MAX} characters`;
  if (NOT_PLAIN.test(name)) return 'client_name must be one line of plain text (no control, line-break or bidirectional characters)';
  if (LINK.test(name)) return 'client_name must not hold a link (a mail reader would make it clickable)';
  return null;
}

/**
 * A name as shown, whatever was stored before these rules (clients registered earlier): one line,
 * bidirectional controls dropped, at most CLIENT_NAME_MAX characters.
 */
export function shownClientName(name: string): string {
  const line = name.replace(new RegExp(NOT_PLAIN.source, 'gu'), ' ').replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length <= CLIENT_NAME_MAX ? line : `${chars.slice(0, CLIENT_NAME_MAX - 1).join('')}…`;
}

/**
 * Where the code will be sent, as a person can check it: the redirect URI's origin
 * (`https://app.example`, `http://127.0.0.1:33418`). A URI of another scheme (only in a registration
 * stored before the rule above, and refused at /authorize) is shown as its scheme and authority.
 */
export function redirectOrigin(redirectUri: string): string {
  const u = new URL(redirectUri);
  if (u.protocol === 'http:' || u.protocol === 'https:') return u.origin;
  return u.host ? `${u.protocol}//${u.host}` : u.protocol;
}
