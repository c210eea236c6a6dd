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
