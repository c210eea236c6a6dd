import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOUND_TIMEOUT_MS, postOutbound, type PostResult, type Resolver, type TestTrust } from '../src/lib/outbound/index.js';
import { makeTestCertificate, startReceiver, type Receiver, type TestCertificate } from './support/https-receiver.js';

// Outbound posts over real sockets to local https receivers with a certificate made for the run.
// A receiver is reachable only through a TestTrust naming its exact host:port and that certificate;
// every refusal is shown against a receiver that is listening and counts TCP connections.

let cert: TestCertificate;
let other: TestCertificate;
let receiver: Receiver;
let trust: TestTrust;

beforeAll(async () => {
  cert = await makeTestCertificate(['hooks.example.test', 'rebind.example.test']);
  other = await makeTestCertificate();
  receiver = await startReceiver(cert);
  trust = { allow: [receiver.hostPort], ca: cert.cert };
});
afterAll(() => receiver?.close());

/** A resolver that answers from a table and counts its calls. */
function resolverOf(answers: (host: string, call: number) => string[]): Resolver & { calls: string[] } {
  const calls: string[] = [];
  return Object.assign(
    async (host: string) => {
      calls.push(host);
      return answers(host, calls.length);
    },
    { calls },
  );
}

const signedHeaders = {
  'Content-Type': 'application/json',
  'X-CRM-Delivery': 'dlv_3f2a',
  'X-CRM-Signature': 't=1700000000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
  'User-Agent': 'crm-webhooks',
};

describe('posts that arrive', () => {
  it('carry the exact body and headers, and report status and time, never the body', async () => {
    const before = receiver.received.length;
    const body = JSON.stringify({ id: 'evt_1', type: 'contact.created', data: { name: 'Zoë 🐝', quote: '"\\\n' } });
    const result = await postOutbound(`${receiver.origin}/hooks/in?via=test`, body, signedHeaders, { testTrust: trust });
    expect(result).toEqual({ status: 200, ms: expect.any(Number) });
    expect(Object.keys(result).sort()).toEqual(['ms', 'status']);
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ method: 'POST', path: '/hooks/in?via=test', body });
    expect(got[0]!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-crm-delivery': 'dlv_3f2a',
      'x-crm-signature': signedHeaders['X-CRM-Signature'],
      'user-agent': 'crm-webhooks',
      'content-length': String(Buffer.byteLength(body)),
      host: receiver.hostPort,
    });
  });

  it('by host name, through the system lookup and the name in the certificate', async () => {
    const r = await startReceiver(cert, { host: '127.0.0.1' });
    try {
      const result = await postOutbound(
        `https://localhost:${r.port}/x`,
        '{}',
        {},
        { testTrust: { allow: [`localhost:${r.port}`], ca: cert.cert } },
      );
      expect(result).toMatchObject({ status: 200 });
      expect(r.received).toHaveLength(1);
      expect(r.received[0]!.headers.host).toBe(`localhost:${r.port}`);
    } finally {
      await r.close();
    }
  });

  it('over IPv6', async () => {
    const r = await startReceiver(cert, { host: '::1' });
    try {
      expect(await postOutbound(`${r.origin}/v6`, 'six', {}, { testTrust: { allow: [r.hostPort], ca: cert.cert } })).toMatchObject({
        status: 200,
      });
      expect(r.received.map((x) => x.body)).toEqual(['six']);
    } finally {
      await r.close();
    }
  });

  it('report any status but 3xx as the answer', async () => {
    const r = await startReceiver(cert, {
      handler: (req, res) => {
        res.statusCode = Number(req.path.slice(1));
        res.end('{"secret":"not for the log"}');
      },
    });
    try {
      const t = { allow: [r.hostPort], ca: cert.cert };
      for (const status of [200, 204, 400, 410, 429, 500, 503]) {
        const result = await postOutbound(`${r.origin}/${status}`, '{}', {}, { testTrust: t });
        expect(result).toEqual({ status, ms: expect.any(Number) });
      }
    } finally {
      await r.close();
    }
  });

  it('read at most a few KiB of a long answer, then close', async () => {
    let written = 0;
    let finished = false;
    const total = 64 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const r = await startReceiver(cert, {
      handler: (_req, res) => {
        res.writeHead(200, { 'Content-Length': String(total) });
        const pump = () => {
          while (written < total && !res.destroyed) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (written >= total) res.end(() => (finished = true));
        };
        pump();
      },
    });
    try {
      const result = await postOutbound(`${r.origin}/big`, '{}', {}, { testTrust: { allow: [r.hostPort], ca: cert.cert } });
      expect(result).toEqual({ status: 200, ms: expect.any(Number) });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(finished).toBe(false);
      expect(written).toBeLessThan(total);
    } finally {
      await r.close();
    }
  });
});

