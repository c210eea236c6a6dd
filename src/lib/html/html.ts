// HTML made by construction: text put into the `html` template is escaped, whatever it holds;
// only Html values (what the template itself made, or `trusted` text the code wrote) pass as
// markup. So a page can only carry markup that the service's own code wrote.

export class Html {
  /** Made by this module only (`html`, `trusted`): no other code can call this constructor. */
  private constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

const make = (markup: string): Html => new (Html as unknown as new (markup: string) => Html)(markup);

/** What may be put into a template: text (escaped), numbers, Html, lists of them, or nothing (false, null, undefined). */
export type Part = string | number | Html | null | undefined | false | readonly Part[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or an attribute value (quoted): every character that means something is escaped. */
export const escapeText = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.markup;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeText(String(part));
}

/** The template: `html\`<p class="${cls}">${words}</p>\``. Attribute values must be quoted in the template. */
export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  let out = strings[0]!;
  for (const [i, part] of parts.entries()) out += render(part) + strings[i + 1]!;
  return make(out);
}

/** Markup the code itself wrote, as a constant (a stylesheet, an icon): never text from outside. */
export const trusted = (markup: string): Html => make(markup);

/**
 * An address fit for href or src: http(s) addresses and paths on this site; anything else
 * (javascript:, data:, a protocol-relative //host) becomes undefined, to be left out.
 */
export function safeUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  if (url.startsWith('/')) return url.startsWith('//') || url.startsWith('/\\') ? undefined : url;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
