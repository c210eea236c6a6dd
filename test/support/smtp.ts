import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';

// A real SMTP server for tests that read back what the service mailed: start it, hand its `url` to
// the test server (testConfig({ smtpUrl })), read `received` (each message parsed by mailparser).

export const SMTP_USER = 'mailer';
/** Characters that must be percent-encoded in SMTP_URL, so the test shows they are read back right. */
export const SMTP_PASSWORD = 'p@ss:word/ä';

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  /** The user that signed in. */
  user: string | undefined;
  raw: Buffer;
  mail: ParsedMail;
}

/** An SMTP server on a free port of 127.0.0.1 that wants SMTP_USER and SMTP_PASSWORD and keeps what it is sent. */
export async function smtpServer() {
  const received: ReceivedMail[] = [];
  /** Recipients it refuses: address → [reply code, text]. */
  const refuse = new Map<string, [number, string]>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, done) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) done(null, { user: auth.username });
      else done(Object.assign(new Error('Authentication failed'), { responseCode: 535 }));
    },
    onRcptTo(address: SMTPServerAddress, _session, done) {
      const refusal = refuse.get(address.address);
      done(refusal ? Object.assign(new Error(refusal[1]), { responseCode: refusal[0] }) : undefined);
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks);
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        received.push({
          envelope: { from, to: session.envelope.rcptTo.map((r) => r.address) },
          user: session.user as string | undefined,
          raw,
          mail: await simpleParser(raw),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    refuse,
    url: `smtp://${SMTP_USER}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * An SMTP server that counts what each address is sent (by RCPT TO), without parsing the messages
 * or asking for a sign-in: for sendings to thousands. `arrived` lists each recipient as its
 * message's data ends, in that order; `tell(address, { hold })` holds the answer to a message for
 * that address so long (the message has come; its sender waits for the 250), so a test knows a
 * message is in flight at a moment of its choosing. A held message is counted when it arrives.
 */
export async function smtpSink() {
  const counts = new Map<string, number>();
  const arrived: string[] = [];
  const holds = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 10_000_000,
    onData(stream, session, done) {
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        for (const a of to) {
          counts.set(a, (counts.get(a) ?? 0) + 1);
          arrived.push(a);
        }
        const hold = Math.max(0, ...to.map((a) => holds.get(a) ?? 0));
        if (!hold) return done();
        const timer = setTimeout(() => {
          timers.delete(timer);
          done();
        }, hold);
        timers.add(timer);
      });
      stream.resume();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    counts,
    arrived,
    tell: (address: string, how: { hold: number }) => holds.set(address, how.hold),
    close: () => {
      for (const t of timers) clearTimeout(t);
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
