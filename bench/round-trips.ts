import { createConnection, createServer, type Server, type Socket } from 'node:net';

// Round trips between a server process and PostgreSQL, counted on the wire: a proxy in front of
// the database reads what clients send. A client that does not pipeline (pg, and Prisma through
// pg) waits for an answer after each Query ('Q', simple protocol) or Sync ('S', the end of an
// extended-protocol query), so each of those is one round trip. The statement's first words are
// kept beside it (from the Query, or the Parse 'P' before the Sync) to say what the trips are.

export interface WireCounter {
  port: number;
  /** Round trips by statement, since the last call. */
  take(): Map<string, number>;
  close(): Promise<void>;
}

export async function countRoundTrips(target: { host: string; port: number }): Promise<WireCounter> {
  let counts = new Map<string, number>();
  const sockets = new Set<Socket>();
  const count = (statement: string) => counts.set(statement, (counts.get(statement) ?? 0) + 1);
  const server: Server = createServer((client) => {
    const upstream = createConnection(target);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    let pending: Buffer = Buffer.alloc(0);
    let started = false; // the startup message has no type byte
    const named = new Map<string, string>(); // prepared statements, by name
    let statement = '';
    client.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        if (!started) {
          if (pending.length < 4) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          const code = pending.readInt32BE(4);
          pending = pending.subarray(length);
          started = code !== 80877103 && code !== 80877104; // an SSL or GSS request comes before the startup message
          continue;
        }
        if (pending.length < 5) break;
        const type = String.fromCharCode(pending[0]!);
        const length = pending.readInt32BE(1);
        if (pending.length < 1 + length) break;
        const body = pending.subarray(5, 1 + length);
        pending = pending.subarray(1 + length);
        const [first, second] = cstrings(body);
        if (type === 'Q') count(head(first));
        else if (type === 'P') named.set(first, (statement = head(second)));
        else if (type === 'B') statement = named.get(second) ?? statement;
        else if (type === 'S') {
          count(statement || '(unknown)');
          statement = '';
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    take() {
      const taken = counts;
      counts = new Map();
      return taken;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The first two NUL-terminated strings of a message body. */
function cstrings(body: Buffer): [string, string] {
  const end = body.indexOf(0);
  if (end < 0) return ['', ''];
  const next = body.indexOf(0, end + 1);
  return [body.toString('utf8', 0, end), next < 0 ? '' : body.toString('utf8', end + 1, next)];
}

/** A statement's first words, enough to tell it apart: `SELECT … FROM "public"."server_key"` and the like. */
function head(sql: string): string {
  const text = sql.replace(/\s+/g, ' ').trim();
  const from = /\b(FROM|INTO|UPDATE)\s+("?[\w.]+"?(\."?\w+"?)?)/i.exec(text);
  const verb = text.split(' ')[0]!.toUpperCase();
  const call = /\b(crm_\w+)\(/.exec(text)?.[1];
  if (call) return `${verb} ${call}(…)`;
  if (from && from[1]!.toUpperCase() === verb) return `${verb} ${from[2]!.replace(/"/g, '')}`;
  if (from) return `${verb} … ${from[1]!.toUpperCase()} ${from[2]!.replace(/"/g, '')}`;
  return text.slice(0, 40);
}
