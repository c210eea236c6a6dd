// Tracked links of an email: each http(s) link the author wrote is kept as written, byte for byte,
// in the email's own version, and the email carries the click route in its place; a click is
// answered with a redirect to it. Peers broke links holding `[ ]`, non-ASCII characters, `%`
// escapes, `&` and fragments by decoding, re-encoding or parsing them on the way; here the link is
// never rebuilt: the redirect's Location is the written text itself whenever a header can carry it
// (printable ASCII, no space), and otherwise (non-ASCII characters, spaces) the address a browser
// itself makes of the written text when it follows it, so the reader lands where the author
// pointed either way. Other links (mailto:, tel:) are left as written, untracked.

/** A header value carries printable ASCII only. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/** Whether a link is tracked: an absolute http or https address. */
export function tracked(link: string): boolean {
  if (!/^https?:\/\//i.test(link)) return false;
  return URL.canParse(link);
}

/** The Location of a click on a tracked link: the link as written, or as a browser reads it when a header cannot carry it. */
export function clickLocation(link: string): string {
  return HEADER_SAFE.test(link) ? link : new URL(link).href;
}
