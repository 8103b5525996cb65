import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { LOCALE_PREFIX, LOCALES, localeOfPath, type Locale } from '../../src/site/i18n/locales.js';
import { DOCS_PAGES, fileForPageUrl, PAGE_CONTENT_TYPES, pageUrlsFor } from '../../src/site/i18n/paths.js';
import { CACHE_PUBLIC, NO_STORE, READ_ONLY_METHODS } from '../../src/contract/headers.js';
import { sendBody } from '../kit/http.js';
import { DOCS_PAGE_CSP, PAGE_CSP } from '../../src/contract/security.js';
import { readSnapshotFile } from '../kit/snapshot-files.js';
import type { SnapshotSource } from '../kit/snapshot-source.js';

/** A page or asset of the snapshot's tree (`/company/D1101/` is `company/D1101/index.html`). */
const readPage = (snapshotDir: string, url: string) => readSnapshotFile(snapshotDir, fileForPageUrl(url));

/** Path segments the pages use: letters, digits, `.`, `_`, `-`, never starting with a dot (no `..`). */
const PAGE_PATH = /^\/(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/?)*$/;
/** A company or ETF page in any language, its code in any case, with or without the final slash. */
const CODE_PAGE = new RegExp(
  `^((?:${LOCALES.map((l) => LOCALE_PREFIX[l])
    .filter(Boolean)
    .join('|')})?)/(company|etf)/([0-9A-Za-z]{1,12})/?$`,
);

const DOCS_FILES = new Set(DOCS_PAGES.map(fileForPageUrl));

/** An HTML page's Content-Security-Policy (the API reference's allows the inline styles Scalar injects); other files keep the API's. */
function cspFor(url: string): Record<string, string> {
  const file = fileForPageUrl(url);
  if (!file.endsWith('.html')) return {};
  return { 'Content-Security-Policy': DOCS_FILES.has(file) ? DOCS_PAGE_CSP : PAGE_CSP };
}

function contentTypeOf(url: string): string {
  const file = fileForPageUrl(url);
  return PAGE_CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}

/** The page a folder URL without its slash, or a code in lower case (the API takes both), stands for; null if none. */
function canonicalPage(dir: string, path: string): string | null {
  const lastSegment = path.slice(path.lastIndexOf('/') + 1);
  const code = CODE_PAGE.exec(path);
  const canonical = code ? `${code[1]}/${code[2]}/${code[3]!.toUpperCase()}/` : `${path}/`;
  return canonical !== path && (code || !lastSegment.includes('.')) && readPage(dir, canonical) ? canonical : null;
}

/** A 405's body on a page, in its language: plain words, as the tree has no page for it. */
const NOT_ALLOWED_TEXT: Record<Locale, string> = {
  en: 'Method not allowed: pages are read with GET or HEAD.\n',
  'zh-TW': '不允許此請求方法：頁面僅能以 GET 或 HEAD 讀取。\n',
};

/** A method other than GET or HEAD on a page (or what redirects to one): 405 with `Allow`; elsewhere the 404 that follows. */
function otherMethod(snapshots: SnapshotSource, req: Request, res: Response, next: NextFunction): void {
  const dir = snapshots.current().dir;
  if (!PAGE_PATH.test(req.path) || !(readPage(dir, req.path) || canonicalPage(dir, req.path))) return next();
  const body = Buffer.from(NOT_ALLOWED_TEXT[localeOfPath(req.path)], 'utf8');
  res
    .status(405)
    .set({ Allow: READ_ONLY_METHODS, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': NO_STORE, 'Content-Length': String(body.length) });
  res.end(body);
}

/**
 * The pages for people (contract section 8) from the current snapshot's tree, outside /api/v1:
 * `/company/D1101/` is `tree/company/D1101/index.html`. Same caching as the JSON (public for an
 * hour, strong ETag, 304). A folder URL without its slash is redirected to it; anything else
 * unknown gets the snapshot's HTML 404 page, in the language of the path's prefix (`/zh-TW/…`).
 * Another method on a page is a 405. Paths under /api stay with the API and its envelope.
 */
export function pagesRoute(snapshots: SnapshotSource): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    // Anything that looks like the API, in any case, gets the API's JSON envelope, never a page.
    if (/^\/api(\/|$)/i.test(req.path)) return next();
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') return otherMethod(snapshots, req, res, next);
      const dir = snapshots.current().dir;
      const path = req.path;
      if (PAGE_PATH.test(path)) {
        const page = readPage(dir, path);
        if (page) return sendBody(req, res, page.bytes, contentTypeOf(path), cspFor(path), page.etag);
        const canonical = canonicalPage(dir, path);
        if (canonical !== null) {
          const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
          res.setHeader('Cache-Control', CACHE_PUBLIC);
          return res.redirect(301, `${canonical}${query}`);
        }
      }
      const notFound = readPage(dir, pageUrlsFor(localeOfPath(path)).notFound) ?? readPage(dir, pageUrlsFor('en').notFound);
      if (!notFound) return next();
      res.status(404);
      res.setHeader('Content-Type', PAGE_CONTENT_TYPES.html!);
      res.setHeader('Content-Security-Policy', PAGE_CSP);
      res.setHeader('Cache-Control', NO_STORE);
      res.setHeader('Content-Length', notFound.bytes.length);
      res.end(req.method === 'HEAD' ? undefined : notFound.bytes);
    } catch (e) {
      next(e);
    }
  };
}
