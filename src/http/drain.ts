import type http from 'node:http';
import net from 'node:net';
import type { Socket } from 'node:net';
import type { Logger } from '../lib/logger.js';

// Stopping an HTTP server without dropping what it took. Once the drain starts, no connection is
// taken; each kept-alive connection's next answer says `Connection: close` and ends it; a
// connection idle at the start is closed once a request already on its way would have arrived;
// requests in flight finish. Only what is still busy at the bound is cut. The drain resolves when
// no connection is left and every request handler has returned, so what the handlers use (the
// database pool) may be closed after it and never under them.

export interface DrainBounds {
  /** How long requests in flight get to finish before their connections are cut (ms). */
  graceMs: number;
  /**
   * How long after its last answer an idle kept-alive connection stays open once the drain starts
   * (ms): a request its client sent meanwhile is answered (with Connection: close) rather than
   * met by a closed connection.
   */
  lingerMs: number;
  /** After a cut, how long handlers still running get to return before the drain gives up on them (ms). */
  settleMs: number;
}

export const DRAIN_BOUNDS: DrainBounds = { graceMs: 10_000, lingerMs: 1000, settleMs: 2000 };

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;

interface Connection {
  /** Requests of this connection not yet answered in full. */
  busy: number;
  /** When its last answer ended (or it opened). */
  lastActive: number;
  linger?: NodeJS.Timeout;
}

export interface Drainer {
  /** The server's request handler, counted while it runs (its promise, when it returns one). */
  handle(handler: Handler): Handler;
  /** Starts the drain (once) and resolves when it is over. */
  drain(): Promise<void>;
}

export function drainable(server: http.Server, log: Logger, bounds: DrainBounds = DRAIN_BOUNDS): Drainer {
  const connections = new Map<Socket, Connection>();
  const answering = new Set<http.ServerResponse>();
  let handlers = 0;
  let draining: Promise<void> | undefined;
  /** Set as the drain begins, before its first await (when `draining` is not yet assigned). */
  let closing = false;
  let closingAnswers = 0;
  let lingered = 0;
  let settled: () => void = () => {};

  server.on('connection', (socket: Socket) => {
    const connection: Connection = { busy: 0, lastActive: Date.now() };
    connections.set(socket, connection);
    socket.once('close', () => {
      clearTimeout(connection.linger);
      connections.delete(socket);
      settle();
    });
  });

  /** Its next answer ends it; an idle one is closed once its linger is over. */
  function closeWhenIdle(socket: Socket, connection: Connection) {
    if (connection.busy > 0 || connection.linger) return;
    const wait = Math.max(0, connection.lastActive + bounds.lingerMs - Date.now());
    connection.linger = setTimeout(() => {
      connection.linger = undefined;
      if (connection.busy > 0) return;
      lingered++;
      // As Node closes an idle connection itself: at once, whether or not the client closes its side.
      socket.destroy();
    }, wait);
  }

  /** Before its headers go, an answer is made the connection's last. */
  function lastOnConnection(res: http.ServerResponse) {
    if (res.headersSent || !res.shouldKeepAlive) return;
    res.shouldKeepAlive = false;
    closingAnswers++;
  }

  function settle() {
    if (closing && connections.size === 0 && handlers === 0) settled();
  }

  return {
    handle(handler) {
      return (req, res) => {
        const socket = req.socket;
        const connection = connections.get(socket);
        if (connection) {
          connection.busy++;
          clearTimeout(connection.linger);
          connection.linger = undefined;
        }
        answering.add(res);
        if (closing) lastOnConnection(res);
        // ('close' comes once: `on` spares the wrapper `once` adds.)
        res.on('close', () => {
          answering.delete(res);
          if (!connection) return;
          connection.busy--;
          connection.lastActive = Date.now();
          // An answer whose headers went before the drain started kept its connection open.
          if (closing && !socket.destroyed) closeWhenIdle(socket, connection);
        });
        handlers++;
        const done = () => {
          handlers--;
          settle();
        };
        let result: unknown;
        try {
          result = handler(req, res);
        } catch (err) {
          done();
          throw err;
        }
        if (result instanceof Promise) result.then(done, done);
        else done();
      };
    },

    drain() {
      if (draining) return draining;
      const started = Date.now();
      const over = new Promise<void>((resolve) => (settled = resolve));
      closing = true;
      draining = (async () => {
        // No new connection. net's close, not http's: Node's http close would also destroy the
        // connections idle right now, meeting a request that is on its way with a reset.
        net.Server.prototype.close.call(server);
        log.info(
          { connections: connections.size, requests: answering.size, grace_ms: bounds.graceMs },
          'shutting down: no new connections; requests in flight finish, kept-alive connections close after their next answer',
        );
        for (const res of answering) lastOnConnection(res);
        for (const [socket, connection] of connections) closeWhenIdle(socket, connection);
        settle();
        let cut = 0;
        if (!(await within(over, bounds.graceMs))) {
          cut = connections.size;
          for (const socket of connections.keys()) socket.destroy();
          log.warn({ connections: cut, requests: handlers }, `shutting down: connections still busy after ${bounds.graceMs} ms were cut`);
          if (!(await within(over, bounds.settleMs)))
            log.warn({ requests: handlers }, `shutting down: requests still running ${bounds.settleMs} ms after the cut are left behind`);
        }
        // http's close now, for what it tidies (its timer of request timeouts); there is nothing left to close.
        await new Promise<void>((resolve) => server.close(() => resolve()));
        log.info(
          { ms: Date.now() - started, closing_answers: closingAnswers, idle_closed: lingered, cut },
          'shutting down: connections drained',
        );
      })();
      return draining;
    },
  };
}

/** Whether `done` settles within `ms`. */
async function within(done: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([done.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
