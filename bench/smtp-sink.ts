// A local SMTP server in a process of its own (as a mail server is), counting what each address is sent
// without parsing the messages; the benchmark asks it for the counts over IPC (and to forget them
// between the two engines' sendings). Started by bench/email.ts.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

const counts = new Map<string, number>();
const server = new SMTPServer({
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  size: 10_000_000,
  onData(stream, session, done) {
    stream.on('end', () => {
      for (const r of session.envelope.rcptTo) counts.set(r.address, (counts.get(r.address) ?? 0) + 1);
      done();
    });
    stream.resume();
  },
});
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.server.address() as AddressInfo).port }));
process.on('message', (m: { ask: 'size' | 'counts' | 'reset' }) => {
  if (m.ask === 'size') process.send!({ size: counts.size });
  else if (m.ask === 'reset') {
    counts.clear();
    process.send!({ reset: true });
  } else process.send!({ counts: [...counts] });
});
process.on('disconnect', () => server.close(() => process.exit(0)));
