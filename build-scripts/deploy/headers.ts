/**
 * The headers a front (nginx, a static host) must send with a static file, taken from the modules
 * the shim sends them from, so the front's rules cannot drift from the shim's answers: CORS
 * (server/kit/http.ts), caching (static files are public), the security headers and the pages'
 * Content-Security-Policy (src/contract/security.ts), and the content types of the tree's files.
 */
import { CACHE_PUBLIC, CORS_HEADERS, JSON_TYPE, MCP_PREFLIGHT_HEADERS, NO_STORE, PREFLIGHT_HEADERS } from '../../src/contract/headers.js';
import { DOCS_PAGE_CSP, PAGE_CSP, SECURITY_HEADERS } from '../../src/contract/security.js';
import { DOCS_PAGES, PAGE_CONTENT_TYPES } from '../../src/site/i18n/paths.js';
import { ATOM_TYPE } from '../../src/contract/headers.js';

export { CACHE_PUBLIC, JSON_TYPE, NO_STORE };

const CSP = 'Content-Security-Policy';

/** Every security header but the Content-Security-Policy, which depends on the file (see `cspOf`). */
export const SECURITY_WITHOUT_CSP: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(SECURITY_HEADERS).filter(([k]) => k !== CSP));

/** The policy of a JSON body, an asset or anything else that is not a page: run nothing. */
export const API_CSP = SECURITY_HEADERS[CSP] ?? "default-src 'none'";
export { DOCS_PAGE_CSP, PAGE_CSP };

/** The pages whose policy allows inline styles (Scalar injects them), one per language, as server/routes/pages.ts decides. */
export const DOCS_PAGE_URLS: readonly string[] = DOCS_PAGES;

/** Headers of every static 200 (and its 304): open CORS, public caching for an hour, the security headers. */
export const STATIC_HEADERS: Readonly<Record<string, string>> = { ...CORS_HEADERS, 'Cache-Control': CACHE_PUBLIC, ...SECURITY_WITHOUT_CSP };

/** Headers of an OPTIONS preflight (contract 1), as the shim answers it. */
export const PREFLIGHT_RESPONSE_HEADERS: Readonly<Record<string, string>> = { ...CORS_HEADERS, ...PREFLIGHT_HEADERS, ...SECURITY_HEADERS };

/** Headers of a preflight to OAuth's endpoints a browser client calls (they take `Authorization`), as the shim answers it. */
export const BEARER_PREFLIGHT_RESPONSE_HEADERS: Readonly<Record<string, string>> = { ...CORS_HEADERS, ...MCP_PREFLIGHT_HEADERS, ...SECURITY_HEADERS };

/** Headers of an error envelope the front writes itself (the shim is unreachable, a request nginx refuses). */
export const ERROR_HEADERS: Readonly<Record<string, string>> = { ...CORS_HEADERS, 'Cache-Control': NO_STORE, ...SECURITY_HEADERS };

/** Content type of each file extension in the tree: the JSON, the Atom feed, the pages and their assets. */
export const TREE_CONTENT_TYPES: Readonly<Record<string, string>> = { ...PAGE_CONTENT_TYPES, json: JSON_TYPE, atom: ATOM_TYPE };

export { CORS_HEADERS };
