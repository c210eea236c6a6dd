import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSettings } from '../src/domain/apps/settings.js';
import { flushViews } from '../src/domain/help/views.js';
import { call } from './support/http.js';
import { memberOf, staffApp, type StaffApp } from './support/factories.js';
import { guestReader, helpAuthor, publicReader } from './support/help.js';
import { png, reachable } from './support/pictures.js';
import { startTestServer, type TestServer } from './support/server.js';

// Who reads what: a signed-in user reads every published article, the public only those meant for
// everyone; every help route is 404 while the help center is off; votes of users and visitors are
// kept apart; pictures redirect to short-lived addresses; content is checked, naming the field.

let t: TestServer;
let app: StaffApp;
let author: ReturnType<typeof helpAuthor>;

beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t, 'Access app');
  author = helpAuthor(t, app);
});
afterAll(async () => {
  await t?.close();
});

const slugsOf = (items: { slug: string }[]) => items.map((i) => i.slug);

describe('audience', () => {
  it('keeps an article for signed-in users off every public route, and serves it to a signed-in user', async () => {
    const own = await staffApp(t, 'Audience app');
    const write = helpAuthor(t, own);
    const c = await write.collection({ names: { en: 'Account' } });
    const open = await write.article({
      collectionId: c.id,
      versions: { en: { title: 'Open hamfistery', body: 'Everyone may read about hamfistery.' } },
    });
    const secret = await write.article({
      collectionId: c.id,
      audience: 'signed_in',
      versions: { en: { title: 'Secret hamfistery', body: 'Members only hamfistery.' } },
    });
    const onlySecret = await write.collection({ names: { en: 'Members corner' } });
    await write.article({ collectionId: onlySecret.id, audience: 'signed_in', versions: { en: { title: 'Members page' } } });

    const pub = publicReader(t, own.live.app_key);
    expect(slugsOf((await pub.get('/articles')).json.items)).toEqual([open.slug]);
    expect(slugsOf((await pub.get('/articles?q=hamfistery')).json.items)).toEqual([open.slug]);
    expect(slugsOf((await pub.get('/articles?q=hamfistry')).json.items)).toEqual([open.slug]);
    expect((await pub.get(`/articles/${secret.slug}`)).status).toBe(404);
    expect((await pub.post(`/articles/${secret.slug}/rating`, { helpful: true, visitor: 'v1' })).status).toBe(404);
    const collections = (await pub.get('/collections')).json;
    expect(collections.items.map((i: { slug: string }) => i.slug)).toEqual([c.slug]);
    expect(collections.items[0].article_count).toBe(1);
    expect(JSON.stringify(collections)).not.toContain(onlySecret.slug);
    const inCollection = (await pub.get(`/collections/${c.slug}`)).json;
    expect(slugsOf(inCollection.items)).toEqual([open.slug]);
    expect((await pub.get(`/collections/${onlySecret.slug}`)).status).toBe(404);
    expect((await pub.get(`/articles/${open.slug}`)).json.related).toEqual([]);

    const user = await guestReader(t, own);
    const r = await user.get(`/articles/${secret.slug}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      slug: secret.slug,
      audience: 'signed_in',
      html_url: null,
      collection_path: [{ slug: c.slug, name: 'Account' }],
    });
    expect(slugsOf(r.json.related)).toEqual([open.slug]);
    expect(slugsOf((await user.get('/articles?q=hamfistery')).json.items).sort()).toEqual([open.slug, secret.slug].sort());
    expect((await user.get('/collections')).json.items.map((i: { slug: string }) => i.slug)).toEqual([c.slug, onlySecret.slug]);
    expect((await user.post(`/articles/${secret.slug}/rating`, { helpful: true })).status).toBe(204);

    // Made public, it is on the public routes at once; made signed-in only again, it is gone.
    await write.api.ok('mutation($id: ID!) { changeHelpArticle(id: $id, input: { audience: everyone }) { audience } }', { id: secret.id });
    expect((await pub.get(`/articles/${secret.slug}`)).status).toBe(200);
  });

  it('keeps drafts from readers, and the published version until the next publish', async () => {
    const a = await author.article({ versions: { en: { title: 'First words', body: 'Version one.' } } });
    const reader = publicReader(t, app.live.app_key);
    await author.draft(a.id, 'en', { title: 'Second words', body: 'Version two.' });
    expect((await reader.get(`/articles/${a.slug}`)).json).toMatchObject({
      title: 'First words',
      blocks: [{ type: 'paragraph', spans: [{ text: 'Version one.' }] }],
    });
    expect(slugsOf((await reader.get('/articles?q=second')).json.items)).not.toContain(a.slug);
    await author.publish(a.id, 'en');
    expect((await reader.get(`/articles/${a.slug}`)).json).toMatchObject({ title: 'Second words' });
    // Never published: not there at all.
    const draftOnly = (
      await author.api.ok('mutation($m: ID!) { createHelpArticle(appModeId: $m, slug: "draft-only") { id } }', { m: app.modes.live })
    ).createHelpArticle;
    await author.draft(draftOnly.id, 'en', { title: 'Draft only' });
    expect((await reader.get('/articles/draft-only')).status).toBe(404);
    // Unpublished: gone again.
    await author.api.ok('mutation($a: ID!) { unpublishHelpArticle(articleId: $a, language: "en") }', { a: a.id });
    expect((await reader.get(`/articles/${a.slug}`)).status).toBe(404);
  });
});

describe('switched off', () => {
  it('answers 404 on every help route of the app while its help center is off', async () => {
    const own = await staffApp(t, 'Off app');
    const write = helpAuthor(t, own);
    const c = await write.collection({ names: { en: 'Things' } });
    const a = await write.article({ collectionId: c.id, versions: { en: { title: 'Something' } } });
    const pub = publicReader(t, own.live.app_key);
    const user = await guestReader(t, own);
    const routes = [
      () => pub.get('/articles'),
      () => pub.get(`/articles/${a.slug}`),
      () => pub.get('/collections'),
      () => pub.get(`/collections/${c.slug}`),
      () => pub.post(`/articles/${a.slug}/rating`, { helpful: true, visitor: 'v' }),
      () => user.get('/articles'),
      () => user.get(`/articles/${a.slug}`),
      () => user.get('/collections'),
      () => user.get(`/collections/${c.slug}`),
      () => user.post(`/articles/${a.slug}/rating`, { helpful: true }),
    ];
    for (const route of routes) expect([200, 204]).toContain((await route()).status);
    await updateSettings(t.ctx, own.modes.live, { helpOn: false });
    for (const route of routes) {
      const r = await route();
      expect(r.status).toBe(404);
      expect(r.json.code).toBe('not_found');
    }
    // The test mode's help center is its own.
    expect((await publicReader(t, own.test.app_key).get('/articles')).status).toBe(200);
    await updateSettings(t.ctx, own.modes.live, { helpOn: true });
    expect((await pub.get('/articles')).status).toBe(200);
  });

  it('answers 404 for an unknown app key, and reads the key from query app too', async () => {
    expect((await call(t.url, 'GET', '/public/v1/help/articles?app=app_nonesuch')).status).toBe(404);
    expect((await call(t.url, 'GET', '/public/v1/help/articles')).status).toBe(404);
    expect((await call(t.url, 'GET', `/public/v1/help/articles?app=${app.live.app_key}`)).status).toBe(200);
  });
});

describe('tenancy', () => {
  it('reads and writes nothing of another app or mode', async () => {
    const a = await author.article({ versions: { en: { title: 'Mine alone' } } });
    const other = await staffApp(t, 'Other app');
    expect((await publicReader(t, other.live.app_key).get(`/articles/${a.slug}`)).status).toBe(404);
    expect((await publicReader(t, app.test.app_key).get(`/articles/${a.slug}`)).status).toBe(404);
    expect((await (await guestReader(t, other)).get(`/articles/${a.slug}`)).status).toBe(404);
    // Staff of another workspace: not found, like an unknown id.
    const theirs = helpAuthor(t, other);
    const refused = await theirs.api.refused('mutation($a: ID!) { publishHelpArticle(articleId: $a, language: "en") { language } }', {
      a: a.id,
    });
    expect(refused).toMatchObject({ code: 'not_found' });
    expect(await theirs.api.refused('query($a: ID!) { helpArticle(id: $a) { slug } }', { a: a.id })).toMatchObject({ code: 'not_found' });
    // Another app's collection is not a place for this app's article.
    const theirCollection = await theirs.collection({ names: { en: 'Theirs' } });
    const moved = await author.api.refused(
      'mutation($id: ID!, $c: ID) { changeHelpArticle(id: $id, input: { collectionId: $c }) { id } }',
      { id: a.id, c: theirCollection.id },
    );
    expect(moved).toMatchObject({ code: 'invalid_request', errors: [{ field: 'collectionId' }] });
    // An agent reads but does not write.
    const agent = await memberOf(t, app.workspaceId, 'agent');
    expect((await author.api.ok('query($a: ID!) { helpArticle(id: $a) { slug } }', { a: a.id }, agent.token)).helpArticle.slug).toBe(
      a.slug,
    );
    expect(await author.api.refused('mutation($a: ID!) { removeHelpArticle(id: $a) }', { a: a.id }, agent.token)).toMatchObject({
      code: 'role_forbids',
    });
  });
});

describe('votes', () => {
  it('keeps one changeable vote per user, and visitors’ votes apart from users’', async () => {
    const a = await author.article({ versions: { en: { title: 'Vote on me' } } });
    const user = await guestReader(t, app, 'same-id');
    const pub = publicReader(t, app.live.app_key);
    expect((await user.post(`/articles/${a.slug}/rating`, { helpful: true })).status).toBe(204);
    expect((await user.post(`/articles/${a.slug}/rating`, { helpful: false })).status).toBe(204);
    // A visitor naming itself as the user changes nothing of the user's vote.
    expect((await pub.post(`/articles/${a.slug}/rating`, { helpful: true, visitor: 'same-id' })).status).toBe(204);
    expect((await pub.post(`/articles/${a.slug}/rating`, { helpful: true, visitor: 'same-id', language: 'en' })).status).toBe(204);
    expect((await pub.post(`/articles/${a.slug}/rating`, { helpful: false, visitor: 'another' })).status).toBe(204);
    expect(await t.svc.db.helpArticleRating.findMany({ where: { articleId: a.id }, select: { externalId: true, helpful: true } })).toEqual([
      { externalId: 'same-id', helpful: false },
    ]);
    expect(await t.svc.db.helpVisitorRating.count({ where: { articleId: a.id } })).toBe(2);
    for (let i = 0; i < 2; i++) await pub.get(`/articles/${a.slug}`);
    await flushViews(t.svc);
    const stats = await author.api.ok(
      'query($a: ID!) { helpArticle(id: $a) { stats { language views helpful notHelpful visitorHelpful visitorNotHelpful } } }',
      { a: a.id },
    );
    expect(stats.helpArticle.stats).toEqual([
      { language: 'en', views: 2, helpful: 0, notHelpful: 1, visitorHelpful: 1, visitorNotHelpful: 1 },
    ]);
  });

  it('refuses a bad public vote naming the field', async () => {
    const a = await author.article({ versions: { en: { title: 'Vote badly' } } });
    const pub = publicReader(t, app.live.app_key);
    for (const [body, field] of [
      [{ helpful: true }, 'visitor'],
      [{ helpful: 'yes', visitor: 'v' }, 'helpful'],
      [{ helpful: true, visitor: 'x'.repeat(101) }, 'visitor'],
      [{ helpful: true, visitor: 'v', language: 'xx' }, 'language'],
      [{ helpful: true, visitor: 'v', language: 'not a tag' }, 'language'],
    ] as const) {
      const r = await pub.post(`/articles/${a.slug}/rating`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
  });

  it('exports a person’s votes as articleRatings and erases them', async () => {
    const a = await author.article({ versions: { en: { title: 'Exported vote' } } });
    const user = await guestReader(t, app, 'voter-to-erase');
    expect((await user.post(`/articles/${a.slug}/rating`, { helpful: true })).status).toBe(204);
    const server = { headers: { Authorization: `Bearer ${app.live.server_key}` } };
    const exported = await call(t.url, 'GET', '/server/v1/contacts/voter-to-erase/export', server);
    expect(exported.status).toBe(200);
    expect(exported.json.articleRatings).toEqual([{ article: a.slug, helpful: true, language: 'en', ratedAt: expect.any(String) }]);
    expect((await call(t.url, 'DELETE', '/server/v1/contacts/voter-to-erase', server)).status).toBe(202);
    await t.engine.runDue();
    expect(await t.svc.db.helpArticleRating.count({ where: { externalId: 'voter-to-erase' } })).toBe(0);
    // Within the erase block, a vote is answered alike and nothing is kept.
    expect((await user.post(`/articles/${a.slug}/rating`, { helpful: false })).status).toBe(204);
    expect(await t.svc.db.helpArticleRating.count({ where: { externalId: 'voter-to-erase' } })).toBe(0);
  });
});

describe('content', () => {
  const save = (articleId: string, blocks: unknown) =>
    author.api.gql(
      'mutation($a: ID!, $b: JSON!) { saveHelpDraft(articleId: $a, language: "en", title: "T", blocks: $b) { language } }',
      { a: articleId, b: blocks },
      app.owner,
    );
  let articleId: string;
  beforeAll(async () => {
    articleId = (await author.article({ versions: { en: { title: 'Content rules' } } })).id;
  });

  it('refuses formatting members, naming each', async () => {
    const r = await save(articleId, [
      { type: 'heading', level: 2, spans: [{ text: 'Title' }] },
      { type: 'paragraph', spans: [{ text: 'Big' }], size: 'large', align: 'center' },
      { type: 'callout', spans: [{ text: 'Careful' }], tone: 'warning' },
    ]);
    expect(r.errors![0]!.extensions).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(r.errors![0]!.extensions.errors!.map((e) => e.field)).toEqual(['blocks.1.size', 'blocks.1.align', 'blocks.2.tone']);
  });

  it('refuses what a block type does not name, unknown types, bad levels and links, naming the field', async () => {
    const r = await save(articleId, [
      { type: 'paragraph', level: 2, spans: [{ text: 'x' }] },
      { type: 'carousel' },
      { type: 'heading', level: 4, spans: [{ text: 'x' }] },
      { type: 'paragraph', spans: [{ text: 'x', link: 'javascript:alert(1)' }] },
      { type: 'link', label: 'Go', link: 'http://plain.example' },
      { type: 'image', imageUrl: 'https://cdn.example/a.png', alt: 'fine' },
      { type: 'list', items: [] },
    ]);
    expect(r.errors![0]!.extensions.errors!.map((e) => e.field)).toEqual([
      'blocks.0.level',
      'blocks.1.type',
      'blocks.2.level',
      'blocks.3.spans.0.link',
      'blocks.4.link',
      'blocks.6.items',
    ]);
  });

  it('keeps every block type the help center takes', async () => {
    const blocks = [
      { type: 'heading', level: 1, spans: [{ text: 'Hello' }] },
      {
        type: 'paragraph',
        spans: [
          { text: 'Read ', bold: true },
          { text: 'this', link: 'https://example.com/x', italic: true },
        ],
      },
      { type: 'list', items: [{ spans: [{ text: 'one' }] }, { spans: [{ text: 'two' }] }] },
      { type: 'numbered_list', items: [{ spans: [{ text: 'first' }] }] },
      { type: 'callout', spans: [{ text: 'Note' }] },
      { type: 'link', label: 'Open settings', link: '/settings' },
      { type: 'image', imageUrl: 'https://cdn.example/a.png', alt: 'A picture', unknownMember: 1 },
    ];
    expect((await save(articleId, blocks)).errors).toBeUndefined();
    await author.publish(articleId, 'en');
    const read = await (
      await guestReader(t, app)
    ).get(`/articles/${(await t.svc.db.helpArticle.findUniqueOrThrow({ where: { id: articleId } })).slug}`);
    expect(read.json.blocks).toEqual(blocks.map(({ unknownMember: _, ...b }: Record<string, unknown>) => b));
  });

  it('refuses a language the app does not have, a blank title and a bad slug, naming each', async () => {
    const r = await author.api.gql(
      'mutation($a: ID!) { saveHelpDraft(articleId: $a, language: "de", title: " ", blocks: []) { language } }',
      { a: articleId },
      app.owner,
    );
    expect(r.errors![0]!.extensions.errors!.map((e) => e.field)).toEqual(['language', 'title']);
    const slug = await author.api.refused('mutation($m: ID!) { createHelpArticle(appModeId: $m, slug: "Not A Slug") { id } }', {
      m: app.modes.live,
    });
    expect(slug).toMatchObject({ code: 'invalid_request', errors: [{ field: 'slug' }] });
    await author.article({ slug: 'taken-slug', versions: {} });
    expect(
      await author.api.refused('mutation($m: ID!) { createHelpArticle(appModeId: $m, slug: "taken-slug") { id } }', { m: app.modes.live }),
    ).toMatchObject({ code: 'slug_taken', errors: [{ field: 'slug' }] });
  });
});

describe('pictures', () => {
  it('redirects a picture to a short-lived signed address, which stops working when it expires', async () => {
    const bytes = png(4, 3);
    const made = (
      await author.api.ok(
        'mutation($m: ID!, $n: Int!) { createHelpPicture(appModeId: $m, type: png, size: $n) { id url uploadUrl uploadMethod uploadHeaders } }',
        { m: app.modes.live, n: bytes.length },
      )
    ).createHelpPicture;
    // Named before its bytes are there: refused.
    const early = await author.api.gql(
      'mutation($a: ID!, $b: JSON!) { saveHelpDraft(articleId: $a, language: "en", title: "Pic", blocks: $b) { language } }',
      {
        a: (await author.article({ versions: {} })).id,
        b: [{ type: 'image', imageUrl: made.url, alt: 'x' }],
      },
      app.owner,
    );
    expect(early.errors![0]!.extensions.errors!.map((e) => e.field)).toEqual(['blocks.0.imageUrl']);
    const put = await fetch(reachable(t, made.uploadUrl), {
      method: made.uploadMethod,
      headers: made.uploadHeaders,
      body: new Uint8Array(bytes),
    });
    expect(put.status).toBe(204);
    const a = await author.article({
      versions: { en: { title: 'With a picture', body: [{ type: 'image', imageUrl: made.url, alt: 'Screen' }] } },
    });

    const read = await publicReader(t, app.live.app_key).get(`/articles/${a.slug}`);
    expect(read.json.blocks).toEqual([{ type: 'image', imageUrl: made.url, alt: 'Screen' }]);
    const redirect = await fetch(reachable(t, made.url), { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location')!;
    const picture = await fetch(reachable(t, location));
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await picture.arrayBuffer()).equals(bytes)).toBe(true);

    t.clock.advance(60 * 60 * 1000);
    const expired = await fetch(reachable(t, location));
    expect(expired.status).toBe(403);
    expect((await expired.json()).code).toBe('address_expired');
    const again = await fetch(reachable(t, made.url), { redirect: 'manual' });
    expect((await fetch(reachable(t, again.headers.get('location')!))).status).toBe(200);

    // Another app's picture is not one of this app's; an unknown one is 404.
    const other = await staffApp(t, 'Picture thief');
    const theirs = helpAuthor(t, other);
    const stolen = await theirs.api.gql(
      'mutation($a: ID!, $b: JSON!) { saveHelpDraft(articleId: $a, language: "en", title: "Mine", blocks: $b) { language } }',
      {
        a: (await theirs.article({ versions: {} })).id,
        b: [{ type: 'image', imageUrl: made.url, alt: 'x' }],
      },
      other.owner,
    );
    expect(stolen.errors![0]!.extensions.errors!.map((e) => e.field)).toEqual(['blocks.0.imageUrl']);
    expect((await call(t.url, 'GET', '/public/v1/help/assets/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await call(t.url, 'GET', '/public/v1/help/assets/not-an-id')).status).toBe(404);
    // Help center off: its pictures are not answered either.
    await updateSettings(t.ctx, app.modes.live, { helpOn: false });
    expect((await fetch(reachable(t, made.url), { redirect: 'manual' })).status).toBe(404);
    await updateSettings(t.ctx, app.modes.live, { helpOn: true });
  });

  it('refuses bytes that are not the picture declared', async () => {
    const made = (
      await author.api.ok(
        'mutation($m: ID!) { createHelpPicture(appModeId: $m, type: png, size: 5) { uploadUrl uploadMethod uploadHeaders } }',
        { m: app.modes.live },
      )
    ).createHelpPicture;
    const put = await fetch(reachable(t, made.uploadUrl), { method: made.uploadMethod, headers: made.uploadHeaders, body: 'hello' });
    expect(put.status).toBe(422);
    expect((await put.json()).code).toBe('picture_invalid');
    expect(
      await author.api.refused('mutation($m: ID!) { createHelpPicture(appModeId: $m, type: png, size: 0) { id } }', { m: app.modes.live }),
    ).toMatchObject({ errors: [{ field: 'size' }] });
  });
});
