import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../config.js';

// What Node's HTTP server decides before any middleware runs: how long a client may take, and
// the refusals it answers itself (headers too large, a request line it cannot read, too slow),
// which go out as problem documents like every other refusal.

export function createHttpServer(timeouts: Config['timeouts']): http.Server {
  const server = http.createServer({
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    // How often Node looks for requests past those times (its default, 30 s, would let a slow
    // client hold a connection up to 30 s past them).
    connectionsCheckingInterval: Math.min(1000, timeouts.headersMs / 4),
  });
  // Between requests a kept-alive connection is closed after the keep-alive timeout, and any
  // connection with nothing moving after the idle timeout. Upgraded (WebSocket) sockets leave this timer behind.
  // A connection that never sends a byte is held to the headers timeout (Node counts it from the
  // connection's start) and refused below like a slow request.
  server.timeout = timeouts.idleMs;
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const [status, code, title, detail] = refusalOf(err.code);
    const requestId = randomUUID();
    const body = JSON.stringify({ type: 'about:blank', status, code, title, detail, request_id: requestId });
    // Closed for good once the refusal is out: Node's sockets allow half-open connections, and a
    // client that never closes its side would otherwise keep the connection until the idle timeout.
    socket.end(
      `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      () => socket.destroy(),
    );
  });
  return server;
}

function refusalOf(code: string | undefined): [number, string, string, string] {
  if (code === 'HPE_HEADER_OVERFLOW')
    return [431, 'headers_too_large', 'Request Header Fields Too Large', 'The request headers are larger than this server reads.'];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return [408, 'request_timeout', 'Request Timeout', 'The request was not received in time; send it again, whole.'];
  return [400, 'malformed_request', 'Bad Request', 'The request could not be read as HTTP/1.1.'];
}
