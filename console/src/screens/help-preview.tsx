import { useEffect, useRef } from 'preact/hooks';
import { wordsFor } from '../../../rest-facade/pages/help-words';
import { outlined, renderBlocks } from '../../../src/lib/html/blocks';
import { brandVariables, pageColor } from '../../../src/lib/html/colors';
import { html } from '../../../src/lib/html/html';
import { STYLES } from '../../../src/lib/html/styles';
import type { Block } from './help-content';

// The article as the public help site shows it: the site's own block renderer (escaping by
// construction), its stylesheet and the app's brand colours, drawn in a shadow root so neither the
// console's styles nor the site's leak into the other. The stylesheet is a constructed one, which
// the console's policy (no inline style) allows.

const sheets = new Map<string, CSSStyleSheet>();
function sheetFor(color: string): CSSStyleSheet {
  let sheet = sheets.get(color);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    // The site styles its body; here the host stands for it.
    sheet.replaceSync(
      `:host{display:block;${brandVariables(color)}}\n.page{font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif;color:#1f2937;background:#f6f7f9;min-height:100%}\n${STYLES}`,
    );
    sheets.set(color, sheet);
  }
  return sheet;
}

export interface PreviewProps {
  title: string;
  summary: string;
  blocks: Block[];
  language: string;
  brandName: string;
  brandColor: string;
}

export function HelpPreview(props: PreviewProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const root = el.shadowRoot ?? el.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [sheetFor(pageColor(props.brandColor))];
    const words = wordsFor(props.language);
    const dateFormat = new Intl.DateTimeFormat(props.language, { dateStyle: 'long', timeZone: 'UTC' });
    // The article page's markup (rest-facade/pages/help-pages.ts articlePage), without the
    // landmarks, search box and vote form, which belong to the page rather than the article.
    root.innerHTML = html`<div class="page">
      <div class="site-header">
        <div class="wrap header-row">
          <span class="brand"
            ><span class="logo-letter" aria-hidden="true">${[...props.brandName][0] ?? '?'}</span><span class="brand-name">${props.brandName}</span
            ><span class="site-name">${words.helpCenter}</span></span
          >
        </div>
      </div>
      <div class="content">
        <div class="wrap">
          <article class="panel" lang="${props.language}">
            <h1 class="page-title">${props.title}</h1>
            ${props.summary ? html`<p class="lead">${props.summary}</p>` : null}
            <p class="meta">${words.updated} ${dateFormat.format(new Date())}</p>
            <div class="article">${renderBlocks(outlined(props.blocks), { firstHeading: 2 })}</div>
          </article>
        </div>
      </div>
    </div>`.markup;
  });
  return <div class="help-preview-host" ref={host} />;
}
