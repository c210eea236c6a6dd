import mjml2html from 'mjml';
import { describe, expect, it } from 'vitest';
import type { DomainError } from '../errors.js';
import { emailDocument, MAX_TRACKED_LINKS, personalise, renderEmail, type RenderInput } from './render.js';

// The email renderer: every block type in the HTML (through MJML) and in the text part, each link
// put in a placeholder in order and kept byte for byte, the per-person substitution, the footer of
// topic mail and none for transactional mail, and hostile text escaped.

const brand = { name: 'Garden & Co', color: '#2f9e44', logoUrl: null };
const base: RenderInput = {
  subject: 'Spring news',
  preheader: 'What grows in April',
  blocks: [],
  brand,
  language: 'en',
  topic: { name: 'Garden news' },
};
const para = (...spans: object[]) => ({ type: 'paragraph', spans });

describe('renderEmail', () => {
  it('renders each block type, in MJML that validates strictly', async () => {
    const input: RenderInput = {
      ...base,
      blocks: [
        { type: 'heading', level: 1, spans: [{ text: 'Big title' }] },
        { type: 'heading', level: 2, spans: [{ text: 'Middle title' }] },
        { type: 'heading', level: 3, spans: [{ text: 'Small title' }] },
        para({ text: 'Plain, ' }, { text: 'bold', bold: true }, { text: 'italic', italic: true }, { text: 'marked', highlight: true }),
        { type: 'list', items: [{ spans: [{ text: 'Seeds' }] }, { spans: [{ text: 'Soil' }] }] },
        { type: 'numbered_list', items: [{ spans: [{ text: 'Dig' }] }, { spans: [{ text: 'Sow' }] }] },
        { type: 'image', imageUrl: 'https://cdn.example.com/tulips.jpg', alt: 'Red tulips' },
        { type: 'callout', spans: [{ text: 'Mind the late frost.' }] },
        { type: 'link', label: 'Visit the shop', link: 'https://shop.example.com/' },
      ],
    };
    const { errors } = await mjml2html(emailDocument(input).mjml, { validationLevel: 'strict', fonts: {} });
    expect(errors).toEqual([]);

    const { html, text, links } = await renderEmail(input);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<html lang="en"');
    expect(html).toMatch(/<h1 style="[^"]*">Big title<\/h1>/);
    expect(html).toMatch(/<h2 style="[^"]*">Middle title<\/h2>/);
    expect(html).toMatch(/<h3 style="[^"]*">Small title<\/h3>/);
    expect(html).toContain('Plain, <strong>bold</strong><em>italic</em><mark');
    expect(html).toMatch(/<ul [^>]*><li [^>]*>Seeds<\/li><li [^>]*>Soil<\/li><\/ul>/);
    expect(html).toMatch(/<ol [^>]*><li [^>]*>Dig<\/li><li [^>]*>Sow<\/li><\/ol>/);
    expect(html).toMatch(/<img[^>]*alt="Red tulips"[^>]*src="https:\/\/cdn\.example\.com\/tulips\.jpg"/);
    expect(html).toMatch(/<div style="background-color:#f3f6ff;border-left:4px solid #2f9e44;[^"]*">Mind the late frost\.<\/div>/);
    expect(html).toMatch(/<a\s+href="&crm-link-0;"[^>]*>\s*Visit the shop\s*<\/a>/);
    // The open pixel, the preview text, and no web font fetched on open.
    expect(html).toContain('<img src="&crm-open;" width="1" height="1" alt=""');
    expect(html).toMatch(/<div style="display:none;[^"]*">What grows in April/);
    expect(html).not.toContain('fonts.googleapis.com');
    expect(links).toEqual(['https://shop.example.com/']);
    expect(text).toBe(
      [
        'Big title\n=========',
        'Middle title\n------------',
        'Small title',
        'Plain, bolditalicmarked',
        '- Seeds\n- Soil',
        '1. Dig\n2. Sow',
        '[Red tulips]',
        '| Mind the late frost.',
        'Visit the shop: &crm-link-0;',
        '--\nYou get this email because you are subscribed to Garden news from Garden & Co.\n' +
          'Unsubscribe: &crm-unsubscribe;\nManage all your email preferences: &crm-preferences;',
      ].join('\n\n') + '\n',
    );
  });

  it('puts every http(s) link in a placeholder in order of appearance, each kept byte for byte', async () => {
    const written = [
      'https://example.com/a?x=1&y=2#part',
      'https://example.com/[brackets]/%E2%82%AC?q=%2F',
      'https://例え.jp/ünïcödé?q=a b',
      'http://example.com/plain',
      'https://example.com/a?x=1&y=2#part',
    ];
    const { html, text, links } = await renderEmail({
      ...base,
      blocks: [
        para({ text: 'First', link: written[0] }, { text: ' and ' }, { text: 'second', link: written[1] }),
        { type: 'list', items: [{ spans: [{ text: written[2]!, link: written[2] }] }] },
        { type: 'link', label: 'Plain', link: written[3] },
        para({ text: 'Again', link: written[4] }, { text: ' or write to ' }, { text: 'us', link: 'mailto:us@example.com' }),
      ],
    });
    // The same address twice: two links, each with its own index.
    expect(links).toEqual(written);
    expect([...html.matchAll(/&crm-link-(\d+);/g)].map((m) => Number(m[1]))).toEqual([0, 1, 2, 3, 4]);
    expect([...text.matchAll(/&crm-link-(\d+);/g)].map((m) => Number(m[1]))).toEqual([0, 1, 2, 3, 4]);
    // No address of the author's is an href: every link leads through its placeholder.
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs.filter((h) => !/^&crm-(link-\d+|unsubscribe|preferences);$/.test(h!))).toEqual(['mailto:us@example.com']);
    // mailto: is left as written, untracked.
    expect(html).toContain('href="mailto:us@example.com"');
    expect(text).toContain('First (&crm-link-0;) and second (&crm-link-1;)');
    // A link whose words are the address shows the address once.
    expect(text).toContain('- &crm-link-2;');
    expect(text).toContain('Again (&crm-link-4;) or write to us (mailto:us@example.com)');
  });

  it('has no unsubscribe footer for transactional mail', async () => {
    const { html, text } = await renderEmail({ ...base, topic: null, blocks: [para({ text: 'Your receipt.' })] });
    for (const part of [html, text]) {
      expect(part).not.toContain('&crm-unsubscribe;');
      expect(part).not.toContain('&crm-preferences;');
      expect(part).not.toContain('Unsubscribe');
      expect(part).not.toContain('subscribed to');
    }
    expect(text).toBe('Your receipt.\n');
    expect(html).toContain('&crm-open;');
  });

  it("writes the footer in the email's language", async () => {
    const { html, text } = await renderEmail({ ...base, language: 'de', blocks: [para({ text: 'Hallo.' })] });
    expect(html).toContain('<html lang="de"');
    expect(html).toContain('Sie erhalten diese E-Mail, weil Sie Garden news von Garden &amp; Co abonniert haben.');
    expect(html).toMatch(/<a href="&crm-unsubscribe;"[^>]*>Abmelden<\/a>/);
    expect(html).toMatch(/<a href="&crm-preferences;"[^>]*>Alle E-Mail-Einstellungen verwalten<\/a>/);
    expect(text).toContain('Abmelden: &crm-unsubscribe;');
    expect((await renderEmail({ ...base, language: 'pt-BR' })).text).toContain('Unsubscribe: &crm-unsubscribe;');
  });

  it('shows the logo when it is https, else the brand name', async () => {
    const withLogo = await renderEmail({ ...base, brand: { ...brand, logoUrl: 'https://cdn.example.com/logo.png?v=1&s=2' } });
    expect(withLogo.html).toMatch(/<img[^>]*alt="Garden &amp; Co"[^>]*src="https:\/\/cdn\.example\.com\/logo\.png\?v=1&amp;s=2"/);
    const withoutLogo = await renderEmail({ ...base, brand: { ...brand, logoUrl: 'http://cdn.example.com/logo.png' } });
    expect(withoutLogo.html).not.toContain('logo.png');
    expect(withoutLogo.html).toContain('>Garden &amp; Co</div>');
  });

  it('escapes hostile text everywhere', async () => {
    const hostile = `<script>alert("x")</script> ' " &amp; &crm-open;`;
    const { html, text, links } = await renderEmail({
      subject: hostile,
      preheader: hostile,
      blocks: [
        { type: 'heading', level: 1, spans: [{ text: hostile }] },
        para({ text: hostile, link: 'https://example.com/"><script>alert(1)</script>' }),
        { type: 'image', imageUrl: 'https://example.com/x.png?a="b"', alt: hostile },
        { type: 'link', label: hostile, link: 'javascript:alert(1)' },
        { type: 'image', imageUrl: 'http://example.com/not-https.png', alt: 'left out' },
      ],
      brand: { name: hostile, color: '"><script>', logoUrl: null },
      language: '"><script>',
      topic: { name: hostile },
    });
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('not-https.png');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &#39; &quot; &amp;amp; &amp;crm-open;');
    expect(html).toContain('<title>&lt;script&gt;');
    expect(html).toContain('src="https://example.com/x.png?a=&quot;b&quot;"');
    // The only placeholders are the service's own: the author's "&crm-open;" is text.
    expect([...html.matchAll(/&crm-[a-z0-9-]+;/g)].map((m) => m[0]).sort()).toEqual(
      ['&crm-link-0;', '&crm-open;', '&crm-preferences;', '&crm-unsubscribe;'].sort(),
    );
    expect(links).toEqual(['https://example.com/"><script>alert(1)</script>']);
    const filled = personalise({ html, text }, { links: ['L'], open: 'O', unsubscribe: 'U', preferences: 'P' });
    expect(filled.html).toContain('&amp;crm-open;');
    expect(filled.text).toContain(`${hostile} (L)`);
    expect(filled.text).not.toContain('&crm-amp;');
  });

  it(`refuses more than ${MAX_TRACKED_LINKS} links, naming blocks`, async () => {
    const blocks = (n: number) => [
      para(...Array.from({ length: n }, (_, i) => ({ text: `link ${i} `, link: `https://example.com/${i}` }))),
    ];
    expect((await renderEmail({ ...base, blocks: blocks(MAX_TRACKED_LINKS) })).links).toHaveLength(MAX_TRACKED_LINKS);
    const err = (await renderEmail({ ...base, blocks: blocks(MAX_TRACKED_LINKS + 1) }).catch((e: unknown) => e)) as DomainError;
    expect(err).toMatchObject({ status: 400, errors: [{ field: 'blocks' }] });
    expect(err.errors[0]!.message).toContain(`at most ${MAX_TRACKED_LINKS} links`);
  });
});

