import type { MailHeader } from './message.js';

// The one way mail leaves the service (Services.mail): SMTP when SMTP_URL is set, else nothing
// leaves and the outgoing_mail table is the mailbox (send.ts keeps what each transport needs).

/** A message ready to go: checked, with its From, Message-ID and Date. */
export interface OutgoingMessage {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html?: string;
  headers: MailHeader[];
  messageId: string;
  date: Date;
}

export interface MailTransport {
  /** `kept`: nothing leaves, the table keeps the whole message. `smtp`: handed to the SMTP server, the table keeps a record without body. */
  readonly via: 'kept' | 'smtp';
  /** The From of every mail. */
  readonly from: string;
  /** Where mail goes, for the log: never a credential. */
  readonly describe: string;
  /** Resolves once the server took the message; rejects with MailNotSent when it did not. */
  send(message: OutgoingMessage): Promise<void>;
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
