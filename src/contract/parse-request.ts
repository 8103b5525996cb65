import type { z } from 'zod';
import { truncate } from './params.js';

/**
 * Parses a request's query string or body with its contract schema (src/contract/queries.ts) and
 * turns the first broken rule into the message a 400 carries. The server maps RequestRuleError to
 * BAD_REQUEST; nothing here knows about HTTP.
 */
export class RequestRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RequestRuleError';
  }
}

/**
 * Splits a raw query string strictly: `+` is a space, percent escapes must be valid UTF-8
 * (`%FF` and `%zz` are errors, not silently replaced), values are NFC-normalised and trimmed
 * (contract 1.2). Returns name/value pairs in order.
 */
function splitQuery(rawQuery: string): [string, string][] {
  const pairs: [string, string][] = [];
  if (rawQuery === '') return pairs;
  for (const part of rawQuery.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decodeComponent(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : decodeComponent(part.slice(eq + 1));
    pairs.push([name.normalize('NFC').trim(), value.normalize('NFC').trim()]);
  }
  return pairs;
}

function decodeComponent(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    throw new RequestRuleError(`The query string holds "${truncate(s)}", which is not valid percent-encoded UTF-8.`);
  }
}

/** Names each strict schema accepts, computed once per schema. */
const allowedNames = new WeakMap<z.ZodObject, readonly string[]>();
function namesOf(schema: z.ZodObject): readonly string[] {
  let names = allowedNames.get(schema);
  if (!names) {
    names = Object.keys(schema.shape);
    allowedNames.set(schema, names);
  }
  return names;
}

/**
 * A query string checked against its endpoint's schema: an unknown or repeated parameter is a 400
 * naming it and what is accepted; a value outside its rule is the schema's own message.
 */
export function parseQuery<S extends z.ZodObject>(schema: S, rawQuery: string, endpoint: string): z.output<S> {
  const allowed = namesOf(schema);
  const values: Record<string, string> = {};
  for (const [name, value] of splitQuery(rawQuery)) {
    if (!allowed.includes(name)) {
      const accepted = allowed.length === 0 ? `${endpoint} takes no query parameters` : `${endpoint} accepts: ${allowed.join(', ')}`;
      throw new RequestRuleError(`Unknown query parameter "${truncate(name)}": ${accepted}.`);
    }
    if (Object.hasOwn(values, name)) throw new RequestRuleError(`Query parameter "${name}" is repeated; give it once.`);
    values[name] = value;
  }
  return parseWith(schema, values);
}

/** A parsed JSON body checked against its schema. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  return parseWith(schema, body);
}

function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  // Every rule in queries.ts carries its own message; a bare zod message is prefixed with where it is.
  const where = issue.path.length > 0 ? `"${issue.path.join('.')}": ` : '';
  throw new RequestRuleError(issue.message.endsWith('.') ? issue.message : `${where}${issue.message}.`);
}
