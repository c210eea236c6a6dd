import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ADDRESS_VOTES, sweepVoteAddresses } from '../src/domain/help/ratings.js';
import { call } from './support/http.js';
import { staffApp, type StaffApp } from './support/factories.js';
import { helpAuthor, publicReader } from './support/help.js';
import { startTestServer, testConfig, type TestServer } from './support/server.js';

// The help center under a hostile reader: public votes bounded per client address, article and
// day however many visitor ids are made up.

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

describe('public votes', () => {
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
});
