import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { exec, sql } from '../src/db/sql.js';
import { MAX_ARTICLE_TEXT } from '../src/domain/help/drafts.js';
import { MAX_ADDRESS_VOTES, sweepVoteAddresses, voterOf } from '../src/domain/help/ratings.js';
import { SEARCH_TIMEOUT_MS } from '../src/domain/help/search.js';
import { WAIT_MS } from '../src/domain/help/share.js';
import { call } from './support/http.js';
import { staffApp, type StaffApp } from './support/factories.js';
import { guestReader, helpAuthor, publicReader } from './support/help.js';
import { startTestServer, testConfig, type TestServer } from './support/server.js';

// The help center under a hostile reader or writer: an article's size bounded when it is saved,
// what a search reads of each article bounded whatever is stored, and public votes bounded per
// client address, article and day however many visitor ids are made up.

let t: TestServer;
let app: StaffApp;
let author: ReturnType<typeof helpAuthor>;

beforeAll(async () => {
  t = await startTestServer({ config: testConfig({}, { publicAddressPerMinute: 100_000, publicAppPerMinute: 100_000 }) });
  app = await staffApp(t, 'Hardening app');
  author = helpAuthor(t, app);
});
afterAll(async () => {
  await t?.close();
});

const words = (n: number, seed: number) => Array.from({ length: n }, (_, i) => `filler${(i * 7 + seed) % 97}`).join(' ');

describe('article size', () => {
  it('refuses a draft whose blocks hold more than 100,000 characters of text, naming blocks', async () => {
    const made = await author.article({ versions: { en: { title: 'Long one' } } });
    // Five paragraphs: the text search reads is their words, a line break between them.
    const blocks = (last: number) =>
      [20_000, 20_000, 20_000, 20_000, last].map((n) => ({ type: 'paragraph', spans: [{ text: 'x'.repeat(n) }] }));
    const exact = await author.draft(made.id, 'en', { title: 'Long one', body: blocks(MAX_ARTICLE_TEXT - 80_004) });
    expect(exact.errors).toBeUndefined();
    const over = await author.api.refused(
      'mutation($a: ID!, $b: JSON!) { saveHelpDraft(articleId: $a, language: "en", title: "Long one", blocks: $b) { language } }',
      { a: made.id, b: blocks(MAX_ARTICLE_TEXT - 80_003) },
    );
    expect(over).toMatchObject({
      code: 'invalid_request',
      errors: [{ field: 'blocks', message: expect.stringContaining('100000 characters') }],
    });
  });
});

