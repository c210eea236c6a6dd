import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffApp, type StaffApp } from './support/factories.js';
import { guestReader, helpAuthor } from './support/help.js';
import { startTestServer, type TestServer } from './support/server.js';

// Staff writing the help center: collections nest one level, their names per language, the order
// of collections and articles as readers see it, drafts and published versions as staff see them,
// and the outbox row a publish writes.

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

async function fresh(): Promise<{ app: StaffApp; author: ReturnType<typeof helpAuthor>; reader: Awaited<ReturnType<typeof guestReader>> }> {
  const app = await staffApp(t, 'Authoring app');
  const author = helpAuthor(t, app);
  await author.languages(['en', 'de'], 'en');
  return { app, author, reader: await guestReader(t, app) };
}

describe('collections', () => {
  it('nest one level, are named per language with the default as fallback, and are ordered by staff', async () => {
    const { app, author, reader } = await fresh();
    const a = await author.collection({ slug: 'alpha', names: { en: 'Alpha', de: 'Alfa' } });
    const b = await author.collection({ slug: 'beta', names: { en: 'Beta' } });
    const section = await author.collection({ slug: 'alpha-one', parentId: a.id, names: { en: 'Alpha one' } });
    for (const c of [a, b, section]) await author.article({ collectionId: c.id, versions: { en: { title: `In ${c.slug}` } } });

    const nested = await author.api.refused(
      'mutation($m: ID!, $p: ID) { createHelpCollection(appModeId: $m, slug: "too-deep", parentId: $p, texts: [{ language: "en", name: "x" }]) { id } }',
      {
        m: app.modes.live,
        p: section.id,
      },
    );
    expect(nested).toMatchObject({ code: 'invalid_request', errors: [{ field: 'parentId' }] });
    const withSections = await author.api.refused(
      'mutation($id: ID!, $p: ID) { changeHelpCollection(id: $id, input: { parentId: $p }) { id } }',
      { id: a.id, p: b.id },
    );
    expect(withSections).toMatchObject({ errors: [{ field: 'parentId' }] });
    const badText = await author.api.refused(
      'mutation($m: ID!) { createHelpCollection(appModeId: $m, slug: "x", texts: [{ language: "fr", name: "" }]) { id } }',
      { m: app.modes.live },
    );
    expect(badText.errors!.map((e: { field: string }) => e.field)).toEqual(['texts.0.language', 'texts.0.name']);

    const de = await reader.get('/collections?lang=de');
    expect(de.json.items).toEqual([
      expect.objectContaining({
        slug: 'alpha',
        name: 'Alfa',
        language: 'de',
        article_count: 2,
        sections: [expect.objectContaining({ slug: 'alpha-one', name: 'Alpha one', language: 'en', article_count: 1 })],
      }),
      expect.objectContaining({ slug: 'beta', name: 'Beta', language: 'en', article_count: 1, sections: [] }),
    ]);
    await author.api.ok('mutation($m: ID!, $ids: [ID!]!) { orderHelpCollections(appModeId: $m, ids: $ids) }', {
      m: app.modes.live,
      ids: [b.id, a.id],
    });
    const staffSees = await author.api.ok(
      'query($m: ID!) { helpCollections(appModeId: $m) { edges { node { slug position sections { edges { node { slug } } } texts { language name } } } } }',
      { m: app.modes.live },
    );
    expect(staffSees.helpCollections.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { slug: 'beta', position: 0, sections: { edges: [] }, texts: [{ language: 'en', name: 'Beta' }] },
      {
        slug: 'alpha',
        position: 1,
        sections: { edges: [{ node: { slug: 'alpha-one' } }] },
        texts: [
          { language: 'de', name: 'Alfa' },
          { language: 'en', name: 'Alpha' },
        ],
      },
    ]);
    expect((await reader.get('/collections')).json.items.map((c: { slug: string }) => c.slug)).toEqual(['beta', 'alpha']);
    const wrong = await author.api.refused('mutation($m: ID!, $ids: [ID!]!) { orderHelpCollections(appModeId: $m, ids: $ids) }', {
      m: app.modes.live,
      ids: [section.id],
    });
    expect(wrong).toMatchObject({ errors: [{ field: 'ids.0' }] });

    const one = await reader.get('/collections/alpha');
    expect(one.json).toMatchObject({
      slug: 'alpha',
      parent: null,
      items: [{ slug: expect.any(String), collection: { slug: 'alpha', name: 'Alpha' } }],
      sections: [{ slug: 'alpha-one', items: [{ title: 'In alpha-one' }] }],
    });
    expect((await reader.get('/collections/alpha-one')).json).toMatchObject({
      slug: 'alpha-one',
      parent: { slug: 'alpha', name: 'Alpha' },
      sections: [],
    });

    // Removing a collection removes its sections; their articles stay, in no collection.
    expect((await author.api.ok('mutation($id: ID!) { removeHelpCollection(id: $id) }', { id: a.id })).removeHelpCollection).toBe(true);
    expect((await reader.get('/collections')).json.items.map((c: { slug: string }) => c.slug)).toEqual(['beta']);
    const kept = await reader.get('/articles?q=alpha');
    expect(kept.json.items.map((i: { collection: unknown }) => i.collection)).toEqual([null, null]);
  });
});

