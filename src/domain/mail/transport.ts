import type { Mail, OutgoingMessage } from '../services.js';

// The one way mail leaves the service (Services.mail): SMTP when SMTP_URL is set, else nothing
// leaves and the outgoing_mail table is the mailbox (send.ts keeps what each transport needs).

export type { OutgoingMessage };

/** A transport as the process holds it (Services.mail is what the domain sees of it): closed when the process stops. */
export interface MailTransport extends Mail {
  close(): Promise<void>;
}

/**
 * The mail server did not take the message. `permanent` when it refused it for good (a 5yz reply:
 * sending the same again gets the same); otherwise (4yz, no connection, a timeout) trying again later may work.
 */
export class MailNotSent extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly responseCode?: number,
  ) {
    super(message);
    this.name = 'MailNotSent';
  }
}
