// Web origins as the browser writes them: scheme, host, and a port only when not the usual one.
// https only, except http://localhost on any port while developing. No path, no wildcard.

export const MAX_WEB_ORIGINS = 20;

/** The origin, or a sentence saying what is wrong with it. */
export function checkOrigin(text: string): { origin: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: `"${text}" is not an origin such as https://example.com` };
  }
  if (url.protocol === 'http:' && url.hostname !== 'localhost')
    return { problem: `"${text}" must use https (http is allowed only for localhost)` };
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: `"${text}" must use https` };
  if (url.username || url.password || url.search || url.hash || !['', '/'].includes(url.pathname) || text.endsWith('/'))
    return { problem: `"${text}" must be an origin only, with no path, query or credentials` };
  if (url.hostname.includes('*')) return { problem: `"${text}": wildcards are not allowed; list each origin` };
  if (url.origin !== text) return { problem: `"${text}" must be written as the browser shows it: ${url.origin}` };
  return { origin: url.origin };
}

/** Checks a whole list; duplicates are folded. Returns the list or the problems by index. */
export function checkOrigins(list: string[]): { origins: string[] } | { problems: { index: number; problem: string }[] } {
  const problems: { index: number; problem: string }[] = [];
  const origins: string[] = [];
  list.forEach((text, index) => {
    const r = checkOrigin(text.trim());
    if ('problem' in r) problems.push({ index, problem: r.problem });
    else if (!origins.includes(r.origin)) origins.push(r.origin);
  });
  if (!problems.length && origins.length > MAX_WEB_ORIGINS)
    problems.push({ index: MAX_WEB_ORIGINS, problem: `at most ${MAX_WEB_ORIGINS} web origins per mode` });
  return problems.length ? { problems } : { origins };
}
