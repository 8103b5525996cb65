/**
 * The document's operations in groups (OpenAPI tags), in the order a reader meets them. Beyond the
 * sidebar's grouping this is what keeps /docs/ quick: Scalar renders the first group and lists the
 * others' operations until opened, where it rendered all 21 operations at once (about 37,000 DOM
 * nodes, 4–7 s of the main thread on this 2-core machine, a minute and more while tests ran beside it).
 */
type Json = Record<string, any>;

export const OPERATION_TAGS = [
  { name: 'Companies', description: 'One company: its summary, its five sourced sections and its history across snapshots.',
    paths: ['/api/v1/company/{ticker}', '/api/v1/company/{ticker}/canonical', '/api/v1/company/{ticker}/history'] },
  { name: 'Several companies', description: 'Side by side, many summaries in one call, and evidence packs to cite.',
    paths: ['/api/v1/compare', '/api/v1/batch', '/api/v1/packs'] },
  { name: 'Rankings', description: 'The market ranked by credibility score, filtered and sorted.', paths: ['/api/v1/ranking', '/api/v1/ranking/page/{page}'] },
  { name: 'ETFs', description: 'ESG funds rated by their holdings.', paths: ['/api/v1/etf', '/api/v1/etf/{code}'] },
  { name: 'Changes', description: 'What moved between snapshots, cause by cause.', paths: ['/api/v1/changes', '/api/v1/changes/page/{page}', '/api/v1/feed.atom'] },
  { name: 'Sources and methodology', description: 'Where every fact comes from, and how scores are computed.', paths: ['/api/v1/sources/registry', '/api/v1/methodology'] },
  { name: 'Snapshots and downloads', description: 'Every published snapshot, its files, and reads pinned to one snapshot.',
    paths: ['/api/v1/snapshots', '/api/v1/downloads/{id}/{file}', '/api/v1/snapshots/{id}/{path}'] },
  { name: 'The API itself', description: 'Its index, this document, and your quota.', paths: ['/api/v1/', '/api/v1/openapi.json', '/api/v1/usage'] },
] as const;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Tags every operation by its path; a path in no group (a new endpoint) fails the build here rather than hide in no group. */
export function tagOperations(doc: Json): void {
  const tagOf = new Map<string, string>(OPERATION_TAGS.flatMap((t) => t.paths.map((p) => [p, t.name] as const)));
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    const tag = tagOf.get(path);
    if (!tag) throw new Error(`OpenAPI path ${path} is in no group of src/contract/openapi-tags.ts`);
    for (const method of HTTP_METHODS) if (item[method]) item[method].tags = [tag];
  }
  doc.tags = OPERATION_TAGS.map(({ name, description }) => ({ name, description }));
}