describe('search cost', () => {
  it('reads a bounded part of each article: ten published articles of 800 KB are searched in a few milliseconds', async () => {
    const own = await staffApp(t, 'Big articles app');
    // Published before the bound (or loaded in bulk): written straight to the table, as the triggers take them.
    const big = `${words(5_000, 1)} early ${words(20_000, 2)} deepword ${words(80_000, 3)}`;
    expect(big.length).toBeGreaterThan(800_000);
    await exec(
      t.svc,
      sql`INSERT INTO help_article (id, app_mode_id, slug, position, audience, created_at, updated_at)
          SELECT ${own.modes.live} || '-big-' || i, ${own.modes.live}, 'big-' || i, i, 'everyone', now(), now() FROM generate_series(1, 10) i`,
    );
    await exec(
      t.svc,
      sql`INSERT INTO help_article_published (article_id, app_mode_id, language, title, summary, blocks, body_text, search_config, published_at)
          SELECT ${own.modes.live} || '-big-' || i, ${own.modes.live}, 'en', 'Big ' || i, '', '[]'::jsonb, ${big}, 'english', now()
          FROM generate_series(1, 10) i`,
    );
    const pub = publicReader(t, own.live.app_key);
    const timed = async (q: string) => {
      const start = performance.now();
      const r = await pub.get(`/articles?q=${q}&limit=10`);
      return { ms: performance.now() - start, r };
    };
    await timed('early');
    const runs = [await timed('early'), await timed('early'), await timed('early')];
    for (const { r } of runs) expect(r.json).toMatchObject({ matched_by: 'words', items: Array(10).fill(expect.anything()) });
    // Each excerpt is made from one passage around the word: marked, a few dozen words, cut on both sides.
    const excerpt = runs[0]!.r.json.items[0].excerpt as { text: string; highlight?: boolean }[];
    expect(excerpt.filter((s) => s.highlight).map((s) => s.text)).toEqual(['early']);
    expect(excerpt.map((s) => s.text).join('').length).toBeLessThan(400);
    expect([excerpt[0]!.text, excerpt.at(-1)!.text]).toEqual(['…', '…']);
    // (Before, each search here took 750 to 1,100 ms: every excerpt read its whole body.)
    expect(runs.map((x) => x.ms).sort((x, y) => x - y)[1]).toBeLessThan(250);
    // Words past the first 100,000 characters are not searched.
    expect((await pub.get('/articles?q=deepword')).json.items).toEqual([]);
  });

  it('makes each excerpt from the passage with the words asked, anywhere in a long article, cut only where words were left out', async () => {
    const paragraphs = Array.from({ length: 60 }, (_, i) => words(110, i));
    paragraphs[45] = `${words(50, 45)} the quibblewock lives here ${words(50, 46)}`;
    paragraphs[59] = `${words(60, 59)} and at last the zorblat.`;
    const a = await author.article({ versions: { en: { title: 'A long manual', body: paragraphs.join('\n\n') } } });
    const pub = publicReader(t, app.live.app_key);
    const middle = await pub.get('/articles?q=quibblewock');
    expect(middle.json.items.map((i: { slug: string }) => i.slug)).toEqual([a.slug]);
    const inMiddle = middle.json.items[0].excerpt as { text: string; highlight?: boolean }[];
    expect(inMiddle.filter((s) => s.highlight).map((s) => s.text)).toEqual(['quibblewock']);
    expect([inMiddle[0]!.text, inMiddle.at(-1)!.text]).toEqual(['…', '…']);
    const end = (await pub.get('/articles?q=zorblat')).json.items[0].excerpt as { text: string; highlight?: boolean }[];
    expect(end.filter((s) => s.highlight).map((s) => s.text)).toEqual(['zorblat']);
    expect(end[0]!.text).toBe('…');
    expect(end.at(-1)!.text).not.toBe('…');
    // The passages of the body, none longer than 1,000 characters, in order, the whole body.
    const passages = await t.svc.db.helpArticlePassage.findMany({
      where: { articleId: a.id },
      orderBy: { n: 'asc' },
      select: { text: true },
    });
    expect(Math.max(...passages.map((p) => p.text.length))).toBeLessThanOrEqual(1000);
    expect(passages.map((p) => p.text).join('\n')).toBe(paragraphs.join('\n'));
  });
});