describe('refused before any connection', () => {
  /** Posts to `url`; nothing may have connected to the receiver. */
  async function refused(url: string, opts: { resolve?: Resolver } = {}): Promise<PostResult> {
    const before = receiver.connections();
    // The receiver's CA is trusted for another port only: were the address check missing, TLS alone would not stop it.
    const result = await postOutbound(url, '{}', {}, { ...opts, testTrust: { allow: ['127.0.0.1:1'], ca: cert.cert }, timeoutMs: 2000 });
    expect(receiver.connections()).toBe(before);
    return result;
  }

  it.each([
    ['loopback', (p: number) => `https://127.0.0.1:${p}/`, '127.0.0.1 is loopback'],
    ['loopback, written as 0x7f.1', (p: number) => `https://0x7f.1:${p}/`, '127.0.0.1 is loopback'],
    ['loopback, written as one number', (p: number) => `https://2130706433:${p}/`, '127.0.0.1 is loopback'],
    ['IPv6 loopback', (p: number) => `https://[::1]:${p}/`, '::1 is loopback'],
    ['IPv4-mapped loopback', (p: number) => `https://[::ffff:127.0.0.1]:${p}/`, '::ffff:7f00:1 is IPv4-mapped 127.0.0.1: loopback'],
    ['IPv4-compatible loopback', (p: number) => `https://[::127.0.0.1]:${p}/`, '::7f00:1 is IPv4-compatible (deprecated)'],
    ['NAT64 of loopback', (p: number) => `https://[64:ff9b::127.0.0.1]:${p}/`, '64:ff9b::7f00:1 is NAT64 of 127.0.0.1: loopback'],
    ['6to4 of loopback', (p: number) => `https://[2002:7f00:1::]:${p}/`, '2002:7f00:1:: is 6to4 of 127.0.0.1: loopback'],
    ['unspecified', (p: number) => `https://0.0.0.0:${p}/`, '0.0.0.0 is unspecified'],
    ['IPv6 unspecified', (p: number) => `https://[::]:${p}/`, ':: is unspecified'],
    ['private', () => 'https://10.1.2.3/', '10.1.2.3 is private'],
    ['private 172.16/12', () => 'https://172.20.0.1/', '172.20.0.1 is private'],
    ['private 192.168/16', () => 'https://192.168.0.10/', '192.168.0.10 is private'],
    ['link-local', () => 'https://169.254.10.1/', '169.254.10.1 is link-local'],
    ['metadata', () => 'https://169.254.169.254/latest/meta-data/', '169.254.169.254 is cloud metadata'],
    ['metadata (Alibaba)', () => 'https://100.100.100.200/', '100.100.100.200 is cloud metadata'],
    ['metadata (AWS IPv6)', () => 'https://[fd00:ec2::254]/', 'fd00:ec2::254 is cloud metadata'],
    ['CGNAT', () => 'https://100.64.0.1/', '100.64.0.1 is shared address space (CGNAT)'],
    ['multicast', () => 'https://224.0.0.251/', '224.0.0.251 is multicast'],
    ['broadcast', () => 'https://255.255.255.255/', '255.255.255.255 is broadcast'],
    ['IPv6 link-local', () => 'https://[fe80::1]/', 'fe80::1 is link-local'],
    ['unique local', () => 'https://[fd12::1]/', 'fd12::1 is unique local'],
    ['Teredo', () => 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', '2001:0:4136:e378:8000:63bf:3fff:fdd2 is Teredo'],
  ])('%s as a literal', async (_name, url, detail) => {
    expect(await refused(url(receiver.port))).toEqual({ failure: 'refused_address', detail, ms: expect.any(Number) });
  });

  it('localhost, through the system lookup', async () => {
    expect(await refused(`https://localhost:${receiver.port}/`)).toMatchObject({
      failure: 'refused_address',
      detail: expect.stringMatching(/^localhost resolves to (127\.0\.0\.1 \(loopback\)|::1 \(loopback\))$/),
    });
  });

  const byName: [string, string[], string][] = [
    ['loopback', ['127.0.0.1'], '127.0.0.1 (loopback)'],
    ['IPv6 loopback', ['::1'], '::1 (loopback)'],
    ['private', ['10.0.0.7'], '10.0.0.7 (private)'],
    ['link-local', ['169.254.3.4'], '169.254.3.4 (link-local)'],
    ['metadata', ['169.254.169.254'], '169.254.169.254 (cloud metadata)'],
    ['metadata (AWS IPv6)', ['fd00:ec2::254'], 'fd00:ec2::254 (cloud metadata)'],
    ['CGNAT', ['100.90.1.1'], '100.90.1.1 (shared address space (CGNAT))'],
    ['IPv4-mapped private', ['::ffff:192.168.1.1'], '::ffff:192.168.1.1 (IPv4-mapped 192.168.1.1: private)'],
    ['NAT64 of private', ['64:ff9b::10.0.0.1'], '64:ff9b::10.0.0.1 (NAT64 of 10.0.0.1: private)'],
    ['6to4 of private', ['2002:a00:1::1'], '2002:a00:1::1 (6to4 of 10.0.0.1: private)'],
    ['Teredo', ['2001::5efe:1'], '2001::5efe:1 (Teredo)'],
    ['unique local', ['fc00::9'], 'fc00::9 (unique local)'],
    [
      'one private address among public ones',
      ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '127.0.0.1'],
      '127.0.0.1 (loopback)',
    ],
    ['not an address', ['not-an-ip'], 'not-an-ip (not an IP address)'],
  ];
  it.each(byName)('%s through a host name', async (_name, answers, detail) => {
    const resolve = resolverOf(() => answers);
    const result = await refused(`https://hooks.example.test:${receiver.port}/in`, { resolve });
    expect(result).toEqual({ failure: 'refused_address', detail: `hooks.example.test resolves to ${detail}`, ms: expect.any(Number) });
    expect(resolve.calls).toEqual(['hooks.example.test']);
  });

  it('plain http, other schemes and credentials in the URL, even for a trusted target', async () => {
    let hits = 0;
    const plain = createHttpServer((_req, res) => res.end('ok'));
    plain.on('connection', () => hits++);
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const port = (plain.address() as AddressInfo).port;
    const t = { allow: [`127.0.0.1:${port}`, receiver.hostPort], ca: cert.cert };
    try {
      expect(await postOutbound(`http://127.0.0.1:${port}/`, '{}', {}, { testTrust: t })).toEqual({
        failure: 'refused_url',
        detail: 'only https is allowed, not http',
        ms: expect.any(Number),
      });
      expect(await postOutbound(`ws://127.0.0.1:${port}/`, '{}', {}, { testTrust: t })).toMatchObject({ failure: 'refused_url' });
      expect(await postOutbound('http://93.184.215.14/', '{}', {})).toMatchObject({ failure: 'refused_url' });
      expect(hits).toBe(0);
      const before = receiver.connections();
      expect(await postOutbound(`https://user:secret@${receiver.hostPort}/`, '{}', {}, { testTrust: t })).toEqual({
        failure: 'refused_url',
        detail: 'credentials in the URL are not allowed',
        ms: expect.any(Number),
      });
      expect(await postOutbound('not a url', '{}', {}, { testTrust: t })).toMatchObject({ failure: 'refused_url' });
      expect(receiver.connections()).toBe(before);
    } finally {
      plain.closeAllConnections();
      await new Promise((resolve) => plain.close(resolve));
    }
  });

  it('headers the client sets itself, or that are not valid HTTP, are a caller mistake', async () => {
    const t = { testTrust: trust };
    await expect(postOutbound(`${receiver.origin}/`, '{}', { Host: 'evil.example' }, t)).rejects.toThrow(/set Host themselves/);
    await expect(postOutbound(`${receiver.origin}/`, '{}', { 'content-length': '1' }, t)).rejects.toThrow(/themselves/);
    await expect(postOutbound(`${receiver.origin}/`, '{}', { 'X-Bad': 'a\r\nInjected: 1' }, t)).rejects.toThrow();
  });
});

