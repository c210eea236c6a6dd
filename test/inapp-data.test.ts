import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffApp, unique, type StaffApp } from './support/factories.js';
import { call } from './support/http.js';
import { appUser, banner, inAppStaff } from './support/inapp.js';
import { startTestServer, type TestServer } from './support/server.js';

// Data life of in-app messages: the export's `receipts`, `testPhone` and `testSends`, and an erase
// that leaves none of them (nor the last check-in) in either mode; a person erased within the
// block is answered nothing at check-in, 404 when opening a message, and nothing is kept.

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
const server = (mode: 'live' | 'test' = 'live') => ({ Authorization: `Bearer ${app[mode].server_key}` });

/** A person who was sent a message, saw it, is a test phone and was sent a test copy, in one mode. */
async function fill(sub: string, mode: 'live' | 'test') {
  const m = await staff.live(app.modes[mode], 'banner', { content: banner(), audience: { field: 'external_id', op: 'is', value: sub } });
  const u = appUser(t, app[mode], sub);
  await u.checkedIn();
  await u.receipt({ message_id: m.id, variant: 'a', action: 'seen' });
  await staff.ok('mutation($m: ID!, $x: String!) { markTestPhone(appModeId: $m, externalId: $x) { label } }', {
    m: app.modes[mode],
    x: sub,
  });
  const sent = (
    await staff.ok('mutation($id: ID!, $x: String!) { sendInAppTest(messageId: $id, externalId: $x) { id } }', { id: m.id, x: sub })
  ).sendInAppTest;
  return { m, sent };
}

describe('export', () => {
  it('holds the receipts, testPhone and testSends', async () => {
    const sub = unique('exported');
    const { m, sent } = await fill(sub, 'live');
    const r = await call(t.url, 'GET', `/server/v1/contacts/${sub}/export`, { headers: server() });
    expect(r.status).toBe(200);
    const now = expect.any(String);
    expect(r.json.receipts).toEqual([
      { message: m.id, kind: 'banner', variant: 'a', sentAt: now, seenAt: now, clickedAt: null, dismissedAt: null, completedAt: null },
    ]);
    expect(r.json.testPhone).toBe(true);
    expect(r.json.testSends).toEqual([
      {
        id: sent.id,
        message: m.id,
        kind: 'banner',
        variant: 'a',
        sentAt: now,
        deliveredAt: null,
        seenAt: null,
        clickedAt: null,
        dismissedAt: null,
        completedAt: null,
      },
    ]);
  });
});

describe('erase', () => {
  it('removes receipts, test phones, test copies and check-ins in both modes, and says how many', async () => {
    const sub = unique('erased');
    await fill(sub, 'live');
    await fill(sub, 'test');
    const contactIds = (await t.svc.db.contact.findMany({ where: { externalId: sub } })).map((c) => c.id);
    const left = async () => ({
      receipts: await t.svc.db.inAppReceipt.count({ where: { contactId: { in: contactIds } } }),
      phones: await t.svc.db.inAppTestPhone.count({ where: { contactId: { in: contactIds } } }),
      sends: await t.svc.db.inAppTestSend.count({ where: { contactId: { in: contactIds } } }),
      checkins: await t.svc.db.inAppCheckin.count({ where: { contactId: { in: contactIds } } }),
    });
    expect(await left()).toEqual({ receipts: 2, phones: 2, sends: 2, checkins: 2 });
    expect((await call(t.url, 'DELETE', `/server/v1/contacts/${sub}`, { headers: server() })).status).toBe(202);
    await t.engine.runDue();
    expect(await left()).toEqual({ receipts: 0, phones: 0, sends: 0, checkins: 0 });
    const request = await t.svc.db.eraseRequest.findFirstOrThrow({
      where: { appId: app.appId, state: 'done' },
      orderBy: { requestedAt: 'desc' },
    });
    expect(request.removed).toMatchObject({ inAppReceipts: 2, inAppTestPhones: 2, inAppTestSends: 2, inAppCheckins: 2 });
    // Within the block a check-in answers nothing and keeps nothing.
    t.clock.advance(21_000);
    const after = appUser(t, app.live, sub);
    expect(await after.checkedIn()).toMatchObject({ messages: [], throttled: false, testPhone: false });
    const live = await staff.live(app.modes.live, 'banner', { content: banner() });
    expect((await after.open(live.id)).status).toBe(404);
    expect((await after.receipt({ message_id: live.id, variant: 'a', action: 'seen' })).status).toBe(204);
    expect(await t.svc.db.inAppReceipt.count({ where: { messageId: live.id } })).toBe(0);
    expect(await t.svc.db.contact.count({ where: { externalId: sub } })).toBe(0);
  });
});
