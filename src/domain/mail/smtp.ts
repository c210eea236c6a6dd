import type { Transporter } from 'nodemailer';
import type { DkimSettings } from '../../config.js';
import { MailNotSent, type MailTransport, type OutgoingMessage } from './transport.js';

// SMTP through nodemailer. `smtp://` upgrades with STARTTLS when the server offers it
// (`?require_tls=true`: refuse a server that does not); `smtps://` is TLS from the start.
// Its connections are pooled (POOL) and reused. nodemailer is loaded at the first message, not at start: most runs (a `crm` command, a server
// that has sent nothing yet) never need its hundred modules.
// With DKIM settings every message is signed (rsa-sha256, relaxed/relaxed) over nodemailer's
// headers and List-Unsubscribe-Post too, which it leaves out: RFC 8058 wants both List-Unsubscribe
// headers inside the signature, or a one-click unsubscribe is not honoured.
// A message made as MIME already (a sending's email, email/mime.ts) is handed over as it is, with its
// envelope: nodemailer does not build and encode it again (signed all the same).

const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
/** Connections kept open and reused (an email sending hands many messages at once), and messages a connection carries before it is renewed. */
const POOL = { pool: true, maxConnections: 5, maxMessages: 100 };

/** The header fields signed: nodemailer's own list (RFC 4871's), and List-Unsubscribe-Post, which it lacks. */
export const DKIM_SIGNED_HEADERS =
  'From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding:' +
  'Content-ID:Content-Description:Resent-Date:Resent-From:Resent-Sender:Resent-To:Resent-Cc:Resent-Message-ID:' +
  'In-Reply-To:References:List-Id:List-Help:List-Unsubscribe:List-Unsubscribe-Post:List-Subscribe:List-Post:' +
  'List-Owner:List-Archive';

/** nodemailer's `dkim` option for the settings. */
export const dkimOptions = (dkim: DkimSettings) => ({ ...dkim, headerFieldNames: DKIM_SIGNED_HEADERS });

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

export function smtpMail(smtpUrl: string, from: string, dkim?: DkimSettings): MailTransport {
  const { describe, ...options } = smtpOptions(smtpUrl);
  let opened: Promise<Transporter> | undefined;
  const transport = () =>
    (opened ??= import('nodemailer').then(({ createTransport }) =>
      createTransport({ ...options, ...TIMEOUTS, ...POOL, ...(dkim ? { dkim: dkimOptions(dkim) } : {}), logger: false, debug: false }),
    ));
  return {
    via: 'smtp',
    from,
    describe: dkim ? `${describe}, DKIM-signed as ${dkim.keySelector}._domainkey.${dkim.domainName}` : describe,
    async send(message: OutgoingMessage) {
      try {
        const mailer = await transport();
        if (message.mime) await mailer.sendMail({ envelope: { from: message.mime.sender, to: message.to }, raw: message.mime.raw });
        else
          await mailer.sendMail({
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
