/**
 * How a request of a fetch plan fails. The fetcher throws it (fetch/http.ts, fetch/session.ts) and a
 * plan may look at it (MOPS's plan takes a 404 as a year not yet published), so it is part of the
 * kit the sources and the fetcher both stand on.
 */

/**
 * Why a source could not be fetched, when a refresh may still use its previous good answers
 * (contract section 9): the publisher blocked the client (TWSE's security page), answered a not-found
 * page where data was expected (TWSE's `t187ap46_L_12`, HTTP 200), or the source stayed unavailable
 * through every retry (timeouts, resets, 5xx, 429). Null for what is never carried over: a changed
 * form, a 4xx, a wrong key.
 */
export type FailureKind = 'blocked' | 'not-found' | 'unavailable' | null;

/** A failure that another attempt will not cure (or the last attempt's failure). */
export class FetchFailure extends Error {
  override name = 'FetchFailure';
  constructor(
    message: string,
    readonly status: number | null = null,
    readonly kind: FailureKind = null,
  ) {
    super(message);
  }
}
