import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberOf, staffApp, type StaffApp } from './support/factories.js';
import { banner, carousel, inAppStaff, post, screen } from './support/inapp.js';
import { startTestServer, type TestServer } from './support/server.js';

// Messages on the staff API: made as drafts, their content read to the spec's models (blocks,
// formatting only in posts and carousels, https images, links declared by the app), carousels to
// their limits and graph, unknown words kept, states moved as the rules allow, and who may write.

let t: TestServer;
let app: StaffApp;
beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t);
});
afterAll(() => t?.close());

const staff = inAppStaff(
  () => t,
  () => app.owner,
);
const fields = (r: { errors?: { field: string }[] }) => (r.errors ?? []).map((e) => e.field);

describe('content', () => {
  it('is kept by kind as the app reads it: a banner, a post with formatting, a carousel', async () => {
    const b = await staff.create(app.modes.live, 'banner', {
      content: { ...banner(), link: 'https://example.com/sale', position: 'bottom', dismissible: false },
    });
    expect(b).toMatchObject({
      kind: 'banner',
      state: 'draft',
      variants: [
        {
          key: 'a',
          weight: 100,
          content: {
            blocks: [{ type: 'paragraph', spans: [{ text: 'Hello there' }] }],
            link: 'https://example.com/sale',
            position: 'bottom',
            dismissible: false,
          },
        },
      ],
    });
    const p = await staff.create(app.modes.live, 'post', {
      content: { ...post(), buttons: [{ id: 'go', label: 'Go', link: 'https://example.com', style: 'secondary' }] },
    });
    expect(p.variants[0].content.blocks[1]).toEqual({ type: 'paragraph', spans: [{ text: 'Read on' }], size: 'large' });
    const c = await staff.create(app.modes.live, 'carousel', {
      content: carousel([screen('one', { buttons: [{ id: 'next', label: 'Next', do: 'next' }] }), screen('two')], {
        progress: 'dots',
        locked: true,
      }),
    });
    expect(c.variants[0].content).toMatchObject({
      screens: [{ id: 'one', buttons: [{ id: 'next', do: 'next' }] }, { id: 'two' }],
      progress: 'dots',
      locked: true,
    });
  });

  it('refuses formatting members outside posts and carousels, naming the member', async () => {
    const r = await staff.createRefused(app.modes.live, 'banner', {
      content: { blocks: [{ type: 'paragraph', spans: [{ text: 'Hi' }], color: '#ff0000' }] },
    });
    expect(r).toMatchObject({ code: 'invalid_request', errors: [{ field: 'content.blocks.0.color' }] });
  });

  it('refuses a heading level beyond 1 to 3, an image that is not https and a link that is neither https nor a path', async () => {
    const r = await staff.createRefused(app.modes.live, 'post', {
      content: {
        blocks: [
          { type: 'heading', level: 4, spans: [{ text: 'Big' }] },
          { type: 'image', imageUrl: 'http://example.com/a.png' },
          { type: 'link', label: 'Go', link: 'ftp://example.com' },
        ],
        image: { url: 'http://example.com/b.png' },
      },
    });
    expect(fields(r)).toEqual(['content.blocks.0.level', 'content.blocks.1.imageUrl', 'content.blocks.2.link', 'content.image.url']);
  });

  it('keeps a word it does not know and says which words will be drawn as the default', async () => {
    const c = await staff.create(app.modes.live, 'carousel', {
      content: carousel([screen('one', { layout: 'hologram', buttons: [{ id: 'b', label: 'On', do: 'teleport' }] }), screen('two')], {
        presentation: 'sheet',
      }),
    });
    expect(c.variants[0].content.screens[0]).toMatchObject({ layout: 'hologram', buttons: [{ do: 'teleport' }] });
    expect(c.variants[0].unknownWords).toEqual(['screens.0.layout', 'screens.0.buttons.0.do']);
    // A badly formed word is refused.
    expect(
      fields(await staff.createRefused(app.modes.live, 'carousel', { content: carousel([screen('one', { layout: 'Not A Word' })]) })),
    ).toEqual(['content.screens.0.layout']);
  });
});

