import type { SnapshotMeta } from '../snapshot/schema.js';
import { urls } from '../contract/urls.js';

/**
 * The fields every success body starts with. `generated_at` is the snapshot's publish time, so a
 * body is a pure function of (snapshot, request): same request, same bytes, stable ETag.
 */
export function successEnvelope(meta: SnapshotMeta) {
  return {
    ok: true as const,
    generated_at: meta.published_at,
    methodology_version: meta.methodology_version,
    dataset_snapshot_id: meta.dataset_snapshot_id,
    data_asof: meta.data_asof,
  };
}

/**
 * A success body: the envelope's fields, then the body's own, in that order. Built by assigning onto
 * the envelope rather than with `{ ...successEnvelope(meta), … }`: V8 takes a slow path for a spread
 * followed by several keys (bench/results.md: tens of times slower per canonical view, which the
 * tree writer renders a hundred thousand times).
 */
export function withEnvelope<T extends object>(meta: SnapshotMeta, body: T): ReturnType<typeof successEnvelope> & T {
  return Object.assign(successEnvelope(meta), body);
}

export function disclaimerFor(meta: Pick<SnapshotMeta, 'kind'>): string {
  return meta.kind === 'demo'
    ? 'DEMO DATA: every company, figure and record in this snapshot is fictional, generated to exercise the service. Nothing here describes a real company.'
    : 'Aggregated from public government, exchange and industry-association datasets (each fact names its source_id; ' +
        `see ${urls.registry}). Provided as is; check the original record before relying on a fact.`;
}
