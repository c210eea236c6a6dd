// A database connection cut while a request used it (a restart, a failover, an operator's
// pg_terminate_backend). Its transaction was rolled back by PostgreSQL, so nothing was half done;
// the pool drops the connection and the next query gets a fresh one. A pool already closed (a
// process shutting down) is the database's absence too: nothing was done.

const LOST_CODES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE']);
const LOST_TEXT =
  /connection terminated|terminating connection|connection error|server closed the connection|Connection ended|ECONNRESET|EPIPE|Cannot use a pool after calling end/i;

interface DriverError {
  code?: unknown;
  originalCode?: unknown;
  meta?: { code?: unknown };
  message?: unknown;
  cause?: unknown;
}

/** An error and the causes it wraps (the driver's, Prisma's adapter's), at most 8 deep. */
function* causes(err: unknown): Generator<DriverError> {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 8; depth++) {
    yield e as DriverError;
    e = (e as DriverError).cause;
  }
}

export function isConnectionLost(err: unknown): boolean {
  for (const { code, originalCode, message } of causes(err)) {
    if (LOST_CODES.has(String(code)) || LOST_CODES.has(String(originalCode))) return true;
    if (typeof message === 'string' && LOST_TEXT.test(message)) return true;
  }
  return false;
}

/** A statement PostgreSQL stopped at statement_timeout (57014), however the driver wrapped it. */
export function isStatementTimeout(err: unknown): boolean {
  for (const { code, originalCode, meta } of causes(err)) if ([code, originalCode, meta?.code].includes('57014')) return true;
  return false;
}
