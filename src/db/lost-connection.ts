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

/** The database could not be reached at all (nothing listens, or it is starting or shutting down), rather than a connection cut. */
export function isConnectionRefused(err: unknown): boolean {
  for (const { code, originalCode } of causes(err))
    if (REFUSED_CODES.has(String(code)) || REFUSED_CODES.has(String(originalCode))) return true;
  return false;
}
const REFUSED_CODES = new Set(['ECONNREFUSED', '57P03', '08001', '08004']);

/** A statement PostgreSQL stopped at statement_timeout (57014), however the driver wrapped it. */
export function isStatementTimeout(err: unknown): boolean {
  for (const { code, originalCode, meta } of causes(err)) if ([code, originalCode, meta?.code].includes('57014')) return true;
  return false;
}

/** The pauses before doing a write again after its connection was cut: about 4 s in all. */
const AGAIN_AFTER_CUT_MS = [100, 250, 500, 1_000, 2_000];

/**
 * A write that must not be lost to a cut connection (its work was done already: a post made, an
 * activity's result): done again after a pause while its connection is lost, a few times over about
 * 4 s, `again` telling each try after the first; any other error, or `stop()` saying so, ends it.
 */
export async function throughCuts<T>(write: (again: boolean) => Promise<T>, stop: () => boolean = () => false): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await write(retry > 0);
    } catch (err) {
      const wait = AGAIN_AFTER_CUT_MS[retry];
      if (wait === undefined || !isConnectionLost(err) || stop()) throw err;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
