import { badRequest } from './errors.js';

/**
 * Strict query strings (contract 1.2): each endpoint accepts exactly its listed parameters; an
 * unknown or repeated one is 400 naming it. Values are NFC-normalised and trimmed.
 */
export type Query = Map<string, string>;

export function parseQuery(rawQuery: string, allowed: readonly string[], endpoint: string): Query {
  const query: Query = new Map();
  for (const [rawName, rawValue] of new URLSearchParams(rawQuery)) {
    const name = rawName.normalize('NFC').trim();
    if (!allowed.includes(name)) {
      const accepted = allowed.length === 0 ? `${endpoint} takes no query parameters` : `${endpoint} accepts: ${allowed.join(', ')}`;
      throw badRequest(`Unknown query parameter "${truncate(name)}": ${accepted}.`);
    }
    if (query.has(name)) throw badRequest(`Query parameter "${name}" is repeated; give it once.`);
    query.set(name, rawValue.normalize('NFC').trim());
  }
  return query;
}

/** A positive whole number in plain decimal digits within [1, max]. */
export function positiveInt(query: Query, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = query.get(name);
  if (raw === undefined) return fallback;
  const n = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= max)) {
    throw badRequest(`Query parameter "${name}" must be a whole number from 1${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}; got "${truncate(raw)}".`);
  }
  return n;
}

export function oneOf<T extends string>(query: Query, name: string, allowed: readonly T[], fallback?: T): T | undefined {
  const raw = query.get(name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw badRequest(`Query parameter "${name}" must be one of ${allowed.join(', ')}; got "${truncate(raw)}".`);
  }
  return raw as T;
}

/** Quotes user input in messages without letting a huge value through. */
export function truncate(s: string, max = 40): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
