/** The service's words for a refusal (its problem's `detail`), or `fallback` when it gave none. */
export function refusal(error: unknown, fallback: string): string {
  const detail = (error as { detail?: unknown } | undefined)?.detail;
  return typeof detail === 'string' ? detail : fallback;
}