describe('carousel limits', () => {
  const refusedFields = async (content: unknown) => fields(await staff.createRefused(app.modes.live, 'carousel', { content }));

  it('holds 1 to 50 screens', async () => {
    expect(await refusedFields(carousel([]))).toEqual(['content.screens']);
    expect(await refusedFields(carousel(Array.from({ length: 51 }, (_, i) => screen(`s${i}`))))).toEqual(['content.screens']);
    const fifty = await staff.create(app.modes.live, 'carousel', {
      content: carousel(Array.from({ length: 50 }, (_, i) => screen(`s${i}`))),
    });
    expect(fifty.variants[0].content.screens).toHaveLength(50);
  });

  it('has at most 3 buttons a screen and 2 to 8 options a choice', async () => {
    const buttons = Array.from({ length: 4 }, (_, i) => ({ id: `b${i}`, label: `B${i}` }));
    expect(await refusedFields(carousel([screen('one', { buttons })]))).toEqual(['content.screens.0.buttons']);
    const options = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `o${i}`, label: `O${i}` }));
    expect(await refusedFields(carousel([screen('one', { choice: { options: options(1) } })]))).toEqual([
      'content.screens.0.choice.options',
    ]);
    expect(await refusedFields(carousel([screen('one', { choice: { options: options(9), multiple: true } })]))).toEqual([
      'content.screens.0.choice.options',
    ]);
    const eight = await staff.create(app.modes.live, 'carousel', {
      content: carousel([screen('one', { choice: { options: options(8), multiple: true } })]),
    });
    expect(eight.variants[0].content.screens[0].choice.options).toHaveLength(8);
  });

  it('refuses a branch target that names no screen, naming the field', async () => {
    expect(
      await refusedFields(carousel([screen('one', { buttons: [{ id: 'b', label: 'B', screen: 'nowhere' }] }), screen('two')])),
    ).toEqual(['content.screens.0.buttons.0.screen']);
    expect(await refusedFields(carousel([screen('one', { next: 'three' }), screen('two')]))).toEqual(['content.screens.0.next']);
    expect(
      await refusedFields(
        carousel([
          screen('one', {
            choice: {
              options: [
                { id: 'x', label: 'X', next: 'zz' },
                { id: 'y', label: 'Y', next: 'end' },
              ],
            },
          }),
        ]),
      ),
    ).toEqual(['content.screens.0.choice.options.0.next']);
    expect(await refusedFields(carousel([screen('one'), screen('one')]))).toEqual(['content.screens.1.id']);
  });

  it('refuses a screen reachable from the start with no way to the end, naming the screen; loops with a way out are kept', async () => {
    // one → two → three → two for ever: none of them reaches the end.
    const loop = carousel([screen('one'), screen('two', { next: 'three' }), screen('three', { next: 'two' })]);
    expect(await refusedFields(loop)).toEqual(['content.screens.0', 'content.screens.1', 'content.screens.2']);
    // A screen left only by a close button.
    expect(await refusedFields(carousel([screen('one', { buttons: [{ id: 'x', label: 'Close', do: 'close' }] })]))).toEqual([
      'content.screens.0',
    ]);
    // The same loop with a way out, and an unreachable dead end, are fine.
    const kept = carousel([
      screen('one'),
      screen('two', {
        choice: {
          options: [
            { id: 'again', label: 'Again', next: 'three' },
            { id: 'done', label: 'Done', next: 'end' },
          ],
        },
      }),
      screen('three', { next: 'two' }),
      screen('island', { next: 'island' }),
    ]);
    kept.screens[0] = screen('one', { next: 'two' });
    expect((await staff.create(app.modes.live, 'carousel', { content: kept })).variants[0].content.screens).toHaveLength(4);
  });
});

describe('links', () => {
  it('allow a product path only when one of the app’s declared links names it', async () => {
    const own = await staffApp(t);
    const ownStaff = inAppStaff(
      () => t,
      () => own.owner,
    );
    const linked = (link: string) => ({
      content: {
        blocks: [
          { type: 'link', label: 'Offer', link },
          { type: 'paragraph', spans: [{ text: 'See', link }] },
        ],
      },
    });
    expect(fields(await ownStaff.createRefused(own.modes.live, 'banner', linked('/offers/42')))).toEqual([
      'content.blocks.0.link',
      'content.blocks.1.spans.0.link',
    ]);
    const { appUser } = await import('./support/inapp.js');
    const user = appUser(t, own.live, 'phone-1');
    expect(
      (await user.links({ app_version: '3.0', digest: 'd1', links: [{ name: 'Offer', path: '/offers/{offer_id}', screen: 'offer' }] }))
        .status,
    ).toBe(204);
    expect((await ownStaff.create(own.modes.live, 'banner', linked('/offers/42?from=banner'))).variants[0].content.blocks[0].link).toBe(
      '/offers/42?from=banner',
    );
    expect(fields(await ownStaff.createRefused(own.modes.live, 'banner', linked('/offers/42/extra')))).toEqual([
      'content.blocks.0.link',
      'content.blocks.1.spans.0.link',
    ]);
    // Links declared in the test mode do not count for the live mode; https addresses always do.
    expect(fields(await ownStaff.createRefused(own.modes.test, 'banner', linked('/offers/42')))).toEqual([
      'content.blocks.0.link',
      'content.blocks.1.spans.0.link',
    ]);
    expect((await ownStaff.create(own.modes.test, 'banner', linked('https://example.com/offers/42'))).id).toEqual(expect.any(String));
  });
});

