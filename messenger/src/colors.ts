/** Black or white, whichever reads better on `color` (#rrggbb): WCAG's relative luminance. */
export function readableOn(color: string): string {
  const m = /^#([0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return '#ffffff';
  const channel = (i: number) => {
    const c = parseInt(m[1]!.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  // White's contrast is 1.05 / (L + 0.05), black's (L + 0.05) / 0.05: white wins below L ≈ 0.179.
  return luminance > 0.179 ? '#000000' : '#ffffff';
}
