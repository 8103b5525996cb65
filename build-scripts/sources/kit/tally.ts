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
  /** Records that share their identity with another record but differ in a field: not copies, all kept. */
  sharedId: number;
  /** Business IDs served with seven digits and padded back to eight (a lost leading zero). */
  padded: number;
  /** Values kept as served that the build's tables do not know (an industry code, an agency), by what, with counts: warnings in the summary. */
  unknown: Map<string, number>;
  /**
   * The newest date the publisher stamped on the answers read (出表日期, TPEx's `Date`), ISO; null when
   * its answers carry none. The registry publishes it (contract 3.3), so a year-old answer served as
   * current is visible as such.
   */
  publisherDate: string | null;
}

export class SourceTally {
  readonly bySource = new Map<string, SourceCounts>();

  of(sourceId: string): SourceCounts {
    let c = this.bySource.get(sourceId);
    if (!c) {
      c = {
        records: 0,
        linked: 0,
        companies: new Set(),
        filled: 0,
        duplicates: 0,
        conflicting: 0,
        skipped: new Map(),
        unmatched: [],
        sharedId: 0,
        padded: 0,
        unknown: new Map(),
        publisherDate: null,
      };
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

  /** A value kept as served that no table of the build knows (`industry code 99`): a warning, never a reject. */
  unknownValue(sourceId: string, what: string): void {
    const c = this.of(sourceId);
    c.unknown.set(what, (c.unknown.get(what) ?? 0) + 1);
  }

  /** A date the publisher stamped on a record it served (ISO `YYYY-MM-DD`): the newest is kept. */
  stamp(sourceId: string, date: string | null): void {
    if (date === null) return;
    const c = this.of(sourceId);
    if (c.publisherDate === null || date > c.publisherDate) c.publisherDate = date;
  }

  /** A business ID read with seven digits and padded to eight. */
  paddedId(sourceId: string): void {
    this.of(sourceId).padded++;
  }
}

/** A short digest of a record's content: what the copy checks keep instead of the record. */
const digest = (content: string) => createHash('sha1').update(content).digest('base64');

/**
 * Keeps the first record of each id. Copies are counted (and those differing from the first,
 * separately): a publisher that serves a record twice, on two pages say, still states one fact.
 */
export class FirstById {
  private readonly seen = new Map<string, string>();
  constructor(
    private readonly counts: SourceCounts,
    /** Keeps only a digest of each record's content, not the record (400k penalties stay small). */
    private readonly contentOf: (row: unknown) => string = (row) => digest(JSON.stringify(row)),
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

/**
 * Keeps every record except exact copies. A copy is a record whose identity and every field equal
 * an earlier record's (a page served twice); records that share an identity but differ in any field
 * are distinct facts (MOENV numbers decisions per county, so one 裁處書字號 names decisions of several
 * counties), all kept and counted as `sharedId`.
 */
export class ExactCopies {
  /** Identity → digest of the one record seen with it, or of each when several differ. */
  private readonly seen = new Map<string, string | string[]>();
  constructor(private readonly counts: SourceCounts) {}
  /** True when the record is not a copy of one already seen. */
  first(id: string, values: readonly string[]): boolean {
    const content = digest(values.join('\u0001'));
    const before = this.seen.get(id);
    if (before === undefined) {
      this.seen.set(id, content);
      return true;
    }
    const list = typeof before === 'string' ? [before] : before;
    if (list.includes(content)) {
      this.counts.duplicates++;
      return false;
    }
    this.seen.set(id, [...list, content]);
    this.counts.sharedId++;
    return true;
  }
}
