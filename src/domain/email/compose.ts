import { messageIdDomain } from '../../lib/mail-domain.js';
import type { OutgoingMessage } from '../mail/transport.js';
import { plainAddress } from '../../lib/mime/encode.js';
import { emailAddresses } from './addresses.js';
import { mimeTemplate, personalMime, type MimeTemplate } from './mime.js';
import { personalise } from './render.js';
import { emailToken, type EmailTokenKey } from './tokens.js';

// One person's email made from its version: each link, the open pixel, the unsubscribe and the
// preference centre by tokens of this email alone, and the headers: a Message-ID of this service's
// domain (bounces and replies come back by it), and for topic mail List-Unsubscribe with the https
// address a one-click POST unsubscribes by and List-Unsubscribe-Post (RFC 8058; with DKIM they are
// inside the signature), besides the visible link in the body. Pure and quick: it runs once per person.
// The message is also made as MIME (mime.ts) from pieces encoded once per version, which the SMTP
// transport hands over as it is.

export interface VersionToSend {
  subject: string;
  html: string;
  text: string;
  links: string[];
  topicId: string | null;
  fromName: string | null;
  fromAddress: string | null;
  replyTo: string | null;
}

export interface Addressing {
  key: EmailTokenKey;
  baseUrl: string;
  /** The deployment's From (MAIL_FROM), used when the email names no sender address. */
  defaultFrom: string;
}

/** A display name quoted for a From header. */
const quoted = (name: string) => `"${name.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/** The From: the email's sender (name and address), else the deployment's. */
export function fromOf(version: Pick<VersionToSend, 'fromName' | 'fromAddress'>, defaultFrom: string): string {
  const address = version.fromAddress ?? defaultFrom;
  return version.fromName ? `${quoted(version.fromName)} <${/<([^<>]*)>/.exec(address)?.[1] ?? address}>` : address;
}

/** Each version's MIME pieces, made at its first email (a step's emails share one version object). */
const templates = new WeakMap<VersionToSend, { from: string; template: MimeTemplate | null }>();
function templateOf(version: VersionToSend, from: string): MimeTemplate | null {
  let made = templates.get(version);
  if (!made || made.from !== from) templates.set(version, (made = { from, template: mimeTemplate(version, from) }));
  return made.template;
}

export function composeEmail(
  version: VersionToSend,
  to: { sendId: string; address: string },
  at: Addressing,
  now: Date,
): OutgoingMessage & { mailMessageId: string } {
  const token = (purpose: 'click' | 'open' | 'unsubscribe' | 'preferences', link = 0) =>
    emailToken(at.key, { sendId: to.sendId, purpose, link });
  const go = emailAddresses(at.baseUrl);
  const topic = version.topicId !== null;
  const unsubscribe = topic ? go.unsubscribe(token('unsubscribe')) : undefined;
  const addresses = {
    links: version.links.map((_, i) => go.click(token('click', i))),
    open: go.open(token('open')),
    ...(topic ? { unsubscribe, preferences: go.preferencesPage(token('preferences')) } : {}),
  };
  const body = personalise(version, addresses);
  const from = fromOf(version, at.defaultFrom);
  const headers = [
    ...(version.replyTo ? [{ name: 'Reply-To', value: version.replyTo }] : []),
    ...(unsubscribe
      ? [
          { name: 'List-Unsubscribe', value: `<${unsubscribe}>` },
          { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
        ]
      : []),
  ];
  const mailMessageId = `${to.sendId}@${messageIdDomain(at.defaultFrom)}`;
  const template = templateOf(version, from);
  const mime =
    template && plainAddress(to.address)
      ? {
          sender: template.sender,
          raw: personalMime(template, {
            to: to.address,
            messageId: `<${mailMessageId}>`,
            date: now,
            addresses,
            listUnsubscribe: unsubscribe,
          }),
        }
      : undefined;
  return {
    from,
    to: [to.address],
    subject: version.subject,
    text: body.text,
    html: body.html,
    headers,
    messageId: `<${mailMessageId}>`,
    date: now,
    mailMessageId,
    ...(mime && { mime }),
  };
}
