import type { Transporter } from 'nodemailer';
import { MailNotSent, type MailTransport, type OutgoingMessage } from './transport.js';

// SMTP through nodemailer. `smtp://` upgrades with STARTTLS when the server offers it
// (`?require_tls=true`: refuse a server that does not); `smtps://` is TLS from the start.
// Its connections are pooled (POOL) and reused. nodemailer is loaded at the first message, not at start: most runs (a `crm` command, a server
// that has sent nothing yet) never need its hundred modules.

const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
/** Connections kept open and reused (an email sending hands many messages at once), and messages a connection carries before it is renewed. */
const POOL = { pool: true, maxConnections: 5, maxMessages: 100 };

/** The SMTP server of an `smtp://user:pass@host:port` address (user and password percent-encoded). */
export function smtpOptions(smtpUrl: string) {
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new Error('SMTP_URL must be an address such as smtp://user:password@mail.example.com:587');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, not ${url.protocol}//`);
  if (!url.hostname) throw new Error('SMTP_URL must name a host');
  const secure = url.protocol === 'smtps:';
  const port = url.port ? Number(url.port) : secure ? 465 : 587;
  const auth = url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined;
  const requireTLS = url.searchParams.get('require_tls') === 'true';
  // Written without the user and password: this is what the log shows.
  const describe = `${url.protocol}//${url.host}${requireTLS ? ' (TLS required)' : ''}`;
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port, secure, auth, requireTLS, describe };
}

export function smtpMail(smtpUrl: string, from: string): MailTransport {
  const { describe, ...options } = smtpOptions(smtpUrl);
  let opened: Promise<Transporter> | undefined;
  const transport = () =>
    (opened ??= import('nodemailer').then(({ createTransport }) =>
      createTransport({ ...options, ...TIMEOUTS, ...POOL, logger: false, debug: false }),
    ));
  return {
    via: 'smtp',
    from,
    describe,
    async send(message: OutgoingMessage) {
      try {
        await (
          await transport()
        ).sendMail({
          from: message.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          headers: message.headers.map(({ name, value }) => ({ key: name, value })),
          messageId: message.messageId,
          date: message.date,
        });
      } catch (err) {
        throw notSent(err);
      }
    },
    async close() {
      (await opened)?.close();
    },
  };
}

/** nodemailer's error as the caller's: what the server answered, and whether trying again may help. */
function notSent(err: unknown): MailNotSent {
  const e = err as { message?: string; responseCode?: number; response?: string; permanent?: boolean; code?: string };
  if (e.responseCode) {
    const permanent = e.permanent ?? e.responseCode >= 500;
    return new MailNotSent(
      `The mail server refused the message (${permanent ? 'for good' : 'for now'}): ${e.response ?? e.responseCode}`,
      permanent,
      e.responseCode,
    );
  }
  return new MailNotSent(
    `The mail server could not be reached or did not answer (${e.code ?? 'error'}): ${e.message ?? String(err)}`,
    false,
  );
}
