/**
 * The service's words for a refusal (its problem's `detail`, or the message of the SDK's GuestApiError, made from
 * that detail), or `fallback` when it gave none.
 */
export function refusal(error: unknown, fallback: string): string {
  const problem = error as { detail?: unknown; name?: unknown; message?: unknown } | undefined;
  if (typeof problem?.detail === 'string') return problem.detail;
  // Thrown by the first script's SDK: another bundle's class, so known by its name rather than instanceof.
  if (problem?.name === 'GuestApiError' && typeof problem.message === 'string') return problem.message;
  return fallback;
}