describe('one app-mode’s searches', () => {
  it('run on connections of their own, in their share of them: beyond it they wait briefly or are answered 503, each bounded in time, and other apps are served', async () => {
    const busy = await staffApp(t, 'Busy app');
    await helpAuthor(t, busy).article({ versions: { en: { title: 'Stuck search', body: 'Words that are found.' } } });
    const pub = publicReader(t, busy.live.app_key);
    const other = await guestReader(t, await staffApp(t, 'Other tenant'));
    expect((await pub.get('/articles?q=stuck')).status).toBe(200);
    // Searches that cannot end: another session holds the published versions (a stand-in for searches far too slow).
    const holder = new pg.Client({ connectionString: t.dbUrl });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE help_article_published IN ACCESS EXCLUSIVE MODE');
    const started = performance.now();
    let released = false;
    try {
      const flood = Array.from({ length: 70 }, () =>
        pub.get('/articles?q=stuck').then((r) => ({ ...r, ms: performance.now() - started, released })),
      );
      const site = fetch(`${t.url}/help/${busy.live.app_key}/en/search?q=stuck`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Only the app-mode's share of connections is stuck: another tenant's request answers at once.
      const stuck = await holder.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%crm_help_search%'",
      );
      expect(stuck.rows[0].n).toBeLessThanOrEqual(2);
      const before = performance.now();
      expect((await other.get('/conversations')).status).toBe(200);
      expect(performance.now() - before).toBeLessThan(1000);
      // The help site says so on a page.
      const page = await site;
      expect(page.status).toBe(503);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toContain('The help center is busy');
      await new Promise((resolve) => setTimeout(resolve, SEARCH_TIMEOUT_MS + 1_000 - (performance.now() - started)));
      released = true;
      await holder.query('ROLLBACK');
      const answers = await Promise.all(flood);
      const refused = answers.filter((r) => r.status === 503);
      // Every search answered: found once the versions were free, or refused with a clear 503 (at once, past its wait, or past its time).
      expect(answers.filter((r) => r.status !== 503).map((r) => r.status)).toEqual(answers.filter((r) => r.status !== 503).map(() => 200));
      expect(refused.length).toBeGreaterThanOrEqual(60);
      for (const r of refused) {
        expect(r.json).toMatchObject({ code: 'unavailable' });
        expect(r.headers.get('retry-after')).toBe('1');
        expect(r.released).toBe(false);
      }
      // Those beyond the line were refused at once, those in it after their wait, those running at the statement timeout.
      expect(refused.filter((r) => r.ms < WAIT_MS - 500).length).toBeGreaterThanOrEqual(10);
      expect(refused.filter((r) => r.json.detail.includes('took too long')).length).toBeGreaterThanOrEqual(1);
    } finally {
      if (!released) await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
    }
    expect((await pub.get('/articles?q=stuck')).status).toBe(200);
  });
});

