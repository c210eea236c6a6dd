import { randomBytes } from 'node:crypto';
import { escapeText } from '../../lib/html/index.js';
import { displayName, headerText, plainAddress, quotedPrintable, SOFT_BREAK } from '../../lib/mime/encode.js';
import { addressAt, placesOf, type PersonalAddresses, type Place } from './render.js';

// A sending's emails as MIME, made the quick way for its many people: what every person's email
// shares (From, Subject, Reply-To, the text and the HTML between the person's own addresses) is
// encoded once per version, and each person's email is those pieces with their own parts put in:
// To, Message-ID, Date, List-Unsubscribe and their addresses, each between soft line breaks so
// the lines stay within 76 characters. What it makes decodes to the same email personalise() and
// compose.ts describe (multipart/alternative, text then HTML, UTF-8, quoted-printable); the SMTP
// transport hands it over as it is, so the mail library does not build and encode each email again
// (about half its work per email). An email whose From or Reply-To, or a person whose address, is
// not plain ASCII goes the library's way (IDN, SMTPUTF8).

interface Body {
  /** The pieces between the person's places, quoted-printable. */
  parts: string[];
  places: Place[];
}

export interface MimeTemplate {
  /** From, Subject and Reply-To, written. */
  head: string;
  /** The envelope's sender: From's address. */
  sender: string;
  boundary: string;
  text: Body;
  html: Body;
}

export interface VersionMime {
  subject: string;
  html: string;
  text: string;
  replyTo: string | null;
}

/** A From or Reply-To as written (`"Name" <address>`, `Name <address>` or an address), in its two parts. */
export function mailbox(value: string): { name: string; address: string } {
  const m = /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(value);
  if (!m) return { name: '', address: value.trim() };
  const name = m[1]!.startsWith('"') && m[1]!.endsWith('"') ? m[1]!.slice(1, -1).replace(/\\(.)/g, '$1') : m[1]!;
  return { name, address: m[2]!.trim() };
}

const encoded = (source: string): Body => {
  const { parts, places } = placesOf(source);
  return { parts: parts.map(quotedPrintable), places };
};

/** What every person's email of a version shares, encoded; null when it goes the mail library's way. */
export function mimeTemplate(version: VersionMime, from: string): MimeTemplate | null {
  const sender = mailbox(from);
  const replyTo = version.replyTo ? mailbox(version.replyTo) : null;
  if (!plainAddress(sender.address) || (replyTo && !plainAddress(replyTo.address))) return null;
  const written = (m: { name: string; address: string }) => (m.name ? `${displayName(m.name)} <${m.address}>` : m.address);
  return {
    head:
      `From: ${written(sender)}\r\n` +
      `Subject: ${headerText(version.subject.replace(/[\r\n]+/g, ' '))}\r\n` +
      (replyTo ? `Reply-To: ${written(replyTo)}\r\n` : ''),
    sender: sender.address,
    // `=_` never appears in quoted-printable text: no part can hold the boundary.
    boundary: `=_crm_${randomBytes(12).toString('hex')}`,
    text: encoded(version.text),
    html: encoded(version.html),
  };
}

const filled = (body: Body, at: PersonalAddresses, escape: (v: string) => string) => {
  let out = body.parts[0]!;
  for (let i = 0; i < body.places.length; i++)
    out += SOFT_BREAK + quotedPrintable(escape(addressAt(at, body.places[i]!))) + SOFT_BREAK + body.parts[i + 1]!;
  return out;
};

/** A date as RFC 5322 writes it, in UTC. */
export const mailDate = (d: Date) => d.toUTCString().replace(/GMT$/, '+0000');

/** One person's email: the version's pieces with their own parts put in. */
export function personalMime(
  t: MimeTemplate,
  person: { to: string; messageId: string; date: Date; addresses: PersonalAddresses; listUnsubscribe?: string },
): string {
  const part = (type: string) =>
    `--${t.boundary}\r\nContent-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n`;
  return (
    t.head +
    `To: ${person.to}\r\n` +
    (person.listUnsubscribe
      ? `List-Unsubscribe: <${person.listUnsubscribe}>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n`
      : '') +
    `Message-ID: ${person.messageId}\r\nDate: ${mailDate(person.date)}\r\nMIME-Version: 1.0\r\n` +
    `Content-Type: multipart/alternative;\r\n boundary="${t.boundary}"\r\n\r\n` +
    part('text/plain') +
    filled(t.text, person.addresses, (v) => v) +
    '\r\n' +
    part('text/html') +
    filled(t.html, person.addresses, escapeText) +
    `\r\n--${t.boundary}--\r\n`
  );
}