describe('personalise', () => {
  it("puts the person's addresses in, escaped for the HTML's attributes and as they are in the text", async () => {
    const rendered = await renderEmail({
      ...base,
      blocks: [para({ text: 'One', link: 'https://example.com/1' }), { type: 'link', label: 'Two', link: 'https://example.com/2' }],
    });
    const at = {
      links: ['https://crm.example.com/c/aaa?x=1&y=2', 'https://crm.example.com/c/bbb"'],
      open: 'https://crm.example.com/o/ooo?a&b',
      unsubscribe: 'https://crm.example.com/u/uuu',
      preferences: 'https://crm.example.com/p/ppp<',
    };
    const { html, text } = personalise(rendered, at);
    expect(html).not.toMatch(/&crm-/);
    expect(text).not.toMatch(/&crm-/);
    expect(html).toContain('href="https://crm.example.com/c/aaa?x=1&amp;y=2"');
    expect(html).toContain('href="https://crm.example.com/c/bbb&quot;"');
    expect(html).toContain('<img src="https://crm.example.com/o/ooo?a&amp;b"');
    expect(html).toContain('href="https://crm.example.com/u/uuu"');
    expect(html).toContain('href="https://crm.example.com/p/ppp&lt;"');
    expect(text).toContain('One (https://crm.example.com/c/aaa?x=1&y=2)');
    expect(text).toContain('Two: https://crm.example.com/c/bbb"');
    expect(text).toContain('Unsubscribe: https://crm.example.com/u/uuu\n');
    expect(text).toContain('Manage all your email preferences: https://crm.example.com/p/ppp<\n');
    // The rendered email is unchanged: the next person gets their own.
    expect(rendered.html).toContain('&crm-link-0;');
  });
});
