import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DECLARED_LINKS, MAX_DECLARED_LINKS_BYTES, MAX_LINK_SET_VERSIONS, MAX_LINK_SETS } from '../src/domain/inapp/links.js';
import { MAX_PAGE } from '../src/domain/paging.js';
import { queriesDuring } from './support/db.js';
import { banner, ownInAppApp } from './support/inapp.js';
import { startTestServer, type TestServer } from './support/server.js';

// The links an app declares (PUT /guest/v1/app-links), bounded: links and bytes per report, the digests an
// app-mode keeps and the app versions each names, exactly under reports at once; staff read them
// in pages, and a message's product link is checked against the declared paths alone. Black-box
// over real HTTP on real PostgreSQL.

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

/** A fresh app of its own: its staff and its users. */
const ownApp = () => ownInAppApp(t);

const link = (i: number, extra: Record<string, unknown> = {}) => ({ name: `Link ${i}`, path: `/p${i}/{id}`, ...extra });
const links = (n: number) => Array.from({ length: n }, (_, i) => link(i));
const kept = (appModeId: string) => t.svc.db.appLinkSet.findMany({ where: { appModeId }, orderBy: { reportSeq: 'desc' } });

const APP_LINKS =
  'query($m: ID!, $n: Int, $a: String) { appLinks(appModeId: $m, first: $n, after: $a) { edges { cursor node { digest appVersions links { name path } } } pageInfo { hasNextPage endCursor } } }';

describe('a report', () => {
  it(`holds at most ${MAX_DECLARED_LINKS} links and ${MAX_DECLARED_LINKS_BYTES / 1024} KiB of them; more is refused naming links`, async () => {
    const { own, user } = await ownApp();
    const u = user();
    expect((await u.links({ app_version: '1.0', digest: 'full', links: links(MAX_DECLARED_LINKS) })).status).toBe(204);
    const over = await u.links({ app_version: '1.0', digest: 'over', links: links(MAX_DECLARED_LINKS + 1) });
    expect(over.status).toBe(400);
    expect(over.json).toMatchObject({ code: 'invalid_request', errors: [{ field: 'links' }] });
    // Within the count and every member's length, but too many bytes in all.
    const long = Array.from({ length: 70 }, (_, i) =>
      link(i, { web_url: `https://example.com/${'x'.repeat(1900)}`, name: 'n'.repeat(200) }),
    );
    const heavy = await u.links({ app_version: '1.0', digest: 'heavy', links: long });
    expect(heavy.status).toBe(400);
    expect(heavy.json).toMatchObject({ code: 'invalid_request', errors: [{ field: 'links' }] });
    expect((await kept(own.modes.live)).map((s) => s.digest)).toEqual(['full']);
  });
});

describe('what an app-mode keeps', () => {
  it(`is the ${MAX_LINK_SETS} digests reported last: the one reported longest ago goes, and a check-in naming it asks for it again`, async () => {
    const { own, user } = await ownApp();
    const u = user();
    // All within one instant on the server's clock: the order of the reports decides.
    for (let i = 0; i < MAX_LINK_SETS + 3; i++) {
      expect((await u.links({ app_version: `1.${i}`, digest: `d${i}`, links: [link(i)] })).status).toBe(204);
    }
    // d0, dropped, reported again: kept anew as the latest, and d3, then the one reported longest ago, goes.
    await u.links({ app_version: '1.0', digest: 'd0', links: [link(0)] });
    const digests = (await kept(own.modes.live)).map((s) => s.digest);
    expect(digests).toEqual(['d0', ...Array.from({ length: MAX_LINK_SETS - 1 }, (_, i) => `d${MAX_LINK_SETS + 2 - i}`)]);
    t.clock.advance(21_000);
    expect((await u.checkedIn({ links_digest: 'd3' })).sendLinks).toBe(true);
    t.clock.advance(21_000);
    expect((await u.checkedIn({ links_digest: 'd4' })).sendLinks).toBe(false);
  });

  it(`names at most ${MAX_LINK_SET_VERSIONS} app versions a digest, those reported last`, async () => {
    const { own, user } = await ownApp();
    const u = user();
    for (let i = 0; i < MAX_LINK_SET_VERSIONS + 5; i++) await u.links({ app_version: `2.${i}`, digest: 'same', links: [link(1)] });
    await u.links({ app_version: '2.10', digest: 'same', links: [link(1)] });
    const [set] = await kept(own.modes.live);
    const last = Array.from({ length: MAX_LINK_SET_VERSIONS + 5 }, (_, i) => `2.${i}`).filter((v) => v !== '2.10');
    expect(set!.appVersions).toEqual([...last.slice(-(MAX_LINK_SET_VERSIONS - 1)), '2.10']);
    // 50 versions of a new release report its digest at once: one set, naming exactly the bound.
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => user().links({ app_version: `7.${i}`, digest: 'release', links: [link(7)] })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(204));
    const release = await t.svc.db.appLinkSet.findMany({ where: { appModeId: own.modes.live, digest: 'release' } });
    expect(release.map((r) => r.appVersions.length)).toEqual([MAX_LINK_SET_VERSIONS]);
  });

  it(`stays exactly ${MAX_LINK_SETS} digests under 50 reports of new digests at once, round after round`, async () => {
    const { own, user } = await ownApp();
    const users = Array.from({ length: 25 }, () => user());
    for (const round of [1, 2, 3]) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          users[i % users.length]!.links({
            app_version: `3.${round}.${i}`,
            digest: `c${round}.${i}`,
            links: links(20).map((l) => ({ ...l, screen: `s${i}` })),
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(50).fill(204));
      expect(await t.svc.db.appLinkSet.count({ where: { appModeId: own.modes.live } })).toBe(MAX_LINK_SETS);
    }
  });
});

