import { fileForUrlPath, DOWNLOADS_DIR } from './api-paths.js';
import { fullPath, ROUTE_TABLE, type TableOperation } from './routes.js';

/** The MCP endpoint's path, beside the API (its rule lives with the API's: api-paths.ts). */
export { MCP_PATH } from './api-paths.js';

/** An operation's path parameters, in order, as a tuple of values. */
type ParamValues<P extends string> = P extends `${string}{${string}}${infer Rest}` ? [string | number, ...ParamValues<Rest>] : [];
/** A fixed URL is a string; one with parameters, a function of their values in path order. */
type UrlBuilder<P extends string> = ParamValues<P> extends [] ? string : (...values: ParamValues<P>) => string;
export type Urls = { readonly [O in TableOperation as O['id']]: UrlBuilder<O['path']> };

/**
 * Every operation's URL by its id, made from the route table: `urls.ranking` is `/api/v1/ranking`,
 * `urls.company('2330')` is `/api/v1/company/2330` (each value already well-formed). What the tree
 * writer, the pages, the views and the shim link to; no other file spells an API path.
 */
export const urls = Object.fromEntries(
  ROUTE_TABLE.map((op) => {
    const pieces = fullPath(op).split(/\{\w+\}/);
    if (pieces.length === 1) return [op.id, pieces[0]];
    const build = (...values: (string | number)[]) => {
      let url = pieces[0]!;
      for (let i = 1; i < pieces.length; i++) url += `${values[i - 1]}${pieces[i]}`;
      return url;
    };
    return [op.id, build];
  }),
) as unknown as Urls;

/**
 * Tree files the snapshot's archive of its own tree leaves out: the two that name the archive's
 * hash (/snapshots, and the OpenAPI document, whose examples include /snapshots), and the download
 * folders themselves.
 */
export function outsideTreeArchive(rel: string): boolean {
  return rel === fileForUrlPath(urls.snapshots) || rel === fileForUrlPath(urls.openapi) || rel.startsWith(`${DOWNLOADS_DIR}/`);
}
