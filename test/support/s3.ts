import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../../src/lib/blobs/s3.js';
import type { Clock } from '../../src/lib/clock.js';

// A local S3-compatible server for the tests: s3rver (from npm, files in a temporary folder),
// behind a small gate that checks every request's AWS Signature Version 4 (header or presigned
// query) and a presigned address's expiry by the test's clock, as S3 does: s3rver itself takes any
// V4 signature. A request the gate refuses never reaches s3rver.

export interface LocalS3 {
  settings: S3Settings;
  /** Requests the gate refused, by reason. */
  refused: string[];
  close(): Promise<void>;
}

const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** AWS's URI encoding: everything but the unreserved characters. */
const awsEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const amzTime = (s: string) =>
  new Date(`${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}Z`);

/** Why the request's signature does not hold, or undefined when it does. */
function signatureProblem(req: http.IncomingMessage, now: Date): string | undefined {
  const url = new URL(req.url!, 'http://local');
  const q = url.searchParams;
  const presigned = q.get('X-Amz-Algorithm') === 'AWS4-HMAC-SHA256';
  let credential: string, signedHeaders: string, signature: string, amzDate: string, payload: string;
  if (presigned) {
    [credential, signedHeaders, signature, amzDate] = ['X-Amz-Credential', 'X-Amz-SignedHeaders', 'X-Amz-Signature', 'X-Amz-Date'].map(
      (k) => q.get(k) ?? '',
    ) as [string, string, string, string];
    payload = q.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
    const expires = Number(q.get('X-Amz-Expires'));
    if (now.getTime() > amzTime(amzDate).getTime() + expires * 1000) return 'expired';
  } else {
    const auth = /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)$/.exec(
      req.headers.authorization ?? '',
    );
    if (!auth) return 'unsigned';
    [, credential, signedHeaders, signature] = auth as unknown as [string, string, string, string];
    amzDate = String(req.headers['x-amz-date'] ?? '');
    payload = String(req.headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD');
  }
  const [accessKey, date, region, service] = credential.split('/');
  if (accessKey !== ACCESS_KEY) return 'unknown key';
  const query = [...q.entries()]
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [awsEncode(k), awsEncode(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const names = signedHeaders.split(';');
  const headers = names
    .map(
      (n) =>
        `${n}:${String(req.headers[n] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonical = [req.method, url.pathname, query, headers, signedHeaders, payload].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${SECRET_KEY}`, date!), region!), service!), 'aws4_request');
  const expected = hmac(key, toSign);
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? undefined : 'signature';
}

/** s3rver on a free port with one bucket, behind the signature gate, both on 127.0.0.1. */
export async function startLocalS3(clock: Clock, bucket = 'crm-test-blobs'): Promise<LocalS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'crm-s3-'));
  const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port: s3Port } = (await s3.run()) as AddressInfo;
  const refused: string[] = [];
  const gate = http.createServer((req, res) => {
    const problem = signatureProblem(req, clock.now());
    if (problem) {
      refused.push(problem);
      req.resume();
      res.writeHead(403, { 'Content-Type': 'application/xml' });
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${problem === 'expired' ? 'AccessDenied' : 'SignatureDoesNotMatch'}</Code><Message>${problem}</Message></Error>`,
      );
      return;
    }
    const upstream = http.request(
      { host: '127.0.0.1', port: s3Port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => res.destroy(err));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
  const { port } = gate.address() as AddressInfo;
  return {
    settings: {
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      bucket,
      accessKeyId: ACCESS_KEY,
      secretAccessKey: SECRET_KEY,
      forcePathStyle: true,
    },
    refused,
    async close() {
      gate.closeAllConnections();
      await new Promise((resolve) => gate.close(resolve));
      await s3.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
