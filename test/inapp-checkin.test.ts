import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exec, sql } from '../src/db/sql.js';
import { peopleInFlight } from '../src/domain/inapp/beside.js';
import { FIRST_ANSWER_WAIT_MS } from '../src/domain/inapp/checkin.js';
import { recordWritesWaiting } from '../src/domain/inapp/record.js';
import { queriesDuring } from './support/db.js';
import { staffApp, unique, type StaffApp } from './support/factories.js';
import { appUser, banner, carousel, inAppStaff, post, ownInAppApp } from './support/inapp.js';
import { startTestServer, type TestServer } from './support/server.js';

// Check-in, black-box: who gets which message, when and where (audience, schedule, sending window
// in the person's own zone, screens), one large message a session, shown once or until dismissed,
// the daily cap, the 20-second throttle, preferences, and the app switched off.

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
/** A fresh app of its own, so a test sees only its own messages. */
const ownApp = () => ownInAppApp(t);
const ids = (answer: { messages: { id: string }[] }) => answer.messages.map((m) => m.id);
/** Past the 20-second spacing. */
const later = () => t.clock.advance(21_000);

describe('check-in', () => {
  it('answers the live messages in order with the spec’s members, each content under its kind', async () => {
    const { own, staff, user } = await ownApp();
    const low = await staff.live(own.modes.live, 'banner', { content: banner('Low'), priority: 1 });
    const high = await staff.live(own.modes.live, 'post', { content: post('High'), priority: 9 });
    await staff.create(own.modes.live, 'banner', { content: banner('Draft') });
    const answer = await user().checkedIn();
    expect(answer).toEqual({
      messages: [
        { id: high.id, kind: 'post', variant: 'a', test: false, screens: [], post: high.variants[0].content },
        { id: low.id, kind: 'banner', variant: 'a', test: false, screens: [], banner: low.variants[0].content },
      ],
      unread: 0,
      nextCheckinSeconds: 20,
      throttled: false,
      testPhone: false,
      unreadNotices: 0,
      sendLinks: false,
    });
  });

  it('lets the audience decide who gets what: attributes and events', async () => {
    const { own, staff, user, server } = await ownApp();
    await server.identify('seed', { attributes: { plan: 'pro' } });
    await server.declareEvents([{ name: 'order_placed', source: 'both' }]);
    const pro = await staff.live(own.modes.live, 'banner', {
      content: banner('Pro'),
      audience: { attribute: 'plan', op: 'is', value: 'pro' },
    });
    const buyers = await staff.live(own.modes.live, 'banner', {
      content: banner('Buyers'),
      audience: { event: 'order_placed', withinDays: 7, count: { op: 'gte', value: 2 } },
    });
    const freeUser = user();
    await server.identify(freeUser.sub, { attributes: { plan: 'free' } });
    expect(ids(await freeUser.checkedIn())).toEqual([]);
    const proUser = user();
    await server.identify(proUser.sub, { attributes: { plan: 'pro' } });
    const at = (days: number) => new Date(t.clock.now().getTime() - days * 86_400_000).toISOString();
    await server.sendEvents([
      { id: unique('e'), external_id: proUser.sub, name: 'order_placed', at: at(1) },
      { id: unique('e'), external_id: proUser.sub, name: 'order_placed', at: at(10) },
    ]);
    expect(ids(await proUser.checkedIn())).toEqual([pro.id]);
    await server.sendEvents([{ id: unique('e'), external_id: proUser.sub, name: 'order_placed', at: at(2) }]);
    later();
    proUser.newSession();
    // The banner for pro users again (not seen yet), and now the one for buyers.
    expect(ids(await proUser.checkedIn())).toEqual([pro.id, buyers.id]);
  });

  it('keeps to the schedule and to the sending window and quiet hours in the person’s own zone', async () => {
    const { own, staff, user } = await ownApp();
    const now = t.clock.now();
    const scheduled = await staff.live(own.modes.live, 'banner', {
      content: banner(),
      startAt: new Date(now.getTime() + 3_600_000).toISOString(),
      stopAt: new Date(now.getTime() + 7_200_000).toISOString(),
    });
    const u = user();
    expect(ids(await u.checkedIn())).toEqual([]);
    t.clock.advance(3_600_000);
    expect(ids(await u.checkedIn())).toEqual([scheduled.id]);
    await staff.state(scheduled.id, 'ended');

    // Every day from 09:00 to 17:00 where the person is, outside 12:00 to 13:00.
    const windowed = await staff.live(own.modes.live, 'banner', {
      content: banner('Window'),
      sendingWindow: { days: [0, 1, 2, 3, 4, 5, 6], from: '09:00', to: '17:00' },
      quietHours: { from: '12:00', to: '13:00' },
    });
    const hourNow = (zone: string) =>
      Number(new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(t.clock.now()));
    // A zone where it is 10:xx now, and one where it is 12:xx, and one where it is 20:xx.
    const zoneAt = (hour: number) =>
      [
        'Pacific/Kiritimati',
        'Pacific/Auckland',
        'Asia/Tokyo',
        'Asia/Kolkata',
        'Europe/Moscow',
        'Europe/Berlin',
        'UTC',
        'America/Sao_Paulo',
        'America/New_York',
        'America/Chicago',
        'America/Denver',
        'America/Los_Angeles',
        'Pacific/Honolulu',
        'Pacific/Pago_Pago',
        'Asia/Dubai',
        'Asia/Karachi',
        'Asia/Dhaka',
        'Asia/Bangkok',
        'Asia/Shanghai',
        'Australia/Brisbane',
        'Pacific/Noumea',
        'Atlantic/Azores',
        'America/Noronha',
        'America/Halifax',
      ].find((z) => hourNow(z) === hour);
    const inside = zoneAt(10) ?? zoneAt(15);
    const quiet = zoneAt(12);
    const outside = zoneAt(20) ?? zoneAt(3);
    if (inside) expect(ids(await user().checkedIn({ time_zone: inside }))).toEqual([windowed.id]);
    if (quiet) expect(ids(await user().checkedIn({ time_zone: quiet }))).toEqual([]);
    if (outside) expect(ids(await user().checkedIn({ time_zone: outside }))).toEqual([]);
    expect(inside && outside).toBeTruthy();
  });

  it('answers a message for some screens only to an app that holds messages for screens', async () => {
    const { own, staff, user } = await ownApp();
    const m = await staff.live(own.modes.live, 'banner', { content: banner(), screens: ['checkout'] });
    const u = user();
    expect(ids(await u.checkedIn({ screen: 'checkout' }))).toEqual([]);
    later();
    const answer = await u.checkedIn({ holds_for_screens: true, screen: 'home' });
    expect(answer.messages).toEqual([expect.objectContaining({ id: m.id, screens: ['checkout'] })]);
  });

  it('lets the audience aim at the screen the check-in says is on, missing when it says none', async () => {
    const { own, staff, user } = await ownApp();
    const checkout = await staff.live(own.modes.live, 'banner', {
      content: banner('At checkout'),
      audience: { field: 'screen', op: 'is', value: 'checkout' },
    });
    const unnamed = await staff.live(own.modes.live, 'banner', {
      content: banner('Nowhere named'),
      audience: { field: 'screen', op: 'not_exists' },
    });
    // A person each: no throttle, no session or receipt between them.
    expect(ids(await user().checkedIn({ screen: 'checkout' }))).toEqual([checkout.id]);
    expect(ids(await user().checkedIn({ screen: 'home' }))).toEqual([]);
    expect(ids(await user().checkedIn())).toEqual([unnamed.id]);
    // The same person, on home and then, past the spacing, at checkout.
    const u = user();
    expect(ids(await u.checkedIn({ screen: 'home' }))).toEqual([]);
    later();
    expect(ids(await u.checkedIn({ screen: 'checkout' }))).toEqual([checkout.id]);
  });

  it('refuses a screen condition with an operator strings do not take, naming the path', async () => {
    const r = await staff.createRefused(app.modes.live, 'banner', {
      content: banner(),
      audience: {
        all: [
          { field: 'screen', op: 'is', value: 'home' },
          { field: 'screen', op: 'equals', value: 'checkout' },
        ],
      },
    });
    expect(r.errors!.map((e) => e.field)).toEqual(['audience.all.1.op']);
  });

  it('shows one large message a session, and a banner beside it', async () => {
    const { own, staff, user } = await ownApp();
    const first = await staff.live(own.modes.live, 'post', { content: post('First'), priority: 3 });
    const second = await staff.live(own.modes.live, 'carousel', { content: carousel(), priority: 2 });
    const small = await staff.live(own.modes.live, 'banner', { content: banner(), priority: 1 });
    const u = user();
    expect(ids(await u.checkedIn())).toEqual([first.id, small.id]);
    later();
    // The same session: nothing more (the post was its large message; the banner was answered).
    expect(ids(await u.checkedIn())).toEqual([]);
    later();
    u.newSession();
    // A new session: the post again (not yet seen), still one large message.
    expect(ids(await u.checkedIn())).toEqual([first.id, small.id]);
    await u.receipt({ message_id: first.id, variant: 'a', action: 'seen' });
    await u.receipt({ message_id: small.id, variant: 'a', action: 'seen' });
    later();
    u.newSession();
    expect(ids(await u.checkedIn())).toEqual([second.id]);
  });

  it('shows a message once until seen, or until dismissed, or until completed', async () => {
    const { own, staff, user } = await ownApp();
    const once = await staff.live(own.modes.live, 'banner', { content: banner('Once') });
    const untilDismissed = await staff.live(own.modes.live, 'banner', { content: banner('Until dismissed'), show: 'until_dismissed' });
    const u = user();
    const again = async () => {
      later();
      u.newSession();
      return ids(await u.checkedIn());
    };
    expect(ids(await u.checkedIn())).toEqual([once.id, untilDismissed.id]);
    for (const id of [once.id, untilDismissed.id])
      expect((await u.receipt({ message_id: id, variant: 'a', action: 'seen' })).status).toBe(204);
    expect(await again()).toEqual([untilDismissed.id]);
    await u.receipt({ message_id: untilDismissed.id, variant: 'a', action: 'dismissed' });
    expect(await again()).toEqual([]);
  });

  it('answers no more new messages a day than the daily cap, in the person’s own zone, the highest priority winning', async () => {
    const { own, staff, user } = await ownApp();
    await staff.ok('mutation($m: ID!) { setInAppSettings(appModeId: $m, dailyCap: 2) { dailyCap } }', { m: own.modes.live });
    const made = [];
    for (const p of [1, 3, 2])
      made.push(await staff.live(own.modes.live, 'banner', { content: banner(`P${p}`), priority: p, show: 'until_dismissed' }));
    const u = user();
    expect(ids(await u.checkedIn({ time_zone: 'UTC' }))).toEqual([made[1].id, made[2].id]);
    // Answered again in a new session the same day: not new, so within the cap.
    later();
    u.newSession();
    expect(ids(await u.checkedIn({ time_zone: 'UTC' }))).toEqual([made[1].id, made[2].id]);
    // The next day, the third is new and within the cap.
    await u.receipt({ message_id: made[1].id, variant: 'a', action: 'dismissed' });
    t.clock.advance(86_400_000);
    u.newSession();
    expect(ids(await u.checkedIn({ time_zone: 'UTC' }))).toEqual([made[2].id, made[0].id]);
  });

  it('answers a check-in sooner than 20 seconds after the last from the last, looking at nothing', async () => {
    const { own, staff, user } = await ownApp();
    const first = await staff.live(own.modes.live, 'banner', { content: banner('First') });
    const u = user();
    const answer = await u.checkedIn();
    expect(ids(answer)).toEqual([first.id]);
    // A message going live meanwhile is not looked at; the last answer is given again.
    await staff.live(own.modes.live, 'banner', { content: banner('Second') });
    t.clock.advance(5_000);
    const throttled = await u.checkedIn();
    expect(throttled).toEqual({ ...answer, throttled: true, nextCheckinSeconds: 15 });
    // Nothing was written for it: the message was answered once.
    expect(await t.svc.db.inAppReceipt.count({ where: { messageId: first.id } })).toBe(1);
    t.clock.advance(15_000);
    const next = await u.checkedIn();
    expect(next.throttled).toBe(false);
    expect(next.messages.map((m: { banner: { blocks: { spans: { text: string }[] }[] } }) => m.banner.blocks[0]!.spans[0]!.text)).toEqual([
      'Second',
    ]);
  });

  it('fifty first check-ins of a new person at once: one real, the other 49 throttled with its very messages', async () => {
    const { own, staff, user } = await ownApp();
    const m = await staff.live(own.modes.live, 'banner', { content: banner('Welcome') });
    const u = user();
    const answers = await Promise.all(Array.from({ length: 50 }, () => u.checkin()));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const real = answers.filter((a) => !a.json.throttled);
    expect(real.length).toBe(1);
    expect(ids(real[0]!.json)).toEqual([m.id]);
    for (const a of answers.filter((a) => a.json.throttled))
      expect(a.json).toEqual({ ...real[0]!.json, throttled: true, nextCheckinSeconds: 20 });
    expect(await t.svc.db.inAppReceipt.count({ where: { messageId: m.id } })).toBe(1);
  });

  it('fifty first check-ins at once with nothing to answer: one real, the others throttled with the same answer', async () => {
    const { user } = await ownApp();
    const u = user();
    const answers = await Promise.all(Array.from({ length: 50 }, () => u.checkin()));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.filter((a) => !a.json.throttled).length).toBe(1);
    const real = answers.find((a) => !a.json.throttled)!.json;
    expect(ids(real)).toEqual([]);
    for (const a of answers.filter((a) => a.json.throttled)) expect(a.json).toEqual({ ...real, throttled: true, nextCheckinSeconds: 20 });
  });

  it('fifty check-ins at once of a known person when something new went live: one real, the other 49 throttled with its messages, not the last kept', async () => {
    const { own, staff, user } = await ownApp();
    const first = await staff.live(own.modes.live, 'banner', { content: banner('First') });
    const u = user();
    expect(ids(await u.checkedIn())).toEqual([first.id]);
    const second = await staff.live(own.modes.live, 'banner', { content: banner('Second') });
    later();
    u.newSession();
    const answers = await Promise.all(Array.from({ length: 50 }, () => u.checkin()));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const real = answers.filter((a) => !a.json.throttled);
    expect(real.length).toBe(1);
    expect(ids(real[0]!.json)).toEqual([first.id, second.id]);
    for (const a of answers.filter((a) => a.json.throttled))
      expect(a.json).toEqual({ ...real[0]!.json, throttled: true, nextCheckinSeconds: 20 });
  });

  it('a throttled check-in beside a first check-in answered by another server process waits for the answer that one keeps', async () => {
    const { user } = await ownApp();
    const u = user();
    await u.checkedIn();
    // As another process leaves it while it answers a first check-in: the slot taken, no answer kept yet.
    await exec(
      t.svc,
      sql`UPDATE inapp_checkin SET last_at = ${t.clock.now()}, answer = NULL, answer_hash = NULL WHERE contact_id = (SELECT id FROM contact WHERE external_id = ${u.sub})`,
    );
    const answering = u.checkin();
    await new Promise((r) => setTimeout(r, 300));
    const theirs = { messages: [], unread: 3, testPhone: false, unreadNotices: 1, sendLinks: false };
    await exec(
      t.svc,
      sql`UPDATE inapp_checkin SET answer = ${JSON.stringify(theirs)}::jsonb, answer_hash = 'theirs' WHERE contact_id = (SELECT id FROM contact WHERE external_id = ${u.sub})`,
    );
    const r = await answering;
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ...theirs, throttled: true, nextCheckinSeconds: 20 });
  });

  it('a first check-in that claimed its slot and kept no answer (it failed): the throttled ones after it are 429, never an answer made up', async () => {
    const { own, staff, user } = await ownApp();
    await staff.live(own.modes.live, 'banner', { content: banner('Welcome') });
    const u = user();
    await u.checkedIn();
    // As a first check-in would leave it had it failed after claiming: the slot taken, no answer kept.
    await exec(
      t.svc,
      sql`UPDATE inapp_checkin SET last_at = ${t.clock.now()}, answer = NULL, answer_hash = NULL WHERE app_mode_id = ${own.modes.live}`,
    );
    t.clock.advance(5_000);
    const started = Date.now();
    const r = await u.checkin();
    expect(Date.now() - started).toBeGreaterThanOrEqual(FIRST_ANSWER_WAIT_MS - 100);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('15');
    // Once the spacing is over, a check-in is answered anew.
    later();
    u.newSession();
    expect(await u.checkedIn()).toMatchObject({ throttled: false, messages: [{ banner: { blocks: [{ spans: [{ text: 'Welcome' }] }] } }] });
  });

  it('answers nothing to someone who turned everything off, or off for the message’s topic in-app', async () => {
    const { own, staff, user } = await ownApp();
    await staff.ok('mutation($m: ID!) { addPreferenceTopic(appModeId: $m, key: "tips", name: "Tips", channels: [in_app]) { id } }', {
      m: own.modes.live,
    });
    const plain = await staff.live(own.modes.live, 'banner', { content: banner() });
    const tips = await staff.live(own.modes.live, 'banner', { content: banner('Tip'), topic: 'tips' });
    const off = user();
    expect((await off.send('PUT', '/guest/v1/preferences', { all_off: true })).status).toBe(200);
    expect(ids(await off.checkedIn())).toEqual([]);
    const noTips = user();
    expect(
      (await noTips.send('PUT', '/guest/v1/preferences', { choices: [{ topic: 'tips', channel: 'in_app', subscribed: false }] })).status,
    ).toBe(200);
    expect(ids(await noTips.checkedIn())).toEqual([plain.id]);
    expect(ids(await user().checkedIn())).toEqual([plain.id, tips.id]);
  });

  it('says when the service lacks the declared links the app’s digest names', async () => {
    const u = appUser(t, app.live, unique('user'));
    expect((await u.checkedIn({ links_digest: 'v9' })).sendLinks).toBe(true);
    await u.links({ app_version: '9.0', digest: 'v9', links: [{ name: 'Home', path: '/home' }] });
    later();
    expect((await u.checkedIn({ links_digest: 'v9' })).sendLinks).toBe(false);
  });

  it('is 404 on every in-app route while in-app messages are switched off', async () => {
    const { own, staff, user } = await ownApp();
    const m = await staff.live(own.modes.live, 'banner', { content: banner() });
    await staff.ok('mutation($m: ID!) { updateAppSettings(appModeId: $m, input: { inappOn: false }) { inappOn } }', { m: own.modes.live });
    const u = user();
    expect((await u.checkin()).status).toBe(404);
    expect((await u.open(m.id)).status).toBe(404);
    expect((await u.receipt({ message_id: m.id, variant: 'a', action: 'seen' })).status).toBe(404);
    expect((await u.links({ app_version: '1', digest: 'd', links: [] })).status).toBe(404);
  });

  it('reads the person in one statement, the live messages from memory, whatever their number', async () => {
    const { own, staff, user, server } = await ownApp();
    await server.identify('seed', { attributes: { plan: 'pro', seats: 3 } });
    await server.declareEvents([{ name: 'order_placed', source: 'both' }]);
    for (let i = 0; i < 20; i++) {
      await staff.live(own.modes.live, 'banner', {
        content: banner(`M${i}`),
        audience: {
          all: [
            { attribute: 'plan', op: 'is', value: 'team' },
            { event: 'order_placed', withinDays: i + 1 },
          ],
        },
      });
    }
    const u = user();
    await u.checkedIn();
    // A check-in that answers nothing new: one statement (the outbox dispatcher's passes, and the
    // guest limits' grants that the moved clock lets lapse, aside).
    const statements = async () => {
      later();
      return queriesDuring(
        async () => void (await u.checkedIn()),
        (text) => !/outbox_|crm_rate_grant/.test(text),
      );
    };
    expect(Math.min(await statements(), await statements(), await statements())).toBe(1);
  });

  it('answers a message in two statements: the person read, then everything it wrote with the answer kept', async () => {
    const { own, staff, user } = await ownApp();
    const m = await staff.live(own.modes.live, 'banner', { content: banner('Counted once') });
    const u = user();
    await u.checkedIn(); // the contact made, the first session answered
    const answers: { messages: { id: string }[] }[] = [];
    const answering = async () => {
      later();
      u.newSession();
      // The check-in's own statements: what reads or writes the person's in-app rows, the erase check and the outbox (not the dispatcher's reads).
      return queriesDuring(
        async () => void answers.push(await u.checkedIn()),
        (text) => /inapp_|crm_erased|outbox_event|pg_notify/.test(text) && !/^\s*SELECT (id, tx_id|coalesce\(max)/.test(text),
      );
    };
    expect(Math.min(await answering(), await answering())).toBe(2);
    expect(answers.map(ids)).toEqual([[m.id], [m.id]]);
    // The answer was kept with it: a check-in within the spacing gets it again, throttled.
    const again = await u.checkedIn();
    expect(again).toMatchObject({ throttled: true });
    expect(ids(again)).toEqual([m.id]);
  });

  it('commits the writes of many people checking in at once together, each as alone: every message answered and counted once, every answer kept', async () => {
    const { own, staff, user } = await ownApp();
    const m = await staff.live(own.modes.live, 'banner', { content: banner('Grouped') });
    const people = Array.from({ length: 24 }, () => user());
    // Transactions that wrote a check-in's records, and statements that kept an answer, on any connection.
    let recordTransactions = 0;
    let keeps = 0;
    const open = new WeakMap<object, boolean>();
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string } | undefined)?.text ?? '');
      if (text === 'BEGIN') open.set(this, false);
      else if (text === 'COMMIT' || text === 'ROLLBACK') {
        if (text === 'COMMIT' && open.get(this)) recordTransactions++;
        open.delete(this);
      } else if (text.includes('INSERT INTO inapp_receipt AS r')) {
        if (open.has(this)) open.set(this, true);
        else recordTransactions++;
      } else if (/UPDATE inapp_checkin (k )?SET answer/.test(text)) keeps++;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    // The receipts held by another transaction: the first two writes wait on it, the others for a group,
    // and all 22 are in line before it lets go (whatever the machine's speed).
    const holder = await t.svc.pool.connect();
    let answers;
    try {
      await exec({ db: t.svc.db, svc: t.svc, sqlClient: holder }, sql`BEGIN`);
      await exec({ db: t.svc.db, svc: t.svc, sqlClient: holder }, sql`LOCK TABLE inapp_receipt IN EXCLUSIVE MODE`);
      const asked = Promise.all(people.map((u) => u.checkedIn()));
      await expect.poll(() => recordWritesWaiting(t.svc), { timeout: 20_000 }).toBe(22);
      await exec({ db: t.svc.db, svc: t.svc, sqlClient: holder }, sql`COMMIT`);
      answers = await asked;
    } finally {
      holder.release();
      pg.Client.prototype.query = original;
    }
    expect(answers.map(ids)).toEqual(Array(24).fill([m.id]));
    expect(await t.svc.db.inAppReceipt.count({ where: { messageId: m.id, sentCount: 1 } })).toBe(24);
    // The two written alone, then the 22 in one group (at most 32 a group).
    expect(recordTransactions).toBe(3);
    // Each answer was kept with its records: a check-in within the spacing gets it, throttled.
    expect(keeps).toBe(0);
    for (const u of people.slice(0, 3)) expect(await u.checkedIn()).toMatchObject({ throttled: true, messages: [{ id: m.id }] });
  });

  it('hears of a message changed by another server process within moments (LISTEN/NOTIFY)', async () => {
    const { own, staff, user } = await ownApp();
    const m = await staff.live(own.modes.live, 'banner', { content: banner('Before') });
    const u = user();
    expect((await u.checkedIn()).messages[0].banner.blocks[0].spans[0].text).toBe('Before');
    // As another process would: straight to the database, whose trigger tells every process.
    await t.svc.db.$executeRaw`UPDATE inapp_message SET state = 'paused' WHERE id = ${m.id}`;
    await expect.poll(async () => (await user().checkedIn()).messages.length).toBe(0);
  });

  it('refuses a body it cannot read, naming the field', async () => {
    const u = appUser(t, app.live, unique('user'));
    const r = await u.send('POST', '/guest/v1/checkin', { app_version: '1', platform: 'tv', session_id: 's' });
    expect(r.status).toBe(400);
    expect(r.json.errors.map((e: { field: string }) => e.field)).toEqual(['platform']);
    void staff;
  });
});
