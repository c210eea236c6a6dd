/** The service's words for a refusal (its problem's `detail`, or the SDK's GuestApiError's message), or `fallback` when it gave none. */
export function refusal(error: unknown, fallback: string): string {
  // The SDK's class is the first script's copy, not this chunk's: known by its name.
  if (error instanceof Error && error.name === 'GuestApiError') return error.message;
  const detail = (error as { detail?: unknown } | undefined)?.detail;
  return typeof detail === 'string' ? detail : fallback;
}
