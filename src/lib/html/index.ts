// Server-rendered pages (help site, unsubscribe, preference centre): escaping by construction,
// the app's brand, no JavaScript.
export { escapeText, html, safeUrl, trusted, Html, type Part } from './html.js';
export { renderBlocks, renderSpans, type BlockLike, type SpanLike } from './blocks.js';
export { contrast, inkOf, READABLE, textOn } from './colors.js';
export { renderPage, type Brand, type PageInput, type RenderedPage } from './page.js';
export { outlined } from './blocks.js';