describe('staff', () => {
  it('read the link sets in pages, the latest report first', async () => {
    const { own, staff, user } = await ownApp();
    const u = user();
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1000);
      await u.links({ app_version: `4.${i}`, digest: `p${i}`, links: [link(i)] });
    }
    const read: string[] = [];
    let after: string | null = null;
    let more = true;
    while (more) {
      const page: any = (await staff.ok(APP_LINKS, { m: own.modes.live, n: 2, a: after })).appLinks;
      expect(page.edges.length).toBeLessThanOrEqual(2);
      read.push(...page.edges.map((e: any) => e.node.digest));
      ({ hasNextPage: more, endCursor: after } = page.pageInfo);
    }
    expect(read).toEqual(['p4', 'p3', 'p2', 'p1', 'p0']);
    const first: any = (await staff.ok(APP_LINKS, { m: own.modes.live, n: 1 })).appLinks;
    expect(first.edges[0].node).toEqual({ digest: 'p4', appVersions: ['4.4'], links: [{ name: 'Link 4', path: '/p4/{id}' }] });
    expect(await staff.refused(APP_LINKS, { m: own.modes.live, n: MAX_PAGE + 1 })).toMatchObject({
      status: 400,
      errors: [{ field: 'first' }],
    });
  });
});

describe('a message’s product link', () => {
  it('is checked against the kept sets’ declared paths alone, read only when the content has one', async () => {
    const { own, staff, user } = await ownApp();
    const u = user();
    await u.links({ app_version: '5.0', digest: 'old', links: [{ name: 'Offer', path: '/offers/{offer_id}' }] });
    t.clock.advance(1000);
    await u.links({ app_version: '5.1', digest: 'new', links: [{ name: 'Home', path: '/home' }] });
    const linked = (to: string) => ({ content: { blocks: [{ type: 'link', label: 'Go', link: to }] } });
    const reads = (text: string) => /app_link_set/.test(text);
    // A plain banner reads no link set; a product link reads the paths, never the links.
    expect(await queriesDuring(async () => void (await staff.create(own.modes.live, 'banner', { content: banner() })), reads)).toBe(0);
    const linksRead = await queriesDuring(
      async () => void (await staff.create(own.modes.live, 'banner', linked('/offers/42'))),
      (text) => reads(text) && /\blinks\b/.test(text),
    );
    expect(linksRead).toBe(0);
    expect((await staff.createRefused(own.modes.live, 'banner', linked('/offers/42/more'))).errors).toEqual([
      expect.objectContaining({ field: 'content.blocks.0.link' }),
    ]);
    // Once the set declaring /offers/{offer_id} is no longer kept, the path is no longer declared.
    for (let i = 0; i < MAX_LINK_SETS; i++) {
      t.clock.advance(1000);
      await u.links({ app_version: `6.${i}`, digest: `e${i}`, links: [{ name: 'Home', path: '/home' }] });
    }
    expect((await staff.createRefused(own.modes.live, 'banner', linked('/offers/42'))).errors).toEqual([
      expect.objectContaining({ field: 'content.blocks.0.link' }),
    ]);
    expect((await staff.create(own.modes.live, 'banner', linked('/home/'))).id).toEqual(expect.any(String));
  });
});
