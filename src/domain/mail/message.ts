import { invalid, type FieldError } from '../errors.js';
import { textProblem } from '../../lib/text.js';

// What a sender hands the mail transport, and the checks that keep it one message: no line break in
// an address, the subject or a header (a CR or LF there would start a header or a message of the
// caller's choosing), addresses without display names or lists, headers the transport does not set.

export interface MailMessage {
  /** One address or several; plain addresses (`someone@example.com`), no display names. */
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  /** Extra headers, such as List-Unsubscribe; those the transport sets itself (From, To, Subject, …) are refused. */
  headers?: Record<string, string>;
  /** The workspace whose owners may read the mail when it is kept. */
  workspaceId?: string;
  /** What the mail is: a dotted word such as `webhook.switched_off`. */
  kind: string;
  /** Sending again with the same key sends nothing and answers the first mail's id (a process step tried twice). */
  idempotencyKey?: string;
}

/** A message that passed the checks: `to` always a list, headers as [{ name, value }] in the order given. */
export interface CheckedMail extends Omit<MailMessage, 'to' | 'headers'> {
  to: string[];
  headers: MailHeader[];
}

export interface MailHeader {
  name: string;
  value: string;
}

export const MAX_RECIPIENTS = 50;
const MAX_SUBJECT = 500;
const MAX_HEADER_VALUE = 2_000;
const MAX_BODY = 1_000_000;

// An address as the transport writes it: local part, @, domain; nothing that a header reads as a
// separator, comment, quote or display name.
const ADDRESS = /^[^\s@<>()[\]\\,;:"]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
const HEADER_NAME = /^[A-Za-z][A-Za-z0-9-]{0,75}$/;
const KIND = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;
/** Headers the transport writes itself: a caller's copy would make two, or change where the mail goes. */
const OWN_HEADERS = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'subject',
  'date',
  'message-id',
  'sender',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'return-path',
]);

const LINE_BREAK = /[\r\n]/;
const lineProblem = (value: string) => (LINE_BREAK.test(value) ? 'must not contain a line break (CR or LF)' : textProblem(value));

/** Why an address cannot be sent to, or undefined when it can. */
export function addressProblem(address: string): string | undefined {
  const problem = lineProblem(address);
  if (problem) return problem;
  if (address.length > 254 || !ADDRESS.test(address)) return 'must be an email address such as someone@example.com';
  return undefined;
}

/** The message as the transport sends it, or a refusal naming every bad member. */
export function checkMessage(message: MailMessage): CheckedMail {
  const errors: FieldError[] = [];
  const bad = (field: string, problem: string | undefined) => problem && errors.push({ field, message: problem });

  const to = typeof message.to === 'string' ? [message.to] : message.to;
  if (to.length === 0) bad('to', 'must name at least one address');
  if (to.length > MAX_RECIPIENTS) bad('to', `must name at most ${MAX_RECIPIENTS} addresses`);
  to.forEach((address, i) => bad(typeof message.to === 'string' ? 'to' : `to.${i}`, addressProblem(address)));

  bad(
    'subject',
    message.subject.trim() === ''
      ? 'must not be empty'
      : message.subject.length > MAX_SUBJECT
        ? `must be at most ${MAX_SUBJECT} characters`
        : lineProblem(message.subject),
  );
  bad('text', message.text.length > MAX_BODY ? `must be at most ${MAX_BODY} characters` : textProblem(message.text));
  if (message.html !== undefined)
    bad('html', message.html.length > MAX_BODY ? `must be at most ${MAX_BODY} characters` : textProblem(message.html));
  bad(
    'kind',
    KIND.test(message.kind) && message.kind.length <= 100 ? undefined : 'must be a dotted lowercase word such as webhook.switched_off',
  );

  const headers = Object.entries(message.headers ?? {}).map(([name, value]) => ({ name, value }));
  for (const { name, value } of headers) {
    const field = `headers.${name}`;
    if (!HEADER_NAME.test(name)) bad(field, 'must be a header name: letters, digits and -, starting with a letter');
    else if (OWN_HEADERS.has(name.toLowerCase())) bad(field, 'is written by the mail transport itself');
    else bad(field, value.length > MAX_HEADER_VALUE ? `must be at most ${MAX_HEADER_VALUE} characters` : lineProblem(value));
  }
  if (message.idempotencyKey !== undefined && (message.idempotencyKey === '' || message.idempotencyKey.length > 200))
    bad('idempotencyKey', 'must be 1 to 200 characters');

  if (errors.length) throw invalid(errors);
  return { ...message, to, headers };
}
