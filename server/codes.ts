import { badRequest } from './errors.js';

/** Contract 1.1: a ticker or fund code is 1–12 of 0-9A-Za-z, case-insensitive; responses use upper case. */
export const CODE_PATTERN = /^[0-9A-Za-z]{1,12}$/;

export function parseCode(raw: string, what: 'ticker' | 'fund code'): string {
  if (!CODE_PATTERN.test(raw)) {
    const shown = raw.length > 24 ? `${raw.slice(0, 24)}…` : raw;
    throw badRequest(`Malformed ${what} "${shown}": a ${what} is 1 to 12 letters or digits (e.g. D1101).`);
  }
  return raw.toUpperCase();
}
