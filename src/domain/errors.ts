import { isConnectionLost } from '../db/lost-connection.js';

// Typed domain refusals. Routes turn them into application/problem+json; GraphQL into errors
// with the same `code` in their extensions. Never HTTP objects.

export interface FieldError {
  /** Path of the bad member, such as `attributes.plan` or `events.3.name`. */
  field: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    detail: string,
    readonly errors: FieldError[] = [],
    readonly headers: Record<string, string> = {},
    /** What the client needs to act on the refusal, beside its fields (GraphQL carries it in the error's extensions). */
    readonly data: Record<string, unknown> = {},
  ) {
    super(detail);
  }
  get detail(): string {
    return this.message;
  }
}

export const invalid = (errors: FieldError[], detail = errors.map((e) => `${e.field}: ${e.message}`).join('; ')) =>
  new DomainError(400, 'invalid_request', 'The request has invalid fields', detail, errors);

export const invalidField = (field: string, message: string) => invalid([{ field, message }]);

export const unauthorized = (detail: string) => new DomainError(401, 'unauthorized', 'Not signed in', detail);

export const tokenExpired = () =>
  new DomainError(401, 'token_expired', 'The user token has expired', 'Fetch a new user token from your backend and try again.');

export const forbidden = (code: string, detail: string) => new DomainError(403, code, 'Refused', detail);

export const notFound = (detail = 'Nothing is here.') => new DomainError(404, 'not_found', 'Not found', detail);

export const conflict = (code: string, detail: string) => new DomainError(409, code, 'Refused as things stand', detail);

export const tooManyRequests = (retryAfter: number) =>
  new DomainError(429, 'rate_limited', 'Too many requests', `Wait ${retryAfter} seconds before trying again.`, [], {
    'Retry-After': String(retryAfter),
  });

/** 503 for what this deployment has not set up (spec, Errors: inbound hooks and sign-up). */
export const notSetUp = (detail: string) => new DomainError(503, 'not_set_up', 'Not set up here yet', detail);

/** How long a client waits before sending again what the database's absence refused. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

export const unavailable = () =>
  new DomainError(503, 'unavailable', 'Try again', 'The database connection was lost; nothing was done. Send the request again.', [], {
    'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
  });

/**
 * The refusal every surface answers for a failure that is the database's absence rather than a
 * fault (src/db/lost-connection.ts): 503 `unavailable` with Retry-After. Undefined for anything else.
 */
export const unavailableRefusal = (thrown: unknown): DomainError | undefined => (isConnectionLost(thrown) ? unavailable() : undefined);
