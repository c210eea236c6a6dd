// Mail no person wrote, which must never open or wake a conversation nor be answered (a loop of
// auto-replies, or a conversation per bounce): auto-replies (out of office, vacation, "we got your
// message"), delivery-failure notices and complaint (abuse) reports. Read from the headers where
// the converter sends them (names in any case), else from the sender and the subject.

export type AutomaticKind = 'auto_reply' | 'delivery_failure' | 'complaint_report';

export interface AutomaticMail {
  from: string;
  subject?: string;
  text: string;
  headers?: Record<string, string>;
}

/** Subjects are read on their first characters only. */
const SUBJECT_CHARS = 300;
/** The body is looked at on its first characters only (an ARF report says what it is at once). */
const BODY_CHARS = 4000;

// The local part of the sender of bounces (RFC 3464 reports come from these).
const BOUNCE_SENDER = /^(?:mailer-daemon|postmaster|mail-daemon|mailerdaemon|bounces?|mdaemon)$/i;

// Subjects are matched at their start only: a person writing "my parcel was not delivered" or
// "booking a rental on vacation" is answered like any other.
const FAILURE_SUBJECTS = [
  /^undelivered mail returned to sender/i,
  /^delivery status notification \((?:failure|delay)\)/i,
  /^undeliverable\s*:/i,
  /^undeliverable (?:mail|message)\b/i,
  /^(?:mail )?delivery (?:has )?failed\b/i,
  /^mail delivery failure\b/i,
  /^delivery failure\b/i,
  /^returned mail\s*:/i,
  /^failure notice$/i,
  /^message not delivered\b/i,
  /^(?:unzustellbar|nicht zustellbar)\s*:/i, // German
  /^non remis\s*:/i, // French
  /^no se puede entregar\s*:|^no entregado\s*:/i, // Spanish
  /^non recapitabile\s*:/i, // Italian
  /^não é possível entregar\s*:/i, // Portuguese
  /^onbestelbaar\s*:/i, // Dutch
  /^не доставлено\s*:|^недоставленное сообщение/i, // Russian
];

const AUTO_REPLY_SUBJECTS = [
  /^auto(?:matic)?[ -]?(?:reply|response|answer)\b/i,
  /^autoreply\b/i,
  /^out of (?:the )?office\b/i,
  /^(?:vacation|holiday|away) (?:reply|response|message|notice)\b/i,
  /^(?:automatische antwort|abwesenheitsnotiz|abwesend)\b/i, // German
  /^(?:réponse automatique|absence du bureau|absent du bureau|message d'absence)\b/i, // French
  /^(?:respuesta automática|fuera de la oficina)\b/i, // Spanish
  /^(?:risposta automatica|fuori ufficio)\b/i, // Italian
  /^(?:resposta automática|ausência temporária|fora do escritório)\b/i, // Portuguese
  /^(?:automatisch antwoord|afwezigheidsbericht|niet aanwezig)\b/i, // Dutch
  /^(?:автоматический ответ|автоответ|вне офиса)/i, // Russian
  /^(?:automatyczna odpowiedź|poza biurem)/i, // Polish
  /^(?:automatiskt svar|autosvar|fraværsmelding|frånvaro)\b/i, // Swedish, Norwegian, Danish
  /^(?:自动回复|自動回覆|自動応答|自動返信|不在通知)/, // Chinese, Japanese
];

/** Whether the mail is automatic, and of what kind; undefined for mail a person wrote. */
export function automaticKind(mail: AutomaticMail): AutomaticKind | undefined {
  const headers = lowerCased(mail.headers);
  const subject = (mail.subject ?? '').slice(0, SUBJECT_CHARS).trim();
  const contentType = headers['content-type'] ?? '';
  const body = mail.text.slice(0, BODY_CHARS);

  // Complaint reports (RFC 5965, ARF): a multipart/report of type feedback-report.
  if (
    /report-type\s*=\s*"?feedback-report/i.test(contentType) ||
    /^feedback-type\s*:/im.test(body) ||
    /message\/feedback-report/i.test(body)
  )
    return 'complaint_report';

  // Delivery-status reports (RFC 3464), and bounces by their sender or subject.
  if (/report-type\s*=\s*"?delivery-status/i.test(contentType) || /message\/delivery-status/i.test(body)) return 'delivery_failure';
  if (BOUNCE_SENDER.test(localPart(mail.from))) return 'delivery_failure';
  if (headers['x-failed-recipients'] !== undefined) return 'delivery_failure';
  if (FAILURE_SUBJECTS.some((r) => r.test(subject))) return 'delivery_failure';

  // Auto-replies (RFC 3834 and the headers clients and servers send in its stead).
  const autoSubmitted = headers['auto-submitted'];
  if (
    autoSubmitted !== undefined &&
    autoSubmitted
      .trim()
      .toLowerCase()
      .split(/[\s;(]/)[0] !== 'no'
  )
    return 'auto_reply';
  if (headers['x-autoreply'] !== undefined || headers['x-autorespond'] !== undefined || headers['x-autoresponder'] !== undefined)
    return 'auto_reply';
  if (headers['x-auto-response-suppress'] !== undefined && /\b(?:all|oof|autoreply)\b/i.test(headers['x-auto-response-suppress']!))
    return 'auto_reply';
  if (/^\s*(?:auto_reply|bulk|junk)\s*$/i.test(headers['precedence'] ?? '')) return 'auto_reply';
  if (headers['x-precedence'] !== undefined && /^\s*(?:auto_reply|bulk|junk)\s*$/i.test(headers['x-precedence']!)) return 'auto_reply';
  if (AUTO_REPLY_SUBJECTS.some((r) => r.test(subject))) return 'auto_reply';
  return undefined;
}

function lowerCased(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.trim().toLowerCase()] = String(value);
  return out;
}

/** The local part of an address, whether given bare or as "Name <address>". */
function localPart(from: string): string {
  const angle = from.lastIndexOf('<');
  const address = angle >= 0 ? from.slice(angle + 1, from.indexOf('>', angle) >= 0 ? from.indexOf('>', angle) : undefined) : from;
  const at = address.lastIndexOf('@');
  return (at >= 0 ? address.slice(0, at) : address).trim().replace(/^"|"$/g, '');
}
