// Where a push's notification leads when clicked (the service worker part, messenger/src/sw.ts).

/** The address a link opens: a path of the site, or an https URL; anything else opens the site. */
export function linkTarget(link: unknown, origin: string): string {
  if (typeof link === 'string' && link) {
    try {
      const url = new URL(link, origin);
      if (url.protocol === 'https:' || url.origin === origin) return url.href;
    } catch {
      // not an address: the site's start
    }
  }
  return new URL('/', origin).href;
}
