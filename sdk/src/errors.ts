/** A refusal of the guest API (its `application/problem+json`), or an upload the store refused. */
export class GuestApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    /** The bad fields, by path (`errors[].field`). */
    readonly fields: string[] = [],
  ) {
    super(detail);
    this.name = 'GuestApiError';
  }

  static fromProblem(status: number, problem: unknown): GuestApiError {
    const p = (problem ?? {}) as { code?: unknown; detail?: unknown; title?: unknown; errors?: unknown };
    const fields = Array.isArray(p.errors) ? p.errors.map((e: { field?: unknown }) => String(e?.field ?? '')).filter(Boolean) : [];
    const detail = typeof p.detail === 'string' ? p.detail : typeof p.title === 'string' ? p.title : `The service answered ${status}.`;
    return new GuestApiError(status, typeof p.code === 'string' ? p.code : 'unknown', detail, fields);
  }

  static async of(response: Response): Promise<GuestApiError> {
    const problem = await response.json().catch(() => undefined);
    return GuestApiError.fromProblem(response.status, problem);
  }
}

/** The answer's data, or its refusal thrown as a GuestApiError. */
export function must<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) throw GuestApiError.fromProblem(result.response.status, result.error);
  return result.data as T;
}
