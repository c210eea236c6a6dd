import type { Config } from '../../config.js';
import { keptMail } from './kept.js';
import { addressProblem } from './message.js';
import { smtpMail } from './smtp.js';
import type { MailTransport } from './transport.js';

/** The deployment's mail transport: SMTP when SMTP_URL is set (DKIM-signed with the DKIM settings), else the table. A bad setting stops the start. */
export function openMailTransport(config: Pick<Config, 'smtpUrl' | 'mailFrom'> & Partial<Pick<Config, 'dkim'>>): MailTransport {
  const from = checkedFrom(config.mailFrom);
  return config.smtpUrl ? smtpMail(config.smtpUrl, from, config.dkim) : keptMail(from);
}

/** MAIL_FROM: `Name <address>` or an address, on one line. */
function checkedFrom(from: string): string {
  const address = /<([^<>]*)>\s*$/.exec(from)?.[1] ?? from;
  const problem = /[\r\n]/.test(from) ? 'must not contain a line break' : addressProblem(address.trim());
  if (problem) throw new Error(`MAIL_FROM ${problem} (as in "CRM <no-reply@example.com>"), not "${from}"`);
  return from;
}
