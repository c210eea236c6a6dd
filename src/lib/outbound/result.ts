// What a post reports: the receiver's status and the time it took, or why there was none.
// Never the response body.

export type FailureKind =
  /** Not https, credentials in it, unreadable: nothing was looked up. */
  | 'refused_url'
  /** The host is, or resolves to, an address posts may not reach (any one of its addresses). */
  | 'refused_address'
  /** The host name has no address. */
  | 'dns'
  /** No TCP connection, or it was reset before an answer. */
  | 'connect'
  /** The TLS handshake failed (certificate not trusted, wrong name, expired, protocol). */
  | 'tls'
  /** No response headers within the time limit. */
  | 'timeout'
  /** The receiver answered 3xx; redirects are never followed. */
  | 'redirect'
  /** The receiver's answer was not readable HTTP. */
  | 'protocol';

/** The receiver answered (any status but 3xx): the caller decides what the status means. */
export interface Answered {
  status: number;
  /** From the call to the response headers, whole milliseconds. */
  ms: number;
  /** The answer's Retry-After, as a wait in ms, when it gave one. */
  retryAfterMs?: number;
  failure?: never;
}

export interface Failed {
  failure: FailureKind;
  /** One line for the delivery log; no secret and no response body in it. */
  detail: string;
  ms: number;
  /** The 3xx a `redirect` failure answered with. */
  status?: number;
}

export type PostResult = Answered | Failed;

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|ERR_OSSL_|HOSTNAME_MISMATCH)/;

/** The kind of a socket, TLS or HTTP error from https.request. */
export function kindOfError(err: unknown): { failure: FailureKind; detail: string } {
  // With several addresses Node tries each and reports all of them at once.
  const inner = err instanceof AggregateError && err.errors.length ? err.errors[err.errors.length - 1] : err;
  const code = String((inner as { code?: unknown })?.code ?? '');
  const message = inner instanceof Error ? inner.message : String(inner);
  const detail = code && !message.includes(code) ? `${code}: ${message}` : message;
  if (TLS_CODES.test(code) || /certificate|\bssl\b|\btls\b/i.test(message)) return { failure: 'tls', detail };
  if (code.startsWith('HPE_')) return { failure: 'protocol', detail };
  return { failure: 'connect', detail };
}
