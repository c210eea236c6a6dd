import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushViews } from '../src/domain/help/views.js';
import { staffApp, type StaffApp } from './support/factories.js';
import { guestReader, helpAuthor, publicReader } from './support/help.js';
import { startTestServer, type TestServer } from './support/server.js';

// Finding articles: the most read first without words; with words, PostgreSQL full-text search in
// each language's configuration, title above summary above body, the last word as a prefix, and a
// trigram fallback for misspelt words; the language served is said.

let t: TestServer;
let app: StaffApp;
let author: ReturnType<typeof helpAuthor>;
let reader: Awaited<ReturnType<typeof guestReader>>;

beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t, 'Search app');
  author = helpAuthor(t, app);
  await author.languages(['en', 'de', 'fr'], 'en');
  reader = await guestReader(t, app);
});
afterAll(async () => {
  await t?.close();
});

const slugs = (r: { json: { items: { slug: string }[] } }) => r.json.items.map((i) => i.slug);

describe('search', () => {
  it('ranks a title match above a body match, and marks the matched words in a plain-text excerpt', async () => {
    const inBody = await author.article({
      versions: {
        en: {
          title: 'Getting started',
          summary: 'First steps',
          body: 'Open the app. Your zeppelinic settings live under Profile. Zeppelinic choices are kept.',
        },
      },
    });
    const inTitle = await author.article({
      versions: { en: { title: 'Zeppelinic settings', summary: 'Where they are', body: 'Tap Profile, then Settings.' } },
    });
    const r = await reader.get('/articles?q=zeppelinic');
    expect(r.status).toBe(200);
    expect(r.json.matched_by).toBe('words');
    expect(slugs(r)).toEqual([inTitle.slug, inBody.slug]);
    const excerpt = r.json.items[1].excerpt as { text: string; highlight?: boolean }[];
    expect(excerpt.filter((s) => s.highlight).map((s) => s.text.toLowerCase())).toContain('zeppelinic');
    expect(excerpt.map((s) => s.text).join('')).toContain('settings live under Profile');
  });

  it('ranks a summary match between a title match and a body match', async () => {
    const body = await author.article({ versions: { en: { title: 'One', summary: 'Plain', body: 'The quorbular thing.' } } });
    const summary = await author.article({
      versions: { en: { title: 'Two', summary: 'All about quorbular things', body: 'Nothing here.' } },
    });
    const title = await author.article({ versions: { en: { title: 'Quorbular', summary: 'Plain', body: 'Nothing.' } } });
    expect(slugs(await reader.get('/articles?q=quorbular'))).toEqual([title.slug, summary.slug, body.slug]);
  });

  it('reads the last word typed as the start of a word', async () => {
    const a = await author.article({ versions: { en: { title: 'Resetting your flibbertigibbet', body: 'Steps to reset it.' } } });
    const typing = await reader.get('/articles?q=reset%20flibberti');
    expect(typing.json).toMatchObject({ matched_by: 'words', items: [expect.objectContaining({ slug: a.slug })] });
    // Only the last word: an earlier word must be whole (after stemming), else only the similar-word fallback finds it.
    expect((await reader.get('/articles?q=flibberti%20reset')).json.matched_by).toBe('similar_words');
  });

  it('finds an article by a misspelt word, and says it matched similar words', async () => {
    const a = await author.article({
      versions: { en: { title: 'Change your passphrase', summary: 'Keep your account safe', body: 'Go to Security.' } },
    });
    const r = await reader.get('/articles?q=passphrsae');
    expect(r.json.matched_by).toBe('similar_words');
    expect(slugs(r)[0]).toBe(a.slug);
    // A word of the body, misspelt: corrected to the published word most like it, and marked in the excerpt.
    const inBody = await author.article({
      versions: { en: { title: 'Month end', summary: 'Closing the books', body: 'Run the bank reconciliation before the month closes.' } },
    });
    const body = await reader.get('/articles?q=reconcilation%20bank');
    expect(body.json).toMatchObject({ matched_by: 'similar_words', items: [expect.objectContaining({ slug: inBody.slug })] });
    expect(body.json.items[0].excerpt.filter((s: { highlight?: boolean }) => s.highlight).map((s: { text: string }) => s.text)).toEqual([
      'bank',
      'reconciliation',
    ]);
    // Nothing alike at all: an empty list, not everything.
    const none = await reader.get('/articles?q=xqzvkwpj');
    expect(none.json).toMatchObject({ items: [], matched_by: 'similar_words' });
  });

  it('stems a German query with the German configuration', async () => {
    const de = await author.article({
      versions: {
        en: { title: 'Bills', body: 'Bills are sent monthly.' },
        de: { title: 'Zahlung', body: 'Jede Rechnung kommt am Monatsanfang.' },
      },
    });
    // "Rechnungen" (plural) finds "Rechnung" only through German stemming (simple or English would not).
    const r = await reader.get('/articles?q=Rechnungen%20Monatsanfang&lang=de');
    expect(slugs(r)).toEqual([de.slug]);
    expect(r.json.items[0].language).toBe('de');
    // Each hit names its collection in the reader's language, else the default's.
    const named = await author.collection({ names: { en: 'Billing', de: 'Abrechnung' } });
    const plain = await author.collection({ names: { en: 'Payments' } });
    const inNamed = await author.article({ collectionId: named.id, versions: { de: { title: 'Quittungsdrucker' } } });
    const inPlain = await author.article({ collectionId: plain.id, versions: { de: { title: 'Quittungsdruckerei' } } });
    const hits = await reader.get('/articles?q=Quittungsdruck&lang=de');
    // (Both match alike: their order is not the point.)
    expect(Object.fromEntries(hits.json.items.map((i: { slug: string; collection: unknown }) => [i.slug, i.collection]))).toEqual({
      [inNamed.slug]: { slug: named.slug, name: 'Abrechnung' },
      [inPlain.slug]: { slug: plain.slug, name: 'Payments' },
    });
    // Stop words of the language are not required to match.
    expect(slugs(await reader.get('/articles?q=die%20Rechnungen%20Monatsanfang&lang=de'))).toEqual([de.slug]);
    // The same words read as English stem differently and find nothing by words.
    expect((await reader.get('/articles?q=Rechnungen%20Monatsanfang&lang=en')).json.matched_by).not.toBe('words');
  });

  it('falls back to the default language for an article not translated, and says which language it served', async () => {
    const a = await author.article({ versions: { en: { title: 'Export your gloopstack data', body: 'Use Export.' } } });
    const r = await reader.get('/articles?q=gloopstack', { 'Accept-Language': 'fr-CH, fr;q=0.9, en;q=0.5' });
    expect(r.json.language).toBe('fr');
    expect(r.json.items).toEqual([expect.objectContaining({ slug: a.slug, language: 'en' })]);
    const one = await reader.get(`/articles/${a.slug}?lang=fr`);
    expect(one.json).toMatchObject({ slug: a.slug, language: 'en', languages: ['en'] });
    // lang wins over Accept-Language.
    expect((await reader.get('/articles?q=gloopstack&lang=de', { 'Accept-Language': 'fr' })).json.language).toBe('de');
  });

  it('serves the translation where there is one, and searches it rather than the default', async () => {
    const a = await author.article({
      versions: {
        en: { title: 'Blorptastic widgets', body: 'English words.' },
        fr: { title: 'Widgets blorptastiques', body: 'Des mots.' },
      },
    });
    const fr = await reader.get(`/articles/${a.slug}`, { 'Accept-Language': 'fr' });
    expect(fr.json).toMatchObject({ language: 'fr', title: 'Widgets blorptastiques', languages: ['en', 'fr'] });
    // The English words are not searched for a French reader: the French version is what they get.
    const r = await reader.get('/articles?q=English%20words&lang=fr');
    expect(slugs(r)).not.toContain(a.slug);
  });

  it('lists the most read first without words, counting views by the language served', async () => {
    const own = await staffApp(t, 'Popular app');
    const popular = helpAuthor(t, own);
    const guest = await guestReader(t, own);
    const rarely = await popular.article({ versions: { en: { title: 'Rarely read' } } });
    const often = await popular.article({ versions: { en: { title: 'Often read' } } });
    const first = await guest.get('/articles');
    expect(first.json.matched_by).toBe('most_read');
    expect(slugs(first)).toEqual([rarely.slug, often.slug]);
    for (let i = 0; i < 3; i++) expect((await guest.get(`/articles/${often.slug}`)).status).toBe(200);
    await flushViews(t.svc);
    expect(slugs(await guest.get('/articles'))).toEqual([often.slug, rarely.slug]);
    const stats = await t.svc.db.helpArticleStat.findMany({ where: { articleId: { in: [often.id, rarely.id] } } });
    expect(stats.map((s) => [s.articleId, s.language, Number(s.views)])).toEqual([[often.id, 'en', 3]]);
    expect((await guest.get('/articles?limit=1')).json.items).toHaveLength(1);
  });

  it('refuses a bad limit or lang naming it', async () => {
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=51', 'limit'],
      ['limit=x', 'limit'],
      ['lang=not%20a%20tag', 'lang'],
    ] as const) {
      const r = await reader.get(`/articles?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.json.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
  });

  it('keeps query operators as words: nothing typed is read as tsquery syntax', async () => {
    for (const q of ['a & b | !c', "'\\:*", '<(!)>', 'x'.repeat(200)]) {
      const r = await reader.get(`/articles?q=${encodeURIComponent(q)}`);
      expect(r.status, q).toBe(200);
    }
    const pub = await publicReader(t, app.live.app_key).get(`/articles?q=${encodeURIComponent('zeppelinic:* | !x')}`);
    expect(pub.status).toBe(200);
  });
});
