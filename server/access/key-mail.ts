import nodemailer from 'nodemailer';
import { CATALOGUES } from '../../src/site/i18n/index.js';
import { LOCALES, type Locale } from '../../src/site/i18n/locales.js';
import { pageUrlsFor } from '../../src/site/i18n/paths.js';
import { OAUTH_LIFETIMES } from '../../src/contract/oauth.js';
import type { MailSettings } from '../kit/settings.js';

/** The mails the keys flow sends, each carrying one link. */
export type MailKind = 'confirm' | 'collect' | 'manage';

/** Sends the keys flow's mails; SMTP through nodemailer in service, the same with a test's in-process SMTP server. */
export interface KeyMailer {
  /** Mails `to` the link `token` stands for, in `locale`; rejects when the SMTP server refuses it. */
  sendLink(kind: MailKind, to: string, locale: Locale, token: string): Promise<void>;
  /**
   * Answers a request for a link to the keys of an address that holds none: it says so and where to
   * ask. `/keys/manage` mails either way, so that neither its answer, its timing nor its mail limits
   * tell anyone else whether the address holds a key.
   */
  sendNoKeys(to: string, locale: Locale): Promise<void>;
  /**
   * Mails `to` the link to OAuth's consent page (server/oauth/pages.ts), naming the client that asks
   * and where its code would be sent (`sentTo`, the redirect URI's origin): the name is the client's
   * own word, the origin is what a person can check it against. `loopback`: that origin is on the
   * machine where the sign-in began, which any program there may claim, and the mail warns so.
   */
  sendConsentLink(to: string, locale: Locale, token: string, clientName: string, sentTo: string, loopback: boolean): Promise<void>;
  /** Where the mailed links start (PUBLIC_URL). */
  readonly publicUrl: string;
  close(): void;
}

export const asLocale = (raw: string): Locale => ((LOCALES as readonly string[]).includes(raw) ? (raw as Locale) : 'en');

/** A mailed link: the keys page's link path in the reader's language, under PUBLIC_URL (never a request's Host). */
export const linkUrl = (publicUrl: string, locale: Locale, token: string) => `${publicUrl}${pageUrlsFor(locale).keysLink}?t=${token}`;

/** A mailer from SMTP_URL, SMTP_FROM and PUBLIC_URL (server/kit/settings.ts mailSetting). */
export function smtpMailer(s: MailSettings): KeyMailer {
  const transport = nodemailer.createTransport(s.smtpUrl);
  return {
    get publicUrl() {
      return s.publicUrl;
    },
    async sendLink(kind, to, locale, token) {
      const mail = CATALOGUES[locale].keys.mail[kind];
      await transport.sendMail({ from: s.from, to, subject: mail.subject, text: mail.text(linkUrl(s.publicUrl, locale, token)) });
    },
    async sendNoKeys(to, locale) {
      const mail = CATALOGUES[locale].keys.mail.noKeys;
      await transport.sendMail({ from: s.from, to, subject: mail.subject, text: mail.text(`${s.publicUrl}${pageUrlsFor(locale).keys}`) });
    },
    async sendConsentLink(to, locale, token, clientName, sentTo, loopback) {
      const mail = CATALOGUES[locale].oauth.mail;
      // The consent page in the reader's language: its path says it (`/zh-TW/oauth/consent`), as every page's does.
      const url = `${s.publicUrl}${pageUrlsFor(locale).oauthConsent}?t=${token}`;
      await transport.sendMail({
        from: s.from,
        to,
        subject: mail.subject,
        text: mail.text(url, clientName, sentTo, OAUTH_LIFETIMES.requestMs / 60_000, loopback),
      });
    },
    close: () => transport.close(),
  };
}