describe('messages', () => {
  it('move draft → live ⇄ paused → ended and no other way', async () => {
    const m = await staff.create(app.modes.live, 'banner', { content: banner() });
    expect(await staff.refused('mutation($id: ID!) { setInAppMessageState(id: $id, state: paused) { id } }', { id: m.id })).toMatchObject({
      code: 'state_change_refused',
      status: 409,
    });
    t.clock.advance(1000);
    const live = await staff.state(m.id, 'live');
    expect(live.liveAt).toEqual(expect.any(String));
    expect((await staff.state(m.id, 'paused')).state).toBe('paused');
    t.clock.advance(1000);
    // Going live again keeps when it first went live.
    expect((await staff.state(m.id, 'live')).liveAt).toBe(live.liveAt);
    expect((await staff.state(m.id, 'ended')).state).toBe('ended');
    expect(await staff.refused('mutation($id: ID!) { setInAppMessageState(id: $id, state: live) { id } }', { id: m.id })).toMatchObject({
      code: 'state_change_refused',
    });
    expect(
      await staff.refused('mutation($id: ID!) { changeInAppMessage(id: $id, input: { name: "Again" }) { id } }', { id: m.id }),
    ).toMatchObject({ code: 'message_ended' });
    expect(await staff.refused('mutation($id: ID!) { deleteInAppMessage(id: $id) }', { id: m.id })).toMatchObject({
      code: 'message_not_draft',
    });
  });

  it('are changed field by field and read with their schedule, window, quiet hours, variants and goal', async () => {
    const m = await staff.create(app.modes.live, 'banner', { content: banner() });
    const changed = (
      await staff.ok(
        `mutation($id: ID!, $i: InAppMessageInput!) { changeInAppMessage(id: $id, input: $i) { name priority show startAt stopAt controlWeight sendingWindow { days from to } quietHours { from to } goal variants { key weight } screens } }`,
        {
          id: m.id,
          i: {
            priority: 5,
            show: 'until_dismissed',
            startAt: '2030-01-01T00:00:00Z',
            stopAt: '2030-02-01T00:00:00Z',
            sendingWindow: { days: [5, 1, 1], from: '09:00', to: '17:30' },
            quietHours: { from: '22:00', to: '07:00' },
            variants: [
              { key: 'a', weight: 40, content: banner('A') },
              { key: 'b', weight: 40, content: banner('B') },
            ],
            controlWeight: 20,
            screens: ['checkout', 'home'],
            goal: { event: 'app_opened', days: 7 },
          },
        },
      )
    ).changeInAppMessage;
    expect(changed).toEqual({
      name: 'A message',
      priority: 5,
      show: 'until_dismissed',
      startAt: '2030-01-01T00:00:00.000Z',
      stopAt: '2030-02-01T00:00:00.000Z',
      controlWeight: 20,
      sendingWindow: { days: [1, 5], from: '09:00', to: '17:30' },
      quietHours: { from: '22:00', to: '07:00' },
      goal: { event: 'app_opened', days: 7 },
      variants: [
        { key: 'a', weight: 40 },
        { key: 'b', weight: 40 },
      ],
      screens: ['checkout', 'home'],
    });
    const r = await staff.refused(`mutation($id: ID!, $i: InAppMessageInput!) { changeInAppMessage(id: $id, input: $i) { id } }`, {
      id: m.id,
      i: {
        stopAt: '2029-01-01T00:00:00Z',
        sendingWindow: { days: [7], from: '9am', to: '17:00' },
        variants: [
          { key: 'control', weight: 0, content: banner() },
          { key: 'b', weight: 10, content: {} },
        ],
        goal: { days: 0 },
        topic: 'no-such-topic',
      },
    });
    expect(fields(r)).toEqual([
      'variants.0.key',
      'variants.0.weight',
      'variants.1.content.blocks',
      'topic',
      'stopAt',
      'sendingWindow.days',
      'sendingWindow.from',
      'goal.days',
      'goal',
    ]);
  });

  it('are written by owners and admins, read by every member, and not found from another workspace', async () => {
    const workspaceId = app.workspaceId;
    const agent = await memberOf(t, workspaceId, 'agent');
    const admin = await memberOf(t, workspaceId, 'admin');
    expect(await staff.createRefused(app.modes.live, 'banner', { content: banner() }, agent.token)).toMatchObject({ code: 'role_forbids' });
    const m = await staff.create(app.modes.live, 'banner', { content: banner() }, admin.token);
    expect((await staff.ok('query($id: ID!) { inAppMessage(id: $id) { name } }', { id: m.id }, agent.token)).inAppMessage.name).toBe(
      'A message',
    );
    const listed = await staff.ok(
      'query($m: ID!) { inAppMessages(appModeId: $m, state: draft) { edges { node { id } } } }',
      { m: app.modes.live },
      agent.token,
    );
    expect(listed.inAppMessages.edges.map((e: any) => e.node.id)).toContain(m.id);
    const other = await staffApp(t, 'Other');
    expect(await staff.refused('query($id: ID!) { inAppMessage(id: $id) { id } }', { id: m.id }, other.owner)).toMatchObject({
      code: 'not_found',
    });
    expect(
      await staff.refused('mutation($id: ID!) { setInAppMessageState(id: $id, state: live) { id } }', { id: randomUUID() }),
    ).toMatchObject({ code: 'not_found' });
    // A draft is deleted.
    expect((await staff.ok('mutation($id: ID!) { deleteInAppMessage(id: $id) }', { id: m.id }, admin.token)).deleteInAppMessage).toBe(true);
  });
});
