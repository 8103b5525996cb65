/**
 * The one reading of an e-mail address typed into a form (the keys page, OAuth's sign-in): what is
 * stored and mailed, and the mailbox the mail limits count it as.
 *
 * The probe sent nine mails to one inbox past a limit of three: a control character made each
 * address new to the limit, and the mail library dropped it on delivery; `user+tag@` did the same
 * with sub-addresses. So a control or invisible formatting character anywhere is refused (a trailing
 * newline of a paste is trimmed first), and the limits count the mailbox a message reaches, not the
 * string typed: `+tag` dropped, lower case, and for Gmail the dots of the local part too. The mail
 * still goes to the address as typed: `a+b@` may be a mailbox of its own where a server does not
 * sub-address, so keys and links stay under the exact address that proved itself.
 */
export type MailAddress = { ok: true; address: string; mailbox: string } | { ok: false; why: 'control' | 'invalid' };

const EMAIL =
  /^[^\s@<>()",;:\\[\]]{1,64}@(?=.{4,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
/** C0 and C1 controls, DEL, and format characters (zero-width spaces and joiners, bidi overrides, soft hyphen). */
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;
/** Domains whose mailboxes ignore the dots of the local part (one mailbox, however dotted). */
const DOTLESS = new Set(['gmail.com', 'googlemail.com']);

export function mailAddress(raw: string): MailAddress {
  const address = raw.trim().toLowerCase();
  if (INVISIBLE.test(address)) return { ok: false, why: 'control' };
  if (!EMAIL.test(address)) return { ok: false, why: 'invalid' };
  const at = address.lastIndexOf('@');
  let local = address.slice(0, at).replace(/\+.*$/, '');
  let domain = address.slice(at + 1);
  if (DOTLESS.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  // `+tag` alone (an empty mailbox name) is not a mailbox to merge into: keep it whole.
  return { ok: true, address, mailbox: local === '' ? address : `${local}@${domain}` };
}

/** The domain of an address: what the operator judges an academic request by. */
export const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);
