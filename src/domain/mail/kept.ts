import type { MailTransport } from './transport.js';

/** Without SMTP_URL nothing leaves: sendMail keeps the whole message in outgoing_mail, which owners read in the staff API. */
export const keptMail = (from: string): MailTransport => ({
  via: 'kept',
  from,
  describe: 'kept in the database (outgoing_mail), read by workspace owners in the staff API',
  send: async () => {},
  close: async () => {},
});