describe('redirects', () => {
  it.each([301, 302, 303, 307, 308])('a %s is a redirect failure and the Location is never fetched', async (status) => {
    const elsewhere = await startReceiver(cert);
    const r = await startReceiver(cert, {
      handler: (req, res) => {
        if (req.path === '/start') {
          res.writeHead(status, { Location: req.headers['x-go'] === 'same' ? '/landing' : `${elsewhere.origin}/landing` });
          res.end('moved');
        } else res.end('landed');
      },
    });
    // Both receivers trusted: following the Location would be allowed, so only not following keeps them unreached.
    const t = { allow: [r.hostPort, elsewhere.hostPort], ca: cert.cert };
    try {
      for (const go of ['same', 'elsewhere']) {
        const result = await postOutbound(`${r.origin}/start`, '{}', { 'X-Go': go }, { testTrust: t });
        expect(result).toEqual({
          failure: 'redirect',
          status,
          detail: `answered ${status}; redirects are not followed`,
          ms: expect.any(Number),
        });
      }
      expect(r.received.map((x) => x.path)).toEqual(['/start', '/start']);
      expect(elsewhere.connections()).toBe(0);
    } finally {
      await Promise.all([r.close(), elsewhere.close()]);
    }
  });
});

describe('time limit', () => {
  it('is 10 s unless a test says otherwise', () => {
    expect(OUTBOUND_TIMEOUT_MS).toBe(10_000);
  });

  it('a receiver slower than the limit to answer is a timeout', async () => {
    const r = await startReceiver(cert, { handler: (_req, res) => void setTimeout(() => res.end('late'), 3000) });
    try {
      const result = await postOutbound(
        `${r.origin}/slow`,
        '{}',
        {},
        { testTrust: { allow: [r.hostPort], ca: cert.cert }, timeoutMs: 400 },
      );
      expect(result).toEqual({ failure: 'timeout', detail: 'no answer within 400 ms', ms: expect.any(Number) });
      expect(result.ms).toBeGreaterThanOrEqual(395);
      expect(result.ms).toBeLessThan(1500);
      expect(r.received).toHaveLength(1);
    } finally {
      await r.close();
    }
  });

  it('a server that accepts and never speaks TLS is a timeout', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createTcpServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const result = await postOutbound(
        `https://127.0.0.1:${port}/`,
        '{}',
        {},
        { testTrust: { allow: [`127.0.0.1:${port}`], ca: cert.cert }, timeoutMs: 300 },
      );
      expect(result).toMatchObject({ failure: 'timeout' });
      expect(result.ms).toBeLessThan(1500);
      expect(sockets).toHaveLength(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('a lookup that never answers is a timeout', async () => {
    const result = await postOutbound('https://hooks.example.test/', '{}', {}, { resolve: () => new Promise(() => {}), timeoutMs: 200 });
    expect(result).toEqual({ failure: 'timeout', detail: 'no address for hooks.example.test within 200 ms', ms: expect.any(Number) });
  });
});

describe('other failures', () => {
  it('a certificate not made by the trusted CA is tls', async () => {
    const r = await startReceiver(other);
    try {
      const result = await postOutbound(`${r.origin}/`, '{}', {}, { testTrust: { allow: [r.hostPort], ca: cert.cert } });
      expect(result).toMatchObject({ failure: 'tls' });
      expect(r.received).toHaveLength(0);
    } finally {
      await r.close();
    }
  });

  it('a certificate without the host name is tls', async () => {
    const r = await startReceiver(other);
    try {
      const resolve = resolverOf(() => ['127.0.0.1']);
      const result = await postOutbound(
        `https://hooks.example.test:${r.port}/`,
        '{}',
        {},
        { resolve, testTrust: { allow: [`hooks.example.test:${r.port}`], ca: other.cert } },
      );
      expect(result).toMatchObject({ failure: 'tls', detail: expect.stringMatching(/hooks\.example\.test/) });
    } finally {
      await r.close();
    }
  });

  it('nothing listening is connect; a name with no address is dns', async () => {
    const r = await startReceiver(cert);
    const port = r.port;
    await r.close();
    expect(
      await postOutbound(`https://127.0.0.1:${port}/`, '{}', {}, { testTrust: { allow: [`127.0.0.1:${port}`], ca: cert.cert } }),
    ).toMatchObject({ failure: 'connect', detail: expect.stringMatching(/ECONNREFUSED/) });
    expect(await postOutbound('https://nothing.invalid/', '{}', {})).toMatchObject({ failure: 'dns' });
    expect(await postOutbound('https://hooks.example.test/', '{}', {}, { resolve: async () => [] })).toEqual({
      failure: 'dns',
      detail: 'hooks.example.test: no address',
      ms: expect.any(Number),
    });
  });
});

describe('DNS rebinding', () => {
  it('an answer that turns private after the check never reaches the private address', async () => {
    // Public first (checked, then connected to: it leads nowhere here), private on any later lookup.
    const resolve = resolverOf((_host, call) => (call === 1 ? ['93.184.215.14'] : ['127.0.0.1']));
    const before = receiver.connections();
    const result = await postOutbound(`https://rebind.example.test:${receiver.port}/in`, '{}', {}, { resolve, timeoutMs: 800 });
    expect(result.failure === 'timeout' || result.failure === 'connect').toBe(true);
    expect(resolve.calls).toHaveLength(1);
    expect(receiver.connections()).toBe(before);
  });

  it('the connection goes to the address that was looked up, not to a later answer', async () => {
    // Two receivers on one port, on 127.0.0.1 and 127.0.0.2; the name answers the first, then the second.
    const first = await startReceiver(cert, { host: '127.0.0.1' });
    const second = await startReceiver(cert, { host: '127.0.0.2', port: first.port });
    try {
      const t = { allow: [`rebind.example.test:${first.port}`], ca: cert.cert };
      for (let i = 0; i < 3; i++) {
        const resolve = resolverOf((_host, call) => (call === 1 ? ['127.0.0.1'] : ['127.0.0.2']));
        expect(await postOutbound(`https://rebind.example.test:${first.port}/in`, `try ${i}`, {}, { resolve, testTrust: t })).toMatchObject(
          { status: 200 },
        );
        expect(resolve.calls).toHaveLength(1);
      }
      expect(first.received.map((x) => x.body)).toEqual(['try 0', 'try 1', 'try 2']);
      expect(second.connections()).toBe(0);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
