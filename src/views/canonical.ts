import type { CanonicalView } from '../contract/canonical.js';
import { CANONICAL_SECTIONS, type CanonicalSection } from '../contract/vocabulary.js';
import { CARBON_FEE_THRESHOLD_TCO2E } from '../methodology/rules.js';
import type { SnapshotMeta } from '../snapshot/schema.js';
import type { CompanyFacts } from '../snapshot/store.js';
import { disclaimerFor, successEnvelope } from './envelope.js';

const ALL_SECTIONS: ReadonlySet<CanonicalSection> = new Set(CANONICAL_SECTIONS);

/** Resolves a source id to its registry name (the registry is small and loaded once per snapshot). */
export type SourceNames = (sourceId: string) => string;

/** GET /company/{ticker}/canonical: the six sections, each fact with its source. */
export function canonicalView(
  meta: SnapshotMeta,
  facts: CompanyFacts,
  sourceName: SourceNames,
  sections: ReadonlySet<CanonicalSection> = ALL_SECTIONS,
): CanonicalView {
  return canonicalFields(successEnvelope(meta), meta, facts, sourceName, sections);
}

/** A canonical view without its envelope: what /compare lists for each company. */
export type CanonicalBody = Omit<CanonicalView, keyof ReturnType<typeof successEnvelope>>;

/**
 * The canonical view's own fields (after the envelope's), added onto `target` in the view's order.
 * The view and /compare both build on a fresh object this way: /compare once took the view apart
 * with a rest pattern and spread it into a new object, and V8 made each such copy in the old
 * generation (the compare route left garbage there with every request, and mark-compacts under load followed).
 * Over 80 lines because it is the view's fields written out in the contract's order, one assignment
 * each: splitting it would spread one object's shape over several functions.
 */
export function canonicalFields<T extends object>(
  target: T,
  meta: SnapshotMeta,
  facts: CompanyFacts,
  sourceName: SourceNames,
  sections: ReadonlySet<CanonicalSection> = ALL_SECTIONS,
): T & CanonicalBody {
  const { company, disclosure: d, carbonFee: fee, assurance: a } = facts;
  const view = Object.assign(target, {
    disclaimer: disclaimerFor(meta),
    ticker: company.ticker,
    company_name_norm: company.company_name_norm,
    as_of: `${meta.data_asof}T00:00:00Z`,
  }) as T & CanonicalBody;
  if (sections.has('penalties')) {
    view.penalties = facts.penalties.map((p) => ({
      source_id: p.source_id,
      source_name: sourceName(p.source_id),
      source_url: p.source_url,
      fine: p.fine,
      fine_currency: 'TWD' as const,
      agency: p.agency,
      date: p.date,
      summary: p.summary,
      serious: p.serious,
      record_id: p.record_id,
    }));
  }
  if (sections.has('carbon_disclosure')) {
    view.carbon_disclosure = d && {
      source_id: d.source_id,
      source_name: sourceName(d.source_id),
      deep_link: d.deep_link,
      scope1: d.scope1,
      scope2: d.scope2,
      scope3: d.scope3,
      scope1_verified: d.scope1_verified,
      scope2_verified: d.scope2_verified,
      scope3_verified: d.scope3_verified,
      boundary: d.boundary,
      boundary_text: d.boundary_text,
      unit: 't CO2e' as const,
      year: d.year,
      asof: `${d.report_date}T00:00:00Z`,
      registry: d.registry && {
        year: d.year,
        total_tco2e: d.registry.total,
        source_id: d.registry.source_id,
        source_name: sourceName(d.registry.source_id),
        deep_link: d.registry.deep_link,
      },
    };
  }
  if (sections.has('carbon_fee')) {
    view.carbon_fee = {
      obligated: fee.obligated,
      basis: fee.basis,
      basis_tco2e: fee.basis_tco2e,
      threshold_tco2e: CARBON_FEE_THRESHOLD_TCO2E,
      source_id: fee.source_id,
      source_name: sourceName(fee.source_id),
      deep_link: fee.deep_link,
    };
  }
  if (sections.has('assurance')) {
    view.assurance = a && {
      provider: a.provider,
      level: a.level,
      kind: a.kind,
      standard: a.standard,
      verifications: a.verifications.map((v) => ({ provider: v.provider, standard: v.standard })),
      year: a.year,
      source_id: a.source_id,
      source_name: sourceName(a.source_id),
      deep_link: a.deep_link,
    };
  }
  if (sections.has('flags')) {
    view.flags = facts.flags.map((f) => ({ id: f.flag_id, label: f.label, severity: f.severity, source_id: f.source_id }));
  }
  if (sections.has('disclosure_conduct')) {
    view.disclosure_conduct = facts.conduct.map((c) => ({
      source_id: c.source_id,
      source_name: sourceName(c.source_id),
      source_url: c.source_url,
      kind: c.kind,
      date: c.date,
      summary: c.summary,
      rule: c.rule,
      fine: c.fine,
      fine_currency: 'TWD' as const,
      decision: c.decision,
      record_id: c.record_id,
    }));
  }
  return view;
}
