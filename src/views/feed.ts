import type { ChangeItem } from '../contract/changes.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import { API_BASE } from '../contract/api-paths.js';
import { urls } from '../contract/urls.js';

/**
 * GET /feed.atom (contract 10): an Atom 1.0 feed (RFC 4287), one entry per snapshot for the last
 * 12. Each build renders it from its own entry and the previous snapshot's entries (feed.json beside
 * the database), so it reads one older snapshot, never all. Ids are tag URIs (RFC 4151) built from
 * the service host and snapshot ids alone, so they never change when a snapshot is rebuilt.
 */
/** Largest moves shown in an entry. */
const TOP_MOVES = 10;

export interface FeedEntry {
  dataset_snapshot_id: string;
  data_asof: string;
  published_at: string;
  from_snapshot_id: string | null;
  counts: { changed: number; added: number; removed: number };
  /** The largest moves, with their causes' sentences. */
  top: { ticker: string; company_name: string; score_delta: number; from: number | null; to: number | null; causes: string[] }[];
}

export function feedEntry(meta: SnapshotMeta, fromSnapshotId: string | null, changes: readonly ChangeItem[]): FeedEntry {
  const count = (kind: ChangeItem['change']) => changes.filter((c) => c.change === kind).length;
  return {
    dataset_snapshot_id: meta.dataset_snapshot_id,
    data_asof: meta.data_asof,
    published_at: meta.published_at,
    from_snapshot_id: fromSnapshotId,
    counts: { changed: count('changed'), added: count('added'), removed: count('removed') },
    top: changes.slice(0, TOP_MOVES).map((c) => ({
      ticker: c.ticker,
      company_name: c.company_name,
      score_delta: c.score_delta,
      from: c.before?.credibility_score ?? null,
      to: c.after?.credibility_score ?? null,
      causes: c.causes.filter((x) => x.points !== null && x.points !== 0).map((x) => `${x.points! > 0 ? '+' : ''}${x.points} ${x.kind}: ${x.detail}`),
    })),
  };
}

const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

function entryTitle(e: FeedEntry): string {
  if (e.from_snapshot_id === null) return `Snapshot ${e.dataset_snapshot_id} (data as of ${e.data_asof}): the first snapshot`;
  const { changed, added, removed } = e.counts;
  return `Snapshot ${e.dataset_snapshot_id} (data as of ${e.data_asof}): ${changed} companies changed, ${added} added, ${removed} removed`;
}

function entryText(e: FeedEntry): string {
  if (e.from_snapshot_id === null) return 'The first published snapshot: nothing to compare with yet.';
  if (e.top.length === 0) return `No company moved since ${e.from_snapshot_id}.`;
  const lines = [`Largest moves since ${e.from_snapshot_id}:`];
  for (const t of e.top) {
    lines.push(`${t.ticker} ${t.company_name}: ${t.from ?? '—'} → ${t.to ?? '—'} (${t.score_delta > 0 ? '+' : ''}${t.score_delta})`);
    for (const c of t.causes) lines.push(`  ${c}`);
  }
  return lines.join('\n');
}

/** The feed's XML, entries in the order given: newest first (src/snapshot/newest-first.ts), at most the last 12 published. */
export function feedView(meta: SnapshotMeta, entries: readonly FeedEntry[]): string {
  const site = `https://${meta.service_host}`;
  const tag = (specific: string) => `tag:${meta.service_host},2026:${specific}`;
  const out = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${escapeXml(tag('changes-feed'))}</id>`,
    '  <title>ESG disclosure credibility (Taiwan): changes between snapshots</title>',
    `  <updated>${escapeXml(meta.published_at)}</updated>`,
    `  <author><name>${escapeXml(meta.service_host)}</name></author>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(site + urls.feed)}"/>`,
    `  <link rel="alternate" type="application/json" href="${escapeXml(site + urls.changes)}"/>`,
  ];
  for (const e of entries) {
    out.push(
      '  <entry>',
      `    <id>${escapeXml(tag(`snapshot/${e.dataset_snapshot_id}`))}</id>`,
      `    <title>${escapeXml(entryTitle(e))}</title>`,
      `    <updated>${escapeXml(e.published_at)}</updated>`,
      `    <published>${escapeXml(e.published_at)}</published>`,
      `    <link rel="alternate" type="application/json" href="${escapeXml(`${site}${API_BASE}/snapshots/${e.dataset_snapshot_id}/changes`)}"/>`,
      `    <content type="text">${escapeXml(entryText(e))}</content>`,
      '  </entry>',
    );
  }
  out.push('</feed>', '');
  return out.join('\n');
}
