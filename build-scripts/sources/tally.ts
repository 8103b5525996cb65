import { createHash } from 'node:crypto';

/**
 * What each source gave a build, counted as the rows are read: records accepted, records that link
 * to a company of the universe (and how many distinct companies), records carrying the source's key
 * figure, and records served twice. The assertions (assertions.ts) and the build summary read it.
 */
export interface SourceCounts {
  records: number;
  linked: number;
  companies: Set<string>;
  filled: number;
  /** The same record id served again: one record, the copy counted here. */
  duplicates: number;
  /** Of those, copies whose content differs from the first (the first is kept). */
  conflicting: number;
  /** Rows skipped on purpose, by reason (not errors: e.g. a fund that is not an ESG ETF). */
  skipped: Map<string, number>;
  /** Names the build could not resolve (e.g. a fund name matching no code), listed in the summary. */
  unmatched: string[];
}

export class SourceTally {
  readonly bySource = new Map<string, SourceCounts>();

  of(sourceId: string): SourceCounts {
    let c = this.bySource.get(sourceId);
    if (!c) {
      c = { records: 0, linked: 0, companies: new Set(), filled: 0, duplicates: 0, conflicting: 0, skipped: new Map(), unmatched: [] };
      this.bySource.set(sourceId, c);
    }
    return c;
  }

  /** One accepted record; `company` is the universe ticker it links to, if any. */
  record(sourceId: string, company: string | null = null, filled = false): void {
    const c = this.of(sourceId);
    c.records++;
    if (company !== null) {
      c.linked++;
      c.companies.add(company);
    }
    if (filled) c.filled++;
  }

  skip(sourceId: string, reason: string, n = 1): void {
    const c = this.of(sourceId);
    c.skipped.set(reason, (c.skipped.get(reason) ?? 0) + n);
  }
}

/**
 * Keeps the first record of each id. Copies are counted (and those differing from the first,
 * separately): a publisher that serves a record twice, on two pages say, still states one fact.
 */
export class FirstById {
  private readonly seen = new Map<string, string>();
  constructor(
    private readonly counts: SourceCounts,
    /** Keeps only a digest of each record's content, not the record (400k penalties stay small). */
    private readonly contentOf: (row: unknown) => string = (row) => createHash('sha1').update(JSON.stringify(row)).digest('base64'),
  ) {}
  /** True when the record is new. */
  first(id: string, row: unknown): boolean {
    const content = this.contentOf(row);
    const before = this.seen.get(id);
    if (before === undefined) {
      this.seen.set(id, content);
      return true;
    }
    this.counts.duplicates++;
    if (before !== content) this.counts.conflicting++;
    return false;
  }
}
