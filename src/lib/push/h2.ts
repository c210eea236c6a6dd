import http2, { type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import tls from 'node:tls';
import { kindOfError } from '../outbound/result.js';
import { checkTarget, tlsOptionsOf, type PushTransportOptions } from './connect.js';

// HTTP/2 to APNs and FCM: one long-lived connection per provider address, many requests on it at
// once, as APNs asks (it treats a connection opened per push as a denial-of-service attack). A
// connection the provider closes (GOAWAY, idle, an error) is dropped and the next request opens a
// new one. Connections do not keep the Node process alive.

/** One request's time limit, from sending to the whole answer. */
export const H2_TIMEOUT_MS = 10_000;
/** A connection nothing used for this long is closed. */
const IDLE_MS = 60_000;
/** The most of an answer's body read: providers' error bodies are small JSON. */
const BODY_BYTES = 64 * 1024;

export interface H2Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface H2Failure {
  /** No answer: why (refused address, connect, tls, timeout, protocol). */
  failure: string;
  detail: string;
}

export class Http2Client {
  /** One connection per origin; while it is being made, every request waits for that one. */
  private readonly open = new Map<string, ClientHttp2Session>();
  private readonly connecting = new Map<string, Promise<ClientHttp2Session>>();

  constructor(private readonly opts: PushTransportOptions & { timeoutMs?: number } = {}) {}

  /** Sends one request and reads its answer; resolves with a failure for anything the network or the peer does, never rejects. */
  async request(url: string, headers: Record<string, string>, body: string | Buffer, method = 'POST'): Promise<H2Answer | H2Failure> {
    const { origin, pathname, search } = new URL(url);
    let session: ClientHttp2Session;
    try {
      session = await this.session(origin);
    } catch (err) {
      return (err as { refused?: string }).refused !== undefined
        ? { failure: 'refused_address', detail: (err as { refused: string }).refused }
        : { failure: kindOfError(err).failure, detail: kindOfError(err).detail };
    }
    return new Promise((resolve) => {
      let done = false;
      const finish = (answer: H2Answer | H2Failure) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(answer);
      };
      let stream: http2.ClientHttp2Stream;
      try {
        stream = session.request({
          ':method': method,
          ':path': `${pathname}${search}`,
          ...headers,
          'content-length': String(Buffer.byteLength(body)),
        });
      } catch (err) {
        // The session went away between being handed out and this request.
        this.forget(origin, session);
        return finish({ failure: 'connect', detail: (err as Error).message });
      }
      const limit = this.opts.timeoutMs ?? H2_TIMEOUT_MS;
      const timer = setTimeout(() => {
        stream.close(http2.constants.NGHTTP2_CANCEL);
        finish({ failure: 'timeout', detail: `no answer within ${limit} ms` });
      }, limit);
      let status = 0;
      let answerHeaders: IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      let read = 0;
      stream.on('response', (h) => {
        status = Number(h[':status']);
        answerHeaders = h;
      });
      stream.on('data', (chunk: Buffer) => {
        if (read < BODY_BYTES) chunks.push(chunk);
        read += chunk.length;
      });
      stream.on('end', () =>
        finish(
          status
            ? { status, headers: answerHeaders, body: Buffer.concat(chunks).toString('utf8').slice(0, BODY_BYTES) }
            : { failure: 'protocol', detail: 'the stream ended without an answer' },
        ),
      );
      stream.on('error', (err) => finish({ failure: 'connect', detail: (err as Error).message }));
      stream.on('close', () =>
        finish(
          status
            ? { status, headers: answerHeaders, body: Buffer.concat(chunks).toString('utf8') }
            : { failure: 'connect', detail: `the stream closed (${stream.rstCode ?? 'no code'}) without an answer` },
        ),
      );
      stream.end(body);
    });
  }

  /** Closes every connection (in-flight requests end with a failure). */
  async close(): Promise<void> {
    const pending = await Promise.allSettled([...this.connecting.values()]);
    this.connecting.clear();
    for (const s of pending) if (s.status === 'fulfilled') s.value.destroy();
    for (const s of this.open.values()) s.destroy();
    this.open.clear();
  }

  private session(origin: string): Promise<ClientHttp2Session> {
    const open = this.open.get(origin);
    if (open && !open.closed && !open.destroyed) return Promise.resolve(open);
    let pending = this.connecting.get(origin);
    if (!pending) {
      pending = this.connect(origin).finally(() => this.connecting.delete(origin));
      this.connecting.set(origin, pending);
    }
    return pending;
  }

  private async connect(origin: string): Promise<ClientHttp2Session> {
    const checked = await checkTarget(origin, this.opts);
    if ('refused' in checked) throw Object.assign(new Error(checked.refused), { refused: checked.refused });
    const limit = this.opts.timeoutMs ?? H2_TIMEOUT_MS;
    return new Promise((resolve, reject) => {
      const session = http2.connect(origin, {
        createConnection: () => tls.connect({ ...tlsOptionsOf(checked), ALPNProtocols: ['h2'] }),
      });
      const timer = setTimeout(() => {
        session.destroy();
        reject(Object.assign(new Error(`no connection to ${origin} within ${limit} ms`), { code: 'ETIMEDOUT' }));
      }, limit);
      session.once('connect', () => {
        clearTimeout(timer);
        session.unref();
        this.open.set(origin, session);
        resolve(session);
      });
      session.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      const drop = () => this.forget(origin, session);
      session.on('close', drop);
      session.on('goaway', drop);
      session.on('error', drop);
      session.setTimeout(IDLE_MS, () => session.close());
    });
  }

  private forget(origin: string, session: ClientHttp2Session): void {
    if (this.open.get(origin) === session) this.open.delete(origin);
  }
}
