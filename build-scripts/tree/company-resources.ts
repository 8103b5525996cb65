import type { z } from 'zod';
import { fullCanonicalViewSchema } from '../../src/contract/canonical.js';
import { operation, urlOf, type FileOperationId } from '../../src/contract/routes.js';
import type { SnapshotMeta } from '../../src/snapshot/schema.js';
import type { CompanyFacts, SnapshotStore } from '../../src/snapshot/store.js';
import { canonicalView, type SourceNames } from '../../src/views/canonical.js';
import { companyView } from '../../src/views/company.js';
import { sourceNamesOf } from '../../src/views/source-names.js';
import type { StaticResource } from '../output/tree-files.js';

/** One file of a company's own, written in ticker chunks by every tree thread. */
export interface CompanyFile {
  body: (meta: SnapshotMeta, facts: CompanyFacts, sourceName: SourceNames) => unknown;
  /** What the body must satisfy, when stricter than the operation's 200 (the static canonical view holds every section). */
  schema?: z.ZodType;
}

/** The operations with one file per company, and their views. */
export const COMPANY_FILES = {
  company: { body: (meta, facts) => companyView(meta, facts.company) },
  canonical: { body: (meta, facts, sourceName) => canonicalView(meta, facts, sourceName), schema: fullCanonicalViewSchema },
} satisfies { [Id in FileOperationId]?: CompanyFile };

/**
 * The files of each company (COMPANY_FILES). Kept apart from the shared resources so a tree worker
 * loads only what company files need.
 */
export function* companyResources(store: SnapshotStore, companies: Iterable<CompanyFacts>): Generator<StaticResource> {
  const meta = store.meta;
  const sourceName = sourceNamesOf(store.sources());
  const files = Object.entries(COMPANY_FILES).map(([id, file]: [string, CompanyFile]) => {
    const op = operation(id as FileOperationId);
    return { op, file, schema: file.schema ?? op.ok.schema ?? null };
  });
  for (const facts of companies) {
    const ticker = facts.company.ticker;
    for (const { op, file, schema } of files) yield { url: urlOf(op, { ticker }), schema, body: file.body(meta, facts, sourceName) };
  }
}
