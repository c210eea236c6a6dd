// Whether an open or a click was a machine's: mail scanners follow every link of an email as it
// arrives, and image proxies fetch the open pixel at delivery, which peers counted as people. The
// rule is decided at the request and only its answer is kept (never the address or user agent):
//
// - a request whose User-Agent names a robot, a scanner, a link previewer, a prefetcher or an HTTP
//   library (MACHINE_AGENTS), or that has none;
// - a HEAD request (scanners check where a link leads without fetching it);
// - within MACHINE_SECONDS of the email being sent (no person opens and clicks that fast; a scanner
//   at the receiving server does);
// - a click on a link less than BURST_SECONDS after a click on another link of the same email (a
//   scanner following them all; a person reads between two).
//
// A click the app reports itself (POST /email/c/{token}) is a person's. Statistics show people's
// and machines' counts apart, so a rule that misjudges is seen, never hidden.

export const MACHINE_SECONDS = 10;
export const BURST_SECONDS = 2;

/** User agents that are no person reading: robots, scanners, previewers, prefetchers, libraries. */
const MACHINE_AGENTS =
  /bot\b|bot\/|crawl|spider|scan|preview|prefetch|proofpoint|mimecast|barracuda|symantec|forcepoint|sophos|trendmicro|fireeye|ironport|safelinks|microsoft office existence|ms-office|python|curl\/|wget|go-http|java\/|okhttp|axios|node-fetch|undici|libwww|httpclient|headless|phantomjs|slurp|facebookexternalhit|whatsapp|slackbot|discordbot|telegrambot|linkedinbot|skypeuripreview/i;

export interface Visit {
  method: string;
  userAgent: string | undefined;
  /** When the email was sent. */
  sentAt: Date;
  now: Date;
  /** Clicks: when another link of the same email was last clicked, if ever. */
  otherClickAt?: Date | null;
}

export function byMachine(visit: Visit): boolean {
  const agent = visit.userAgent?.trim() ?? '';
  if (agent === '' || MACHINE_AGENTS.test(agent)) return true;
  if (visit.method.toUpperCase() === 'HEAD') return true;
  if (visit.now.getTime() - visit.sentAt.getTime() < MACHINE_SECONDS * 1000) return true;
  if (visit.otherClickAt && Math.abs(visit.now.getTime() - visit.otherClickAt.getTime()) < BURST_SECONDS * 1000) return true;
  return false;
}
