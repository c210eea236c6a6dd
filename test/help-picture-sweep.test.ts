import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepUnnamedHelpPictures, UNNAMED_PICTURE_HOURS } from '../src/domain/help/picture-sweep.js';
import { pictureKey } from '../src/domain/help/pictures.js';
import { staffApp, type StaffApp } from './support/factories.js';
import { helpAuthor } from './support/help.js';
import { png, reachable } from './support/pictures.js';
import { startTestServer, type TestServer } from './support/server.js';

// The sweep of help pictures no article names: a picture a day old that no draft and no published
// version (any language) of its app-mode's articles names goes, row and bytes; a younger one and a
// named one stay, and one an article stops naming goes at a later pass. Staff upload and write
// through the staff API; the pictures are read on their public asset route.

let t: TestServer;
let app: StaffApp;
let author: ReturnType<typeof helpAuthor>;

beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t, 'Picture sweep app');
  author = helpAuthor(t, app);
  await author.languages(['en', 'de'], 'en');
});
afterAll(async () => {
  await t?.close();
});

const DAY = UNNAMED_PICTURE_HOURS * 3_600_000;

/** A picture made and uploaded as staff do: its id and the address an image block names. */
async function picture(): Promise<{ id: string; url: string }> {
  const bytes = png(4, 3);
  const made = (
    await author.api.ok(
      'mutation($m: ID!, $n: Int!) { createHelpPicture(appModeId: $m, type: png, size: $n) { id url uploadUrl uploadMethod uploadHeaders } }',
      { m: app.modes.live, n: bytes.length },
    )
  ).createHelpPicture;
  const put = await fetch(reachable(t, made.uploadUrl), {
    method: made.uploadMethod,
    headers: made.uploadHeaders,
    body: new Uint8Array(bytes),
  });
  expect(put.status).toBe(204);
  return { id: made.id, url: made.url };
}

const image = (p: { url: string }) => [
  { type: 'paragraph', spans: [{ text: 'See:' }] },
  { type: 'image', imageUrl: p.url, alt: 'Screen' },
];

async function saveDraft(articleId: string, language: string, body: unknown[]) {
  const saved = await author.draft(articleId, language, { title: 'With pictures', body });
  expect(saved.errors).toBeUndefined();
}

/** What the picture's public address answers (302 to its bytes, 404 once it is gone). */
const assetStatus = async (p: { url: string }) => (await fetch(reachable(t, p.url), { redirect: 'manual' })).status;
const rowOf = (p: { id: string }) => t.svc.db.helpPicture.findUnique({ where: { id: p.id } });
const bytesOf = (p: { id: string }) => t.svc.blobs.head(pictureKey(app.modes.live, p.id), 8);

async function expectKept(p: { id: string; url: string }) {
  expect(await rowOf(p)).not.toBeNull();
  expect(await bytesOf(p)).toBeDefined();
  expect(await assetStatus(p)).toBe(302);
}
async function expectRemoved(p: { id: string; url: string }) {
  expect(await rowOf(p)).toBeNull();
  expect(await bytesOf(p)).toBeUndefined();
  expect(await assetStatus(p)).toBe(404);
}

describe('the sweep of help pictures no article names', () => {
  it('removes a day-old picture no version names, and keeps younger ones and those a draft or a published version names', async () => {
    const unnamed = await picture();
    const inDraft = await picture();
    const inGermanPublished = await picture();
    const droppedLater = await picture();

    // Named only by an English draft that was never published.
    const drafted = await author.article({ versions: {} });
    await saveDraft(drafted.id, 'en', image(inDraft));
    // Named only by the German published version: the German draft dropped it after the publish,
    // and the English version never named it.
    const published = await author.article({
      versions: { en: { title: 'Without pictures' }, de: { title: 'Mit Bild', body: image(inGermanPublished) } },
    });
    await saveDraft(published.id, 'de', [{ type: 'paragraph', spans: [{ text: 'Kein Bild mehr.' }] }]);
    // Named by a draft now, dropped after the first pass.
    const changing = await author.article({ versions: {} });
    await saveDraft(changing.id, 'en', image(droppedLater));

    t.clock.advance(DAY + 60_000);
    const young = await picture();
    for (const p of [unnamed, inDraft, inGermanPublished, droppedLater, young]) await expectKept(p);

    await sweepUnnamedHelpPictures(t.ctx);
    await expectRemoved(unnamed);
    for (const p of [inDraft, inGermanPublished, droppedLater, young]) await expectKept(p);
    // Nothing more to remove at once: the named ones are not looked at again on every pass.
    expect(await sweepUnnamedHelpPictures(t.ctx)).toBe(0);

    // The draft stops naming it: the next look, a day after it was found named, removes it; the
    // young one is a day old by then and named by nothing, so it goes too.
    await saveDraft(changing.id, 'en', [{ type: 'paragraph', spans: [{ text: 'No picture.' }] }]);
    t.clock.advance(DAY + 60_000);
    await sweepUnnamedHelpPictures(t.ctx);
    await expectRemoved(droppedLater);
    await expectRemoved(young);
    for (const p of [inDraft, inGermanPublished]) await expectKept(p);
  });

  it('does not let a draft name a picture a sweep is removing: the draft waits for it, then is refused', async () => {
    const p = await picture();
    const article = await author.article({ versions: {} });
    // A sweep's transaction holds the picture (as the sweep locks it) and removes it, not yet committed.
    const sweep = new pg.Client({ connectionString: t.dbUrl });
    await sweep.connect();
    try {
      await sweep.query('BEGIN');
      await sweep.query('SELECT id FROM help_picture WHERE id = $1 FOR UPDATE', [p.id]);
      await sweep.query('DELETE FROM help_picture WHERE id = $1', [p.id]);
      let settled = false;
      const saving = author.draft(article.id, 'en', { title: 'Late picture', body: image(p) }).finally(() => (settled = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(settled).toBe(false);
      await sweep.query('COMMIT');
      const saved = await saving;
      expect(saved.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_request', errors: [{ field: 'blocks.1.imageUrl' }] });
      expect(await t.svc.db.helpArticleDraft.findMany({ where: { articleId: article.id } })).toEqual([]);
    } finally {
      await sweep.end();
    }
  });

  it('removes pictures whose bytes never came, passing over the missing bytes', async () => {
    const made = (
      await author.api.ok('mutation($m: ID!) { createHelpPicture(appModeId: $m, type: png, size: 10) { id url } }', { m: app.modes.live })
    ).createHelpPicture;
    expect(await bytesOf(made)).toBeUndefined();
    t.clock.advance(DAY + 60_000);
    await sweepUnnamedHelpPictures(t.ctx);
    expect(await rowOf(made)).toBeNull();
  });
});