describe('public votes', () => {
  it('counts an IPv4 address as itself and an IPv6 address by its /64 network', () => {
    expect(voterOf('203.0.113.7')).toBe('203.0.113.7');
    expect(voterOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(voterOf('2001:db8:1:2::a:1')).toBe('2001:db8:1:2::/64');
    expect(voterOf('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(voterOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(voterOf('::1')).toBe('0:0:0:0::/64');
    expect(voterOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  const votesOf = (articleId: string) =>
    t.svc.db.helpVisitorRating.groupBy({ by: ['helpful'], where: { articleId }, _count: true, orderBy: { helpful: 'asc' } });

  it('keeps at most three new votes per address, article and day, however many visitor ids and forms are sent at once', async () => {
    const pub = publicReader(t, app.live.app_key);
    const a = await author.article({ versions: { en: { title: 'Vote flood' } } });
    // 50 JSON votes with fresh visitor ids at once, some claiming other addresses (not trusted here): all accepted, three kept.
    const json = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(t.url, 'POST', `/public/v1/help/articles/${a.slug}/rating`, {
          headers: { 'X-CRM-App-Key': app.live.app_key, 'X-Forwarded-For': `203.0.113.${i}` },
          json: { helpful: false, visitor: `flood-${i}` },
        }),
      ),
    );
    expect(json.map((r) => r.status)).toEqual(Array(50).fill(204));
    expect(await votesOf(a.id)).toEqual([{ helpful: false, _count: MAX_ADDRESS_VOTES }]);
    // 30 form posts of the help site at once, on another article: answered alike (back to the article), three kept.
    const b = await author.article({ versions: { en: { title: 'Form flood' } } });
    const forms = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        fetch(`${t.url}/help/${app.live.app_key}/en/articles/${b.slug}/rating`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: `helpful=no&visitor=form-${i}`,
          redirect: 'manual',
        }),
      ),
    );
    expect(forms.map((r) => r.status)).toEqual(Array(30).fill(303));
    expect(await votesOf(b.id)).toEqual([{ helpful: false, _count: MAX_ADDRESS_VOTES }]);
    // A visitor whose vote was kept may still change it; a new one is not kept.
    expect((await pub.post(`/articles/${a.slug}/rating`, { helpful: true, visitor: 'flood-kept' })).status).toBe(204);
    const kept = await t.svc.db.helpVisitorRating.findFirstOrThrow({ where: { articleId: a.id }, select: { visitor: true } });
    expect((await pub.post(`/articles/${a.slug}/rating`, { helpful: true, visitor: kept.visitor })).status).toBe(204);
    expect(await votesOf(a.id)).toEqual([
      { helpful: false, _count: MAX_ADDRESS_VOTES - 1 },
      { helpful: true, _count: 1 },
    ]);
    // The address is kept only as a keyed hash.
    const counts = await t.svc.db.helpVoteAddress.findMany({ where: { articleId: { in: [a.id, b.id] } } });
    expect(counts.map((c) => c.votes).sort((x, y) => x - y)).toEqual([30, 51]);
    for (const c of counts) expect(c.addressHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(counts)).not.toContain('127.0.0.1');

    // The next day the address has three more; the sweep forgets the day before.
    t.clock.advance(24 * 3_600_000);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => pub.post(`/articles/${a.slug}/rating`, { helpful: false, visitor: `day2-${i}` })),
    );
    expect(await t.svc.db.helpVisitorRating.count({ where: { articleId: a.id } })).toBe(2 * MAX_ADDRESS_VOTES);
    await sweepVoteAddresses(t.ctx);
    expect((await t.svc.db.helpVoteAddress.findMany({ where: { articleId: a.id } })).map((c) => c.votes)).toEqual([10]);
    expect(await t.svc.db.helpVoteAddress.count({ where: { articleId: b.id } })).toBe(0);
  });

  it('reads the client address as the rate limits do: from X-Forwarded-For only behind a trusted proxy', async () => {
    const proxied = await startTestServer({
      config: testConfig({ trustProxy: true }, { publicAddressPerMinute: 100_000, publicAppPerMinute: 100_000 }),
    });
    try {
      const own = await staffApp(proxied, 'Proxied app');
      const a = await helpAuthor(proxied, own).article({ versions: { en: { title: 'Behind a proxy' } } });
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(proxied.url, 'POST', `/public/v1/help/articles/${a.slug}/rating`, {
            headers: { 'X-CRM-App-Key': own.live.app_key, 'X-Forwarded-For': `203.0.113.${i % 2}` },
            json: { helpful: false, visitor: `proxied-${i}` },
          }),
        ),
      );
      // Two addresses, three votes each.
      expect(await proxied.svc.db.helpVisitorRating.count({ where: { articleId: a.id } })).toBe(2 * MAX_ADDRESS_VOTES);
      expect((await proxied.svc.db.helpVoteAddress.findMany({ where: { articleId: a.id } })).map((c) => c.votes)).toEqual([10, 10]);
      // An IPv6 host holds a whole /64: its addresses count as one.
      const b = await helpAuthor(proxied, own).article({ versions: { en: { title: 'Over IPv6' } } });
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          call(proxied.url, 'POST', `/public/v1/help/articles/${b.slug}/rating`, {
            headers: {
              'X-CRM-App-Key': own.live.app_key,
              'X-Forwarded-For': i < 10 ? `2001:db8:1:2::${i.toString(16)}:1` : `2001:db8:1:3::${i}`,
            },
            json: { helpful: true, visitor: `v6-${i}` },
          }),
        ),
      );
      expect(await proxied.svc.db.helpVisitorRating.count({ where: { articleId: b.id } })).toBe(MAX_ADDRESS_VOTES + 2);
    } finally {
      await proxied.close();
    }
  });
});
