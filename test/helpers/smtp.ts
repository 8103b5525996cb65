import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as the SMTP server received it: envelope recipients, headers and the decoded text. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  /** The first link in the text. */
  link: string;
}

export interface Inbox {
  /** smtp://127.0.0.1:port, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** The next message to `to` not yet taken, waiting for it at most `ms`. */
  next(to: string, ms?: number): Promise<ReceivedMail>;
  /** How many messages came for `to` in all. */
  count(to: string): number;
  /** The relay refuses every recipient (451, as a relay that is down or overloaded does) until `up`. */
  down(): void;
  up(): void;
  /** Messages are read but not accepted (no reply to DATA, nothing in `received`) until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

/** A part's body as text, from its Content-Transfer-Encoding (nodemailer picks quoted-printable or base64 by content). */
function decode(headers: string, body: string): string {
  const cte = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (cte === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (cte === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** An encoded-word subject (=?UTF-8?B?…?= or ?Q?) as text. */
function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (__, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

/**
 * A real SMTP server (the smtp-server package) on a loopback port, in this process: the service's
 * nodemailer transport talks SMTP to it exactly as to a mail relay, and a test reads what it got.
 */
export async function startInbox(): Promise<Inbox> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters: (() => void)[] = [];
  let refusing = false;
  let held: Promise<void> = Promise.resolve();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!refusing) return callback();
      const refusal = Object.assign(new Error('Service not available, try again later'), { responseCode: 451 });
      callback(refusal);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        await held;
        const raw = Buffer.concat(chunks).toString('latin1');
        const split = raw.indexOf('\r\n\r\n');
        const headers = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
        const text = decode(headers, raw.slice(split + 4));
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: decodeHeader(/^subject:\s*(.*)$/im.exec(headers)?.[1] ?? ''),
          text,
          link: /https?:\/\/\S+/.exec(text)?.[0] ?? '',
        });
        for (const w of waiters.splice(0)) w();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const find = (to: string) => received.find((m) => !taken.has(m) && m.to.includes(to));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    count: (to) => received.filter((m) => m.to.includes(to)).length,
    down: () => void (refusing = true),
    up: () => void (refusing = false),
    hold() {
      let release!: () => void;
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = Promise.resolve();
        release();
      };
    },
    async next(to, ms = 5000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const mail = find(to);
        if (mail) {
          taken.add(mail);
          return mail;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${ms} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