describe('articles', () => {
  it('are ordered by staff within a collection, as readers see them and their related articles', async () => {
    const { app, author, reader } = await fresh();
    const c = await author.collection({ slug: 'guides', names: { en: 'Guides' } });
    const [one, two, three] = [
      await author.article({ slug: 'one', collectionId: c.id, versions: { en: { title: 'One' } } }),
      await author.article({ slug: 'two', collectionId: c.id, versions: { en: { title: 'Two' } } }),
      await author.article({ slug: 'three', collectionId: c.id, versions: { en: { title: 'Three' } } }),
    ];
    expect((await reader.get('/collections/guides')).json.items.map((i: { slug: string }) => i.slug)).toEqual(['one', 'two', 'three']);
    await author.api.ok('mutation($m: ID!, $c: ID, $ids: [ID!]!) { orderHelpArticles(appModeId: $m, collectionId: $c, ids: $ids) }', {
      m: app.modes.live,
      c: c.id,
      ids: [three!.id, one!.id, two!.id],
    });
    expect((await reader.get('/collections/guides')).json.items.map((i: { slug: string }) => i.slug)).toEqual(['three', 'one', 'two']);
    expect((await reader.get('/articles/two')).json.related.map((i: { slug: string }) => i.slug)).toEqual(['three', 'one']);
    // Without words, the staff's order among articles read equally often.
    expect((await reader.get('/articles')).json.items.map((i: { slug: string }) => i.slug)).toEqual(['three', 'one', 'two']);
  });

  it('shows staff the draft and the published version of each language, and writes the publish to the outbox', async () => {
    const { app, author } = await fresh();
    const a = await author.article({ slug: 'versions', versions: { en: { title: 'Published words' } } });
    await author.draft(a.id, 'en', { title: 'Draft words', summary: 'Soon' });
    await author.draft(a.id, 'de', { title: 'Deutscher Entwurf' });
    const seen = await author.api.ok(
      'query($id: ID!) { helpArticle(id: $id) { slug audience drafts { edges { node { language title summary } } } published { edges { node { language title } } } } }',
      { id: a.id },
    );
    const nodes = (c: { edges: { node: unknown }[] }) => c.edges.map((e) => e.node);
    expect({ ...seen.helpArticle, drafts: nodes(seen.helpArticle.drafts), published: nodes(seen.helpArticle.published) }).toEqual({
      slug: 'versions',
      audience: 'everyone',
      drafts: [
        { language: 'de', title: 'Deutscher Entwurf', summary: '' },
        { language: 'en', title: 'Draft words', summary: 'Soon' },
      ],
      published: [{ language: 'en', title: 'Published words' }],
    });
    const other = await author.article({ slug: 'other', versions: { en: { title: 'Other' } } });
    expect((await (await guestReader(t, app)).post('/articles/other/rating', { helpful: true })).status).toBe(204);
    // Each article's figures, a page of them read together.
    const listed = await author.api.ok(
      'query($m: ID!) { helpArticles(appModeId: $m, first: 10) { edges { node { slug stats { language helpful } } } pageInfo { hasNextPage } } }',
      { m: app.modes.live },
    );
    expect(listed.helpArticles.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { slug: 'versions', stats: [] },
      { slug: other.slug, stats: [{ language: 'en', helpful: 1 }] },
    ]);

    await author.publish(a.id, 'de');
    const rows = await t.svc.db.outboxEvent.findMany({
      where: { appModeId: app.modes.live, topic: 'help.article_published' },
      orderBy: { id: 'asc' },
    });
    expect(rows.map((r) => r.data).filter((d) => (d as { article_id: string }).article_id === a.id)).toEqual([
      { article_id: a.id, slug: 'versions', language: 'en' },
      { article_id: a.id, slug: 'versions', language: 'de' },
    ]);
    const none = await author.api.refused('mutation($a: ID!) { publishHelpArticle(articleId: $a, language: "fr") { language } }', {
      a: a.id,
    });
    expect(none).toMatchObject({ code: 'no_draft' });
  });
});
