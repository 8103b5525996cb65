/**
 * The keys page's numbers (issue 43), shared by the page the build renders and the shim that answers
 * its forms, so what the page promises is what the shim enforces.
 */

/** The tiers a person may ask for on the keys page; commercial keys stay the operator's (`npm run keys -- create`). */
export const PAGE_TIERS = ['developer', 'academic'] as const;
export type PageTier = (typeof PAGE_TIERS)[number];

const HOUR_MS = 3_600_000;
/** A mailed confirmation or usage link lasts a day: long enough to find the mail, short enough that an old inbox holds nothing live. */
export const LINK_LIFETIME_MS = 24 * HOUR_MS;
/** The link to collect an approved academic key lasts a week: the applicant did their part already and may be away. */
export const COLLECT_LIFETIME_MS = 7 * 24 * HOUR_MS;
/** The rotate and revoke buttons of a usage page last a quarter of an hour (the page is open, not in an inbox). */
export const ACT_LIFETIME_MS = HOUR_MS / 4;

/**
 * Abuse limits per rolling 24 hours: the mails one client address (IPv6 by /56) may have sent, and the
 * mails one e-mail address may receive. Enough for a person who mistyped, asks again or manages a key;
 * too few to use the service as a mail cannon against an inbox or from one machine.
 */
export const MAIL_LIMITS = { perAddress: 5, perEmail: 3 } as const;

/** The intended use: one line of at most this many characters. */
export const USE_MAX = 300;
