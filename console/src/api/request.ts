import type { TypedDocumentString } from '../generated/graphql';
import { readSession } from './session';

// Queries and mutations: one POST to /graphql on this origin with the session's Bearer token.

export interface FieldError {
  field: string;
  detail?: string;
}

/** A refusal as the API words it: its detail, code, the fields it names and whatever else its extensions carry. */
export class Refusal extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly fields: FieldError[] = [],
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** What went wrong, in words to show: the service's refusal, or the error as it is. */
export const messageOf = (err: unknown) => (err instanceof Refusal ? err.message : String(err));

interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; errors?: FieldError[]; [more: string]: unknown } }[];
}

/** Called when the session is refused (signed out elsewhere, expired). */
let onUnauthenticated: () => void = () => {};
export const whenUnauthenticated = (f: () => void) => (onUnauthenticated = f);

export async function request<T, V>(document: TypedDocumentString<T, V>, variables: V): Promise<T> {
  const token = readSession()?.token;
  let response: Response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/graphql-response+json, application/json',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query: document.toString(), variables }),
    });
  } catch {
    throw new Refusal('The service cannot be reached. Check the connection and try again.', 'network');
  }
  const body = (await response.json().catch(() => ({}))) as GraphQLResponse<T>;
  const error = body.errors?.[0];
  if (error) {
    const code = error.extensions?.code ?? 'error';
    if (code === 'unauthenticated') onUnauthenticated();
    throw new Refusal(error.message, code, error.extensions?.errors ?? [], error.extensions ?? {});
  }
  if (!body.data) throw new Refusal(`The service answered ${response.status} without data.`, 'error');
  return body.data;
}
