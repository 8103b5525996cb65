import type { KeyMailer } from '../../../server/access/key-mail.js';

/**
 * A mailer that sends nothing: sign-in is on (PUBLIC_URL on loopback may be an issuer), and the
 * limiter tests never get as far as a mail.
 */
export const silentMailer: KeyMailer = {
  publicUrl: 'http://127.0.0.1:9',
  sendLink: async () => {},
  sendConsentLink: async () => {},
  sendNoKeys: async () => {},
  close: () => {},
};
