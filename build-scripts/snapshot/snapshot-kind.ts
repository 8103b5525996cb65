import type { SnapshotKind } from '../../src/contract/vocabulary.js';

/**
 * A snapshot's kind follows its sources, never a flag alone: a fictional company published as real
 * (with the real-data disclaimer and no demo banner) is the worst thing this service could serve,
 * and real companies published as a demo would carry a disclaimer calling them fictional.
 *
 * The data decides. Every demo ticker starts with `D` (build-scripts/demo/ids.ts; the spec's "demo
 * universe"), and no real listing does (TWSE and TPEx codes are digits, sometimes with letters
 * after), so a copied demo folder without its manifest is still known for what it is. The demo
 * generator's `manifest.json` also says `kind: "demo"`: that marker may only agree. A fetch writes
 * `kind: "production"` into every folder it writes, whatever the publisher served (a loopback
 * publisher may serve the demo), so that word is not evidence of real data and is not read here.
 */

/** The sources' own kind disagrees with the kind asked for, or with itself: nothing may be published. */
export class SnapshotKindError extends Error {
  override name = 'SnapshotKindError';
}

/** A demo universe's ticker (`D1101`, `D100001`): no real listing starts with a letter. */
export const isDemoTicker = (ticker: string): boolean => ticker.startsWith('D');

export interface KindEvidence {
  /** Where the sources are, for the messages. */
  sourcesDir: string;
  /** Every company ticker of the universe the sources make. */
  tickers: Iterable<string>;
  /** What the sources folder's manifest.json says (`kind`), if anything. */
  manifestKind?: SnapshotKind;
  /** The kind the caller expects (`--kind`); undefined: whatever the sources are. */
  requested?: SnapshotKind;
}

const examples = (list: string[]) => `${list.slice(0, 3).join(', ')}${list.length > 3 ? ', …' : ''}`;

/**
 * The kind of the snapshot these sources make, or a SnapshotKindError saying why none may be made:
 * - a universe of demo tickers only is a demo; of real tickers only, production;
 * - a universe mixing them is neither (a demo company among real ones, or the reverse, is a broken folder);
 * - a manifest saying demo over real tickers is a folder that lies about itself;
 * - a requested kind other than the sources' own is refused, both ways.
 * An empty universe has no evidence: the manifest's demo marker, else what was asked, else production
 * (the build then fails on its own: no companies).
 */
export function snapshotKindOf(e: KindEvidence): SnapshotKind {
  const demo: string[] = [];
  const real: string[] = [];
  for (const t of e.tickers) (isDemoTicker(t) ? demo : real).push(t);
  if (demo.length > 0 && real.length > 0) {
    throw new SnapshotKindError(
      `sources in ${e.sourcesDir} mix the demo universe's fictional companies (${demo.length} tickers starting with D: ${examples(demo)}) ` +
        `with real listings (${real.length}: ${examples(real)}): neither a demo nor a production snapshot can be made from them`,
    );
  }
  if (e.manifestKind === 'demo' && real.length > 0) {
    throw new SnapshotKindError(
      `sources in ${e.sourcesDir}: manifest.json says kind "demo", but the ${real.length} companies are real listings (${examples(real)}), ` +
        `not the demo universe (tickers starting with D): a demo snapshot's disclaimer would call them fictional`,
    );
  }
  const own: SnapshotKind | undefined = demo.length > 0 || e.manifestKind === 'demo' ? 'demo' : real.length > 0 ? 'production' : undefined;
  if (own === undefined) return e.requested ?? 'production';
  if (e.requested === undefined || e.requested === own) return own;
  if (own === 'demo') {
    const why = demo.length > 0 ? `every company ticker starts with D (${examples(demo)})` : 'its manifest.json says kind "demo"';
    throw new SnapshotKindError(
      `refused to publish a production snapshot: the sources in ${e.sourcesDir} are the demo universe's fictional companies (${why}). ` +
        'A demo is only ever published as a demo snapshot, with its banner and disclaimer: leave --kind out, or pass --kind demo',
    );
  }
  throw new SnapshotKindError(
    `refused to publish a demo snapshot: the sources in ${e.sourcesDir} are real listings (${examples(real)}), ` +
      "and a demo snapshot's disclaimer says its companies are fictional: leave --kind out, or pass --kind production",
  );
}
