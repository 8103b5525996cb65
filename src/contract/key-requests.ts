/**
 * The keys page's numbers, shared by the page the build renders and the shim that answers
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
 * Abuse limits per rolling 24 hours, counting only mail the relay took:
 * - `perEmail`: the mails one mailbox may receive (`a+tag@` and `A@` are `a@`'s mailbox), whoever
 *   asks. One person's documented steps are five (two keys asked for, two sign-ins, a link to
 *   manage the keys); ten leave room for a mistyped form or a lost mail, and are still too few to
 *   bury an inbox.
 * - `perAddress`: the mailboxes one client address (IPv6 by /56) may mail. Mailboxes, not mails: a
 *   campus or an office behind one address holds many people, each walking those steps; a machine
 *   that mails strangers is stopped at thirty of them.
 */
export const MAIL_LIMITS = { perAddress: 30, perEmail: 10 } as const;

/** The intended use: one line of at most this many characters. */
export const USE_MAX = 300;
