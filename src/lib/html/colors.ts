// The brand's colour and the text that reads on it (WCAG 2 contrast), for the server's pages and
// the console's preview of them: no Node module, so it runs in a browser too.

/** WCAG's least contrast for body text (1.4.3, AA). */
export const READABLE = 4.5;

/** WCAG 2 relative luminance of #rrggbb. */
export function luminance(color: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(color.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG 2 contrast ratio of two #rrggbb colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * Text that reads on the colour: white, else near-black, else black, the first with a contrast of
 * at least READABLE (black always reaches it where white does not: one of them is above 4.58:1).
 */
export function textOn(color: string): string {
  return ['#ffffff', '#111827'].find((text) => contrast(text, color) >= READABLE) ?? '#000000';
}

/** Light backgrounds the brand's colour is written on as text (links): the page, panels, callouts. */
export const LIGHT_BACKGROUNDS = ['#ffffff', '#f6f7f9', '#f8fafc', '#f3f6ff'];

/** The brand's colour as text on the light backgrounds: itself when it reads there, else darkened just enough. */
export function inkOf(color: string): string {
  const hex = (n: number) => Math.round(n).toString(16).padStart(2, '0');
  const rgb = [0, 1, 2].map((i) => Number.parseInt(color.slice(1 + 2 * i, 3 + 2 * i), 16));
  for (let keep = 1; keep > 0; keep -= 0.02) {
    const ink = `#${rgb.map((c) => hex(c * keep)).join('')}`;
    if (LIGHT_BACKGROUNDS.every((bg) => contrast(ink, bg) >= READABLE)) return ink;
  }
  return '#000000';
}

const DEFAULT_COLOR = '#3b5bdb';

/** The brand's colour as pages use it: #rrggbb in lower case, or the default for anything else. */
export const pageColor = (color: string): string => (/^#[0-9a-fA-F]{6}$/.test(color) ? color.toLowerCase() : DEFAULT_COLOR);

/** The stylesheet's variables for a page colour: the brand, the text on it, and the brand as text on light backgrounds. */
export const brandVariables = (color: string): string => `--brand:${color};--on-brand:${textOn(color)};--brand-ink:${inkOf(color)}`;
