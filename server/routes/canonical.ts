import { CANONICAL_SECTIONS, canonicalView, type CanonicalSection } from '../../src/views/canonical.js';
import { helpersOf, type RouteContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { sendJson } from '../http.js';
import { parseQuery, truncate } from '../query.js';

const ALIASES: Record<string, CanonicalSection> = { carbon: 'carbon_disclosure' };
export const ACCEPTED_SECTION_NAMES = [...CANONICAL_SECTIONS, ...Object.keys(ALIASES)];

/** `fields=` (contract 4.1): comma-separated, whitespace ignored, case-insensitive, duplicates harmless. */
export function parseSections(raw: string | undefined): Set<CanonicalSection> | undefined {
  if (raw === undefined) return undefined;
  const names = raw.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
  const accepted = `accepted names: ${ACCEPTED_SECTION_NAMES.join(', ')}`;
  if (names.length === 0) throw badRequest(`Query parameter "fields" is empty; ${accepted}.`);
  const sections = new Set<CanonicalSection>();
  for (const name of names) {
    const section = ALIASES[name] ?? (CANONICAL_SECTIONS as readonly string[]).find((s) => s === name);
    if (!section) throw badRequest(`Unknown section "${truncate(name)}" in "fields"; ${accepted}.`);
    sections.add(section as CanonicalSection);
  }
  return sections;
}

/** GET /company/{ticker}/canonical?fields=… */
export function canonicalWithFields(ctx: RouteContext): void {
  const query = parseQuery(ctx.rawQuery, ['fields'], '/company/{ticker}/canonical');
  const sections = parseSections(query.get('fields'));
  const ticker = ctx.params[0]!;
  const facts = ctx.store.facts(ticker);
  if (!facts) throw notFound(`Unknown ticker: ${ticker}`);
  sendJson(ctx.req, ctx.res, canonicalView(ctx.store.meta, facts, helpersOf(ctx.store).sourceNames, sections));
}
