import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

// A local https receiver for outbound posts, with a certificate made for the test run (nothing
// downloaded). Posts reach it only through a TestTrust naming its host:port and this certificate.

export interface TestCertificate {
  cert: string;
  key: string;
}

/** A self-signed certificate for the local names and addresses tests post to. */
export async function makeTestCertificate(names: string[] = []): Promise<TestCertificate> {
  const pems = await generate([{ name: 'commonName', value: 'outbound test receiver' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - 60_000),
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          ...names.map((value) => ({ type: 2 as const, value })),
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '127.0.0.2' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  /** `https://<host>:<port>` (IPv6 in brackets). */
  origin: string;
  /** `<host>:<port>`, as a TestTrust names it. */
  hostPort: string;
  port: number;
  /** Requests read in full, in order. */
  received: Received[];
  /** TCP connections accepted, TLS or not: proves nothing reached it at all. */
  connections(): number;
  close(): Promise<void>;
}

export type Handler = (req: Received, res: ServerResponse, raw: IncomingMessage) => void;

/** An https server on `host` (default 127.0.0.1) and a free port (or `port`), answering 200 unless `handler` says otherwise. */
export async function startReceiver(
  cert: TestCertificate,
  opts: { host?: string; port?: number; handler?: Handler } = {},
): Promise<Receiver> {
  const host = opts.host ?? '127.0.0.1';
  const received: Received[] = [];
  let connections = 0;
  const server: Server = createServer({ cert: cert.cert, key: cert.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(got);
      if (opts.handler) opts.handler(got, res, req);
      else res.end('ok');
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const hostPort = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    origin: `https://${hostPort}`,
    hostPort,
    port,
    received,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
