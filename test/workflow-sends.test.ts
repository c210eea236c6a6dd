import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../src/lib/clock.js';
import { serverApi, staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { settle, workflowsIn } from './support/workflows.js';
import { makeTestCertificate } from './support/https-receiver.js';
import { guestOf } from './support/messenger.js';
import { apnsToken, makeApnsKey, startApnsStandin, type ApnsStandin } from './support/push-standins.js';
import { smtpServer } from './support/smtp.js';
import { appUser, banner, inAppStaff } from './support/inapp.js';
import { ENGINES, sayIfTemporalSkipped, startTestServer, testConfig, type TestServer } from './support/server.js';

// A workflow's send steps, black-box on both engines: a notice to the person's inbox and a push to
// their devices through the APNs stand-in (which checks the protocol), each asked of the person's
// preferences first; the "why" of each visit read back through the staff API: sent, or skipped
// with its reason (everything off, the topic off, no consent to offers, no device, a token gone),
// or failed with the provider's answer. Publishing refuses what could not be sent, naming the member.

sayIfTemporalSkipped('test/workflow-sends.test.ts');

const BUNDLE = 'com.example.orchard';
const key = makeApnsKey();

describe.each(ENGINES)('send steps on the $engine engine', ({ engine, skip }) => {
  describe.skipIf(skip)('', () => {
    let t: TestServer;
    let apns: ApnsStandin;
    let app: StaffApp;
    let api: ReturnType<typeof staffApi>;
    let clock: ManualClock;
    let smtp: Awaited<ReturnType<typeof smtpServer>>;

    beforeAll(async () => {
      const cert = await makeTestCertificate();
      clock = new (await import('../src/lib/clock.js')).ManualClock();
      apns = await startApnsStandin(cert, { key, bundleId: BUNDLE, now: () => clock.now() });
      smtp = await smtpServer();
      t = await startTestServer({
        engine,
        clock,
        config: testConfig({
          outboundTestTrust: { allow: [apns.hostPort], ca: cert.cert },
          smtpUrl: smtp.url,
          mailFrom: 'Orchard <news@mail.orchard.test>',
          push: { apnsUrl: apns.origin, apnsSandboxUrl: apns.origin, fcmUrl: apns.origin, fcmTokenUrl: `${apns.origin}/token` },
        }),
      });
      app = await staffApp(t, 'Orchard');
      api = staffApi(
        () => t.url,
        () => app.owner,
      );
      const m = app.modes.live;
      await api.ok(
        `mutation($m: ID!, $p8: String!, $k: String!, $team: String!, $b: String!) {
          setApnsCredentials(appModeId: $m, keyP8: $p8, keyId: $k, teamId: $team, bundleId: $b, production: true) { set } }`,
        { m, p8: key.p8, k: key.keyId, team: key.teamId, b: BUNDLE },
      );
      for (const [k, c, o] of [
        ['news', ['push', 'in_app'], false],
        ['deals', ['push', 'in_app'], true],
        ['letters', ['email'], false],
        ['offers', ['email'], true],
      ] as const)
        await api.ok(
          'mutation($m: ID!, $k: String!, $c: [PreferenceChannel!]!, $o: Boolean) { addPreferenceTopic(appModeId: $m, key: $k, name: $k, channels: $c, offers: $o) { id } }',
          { m, k, c, o },
        );
    });
    afterAll(async () => {
      await t?.close();
      await apns?.close();
      await smtp?.close();
    });

    const wf = workflowsIn(
      () => api,
      () => app.modes.live,
    );
    const { PUBLISH, runOf: stepsOf, runsOf } = wf;
    const draft = (definition: unknown) => wf.draft(unique('Sends'), definition);
    /** A person of the app with an iPhone registered (or none), as the app registers it. */
    const person = async (iphone = true) => {
      const g = guestOf(t, app.live, unique('p'), { exp: '100y' }); // the tests move the clock by days
      const token = apnsToken();
      await serverApi(t, app.live.server_key).identify(g.sub);
      if (iphone) expect((await g.send('PUT', '/guest/v1/devices', { platform: 'ios', token, app_version: '1.0' })).status).toBe(204);
      return { g, token, sub: g.sub };
    };

    it('refuses on publishing an in-app message not of the app, a topic that does not go by the channel, and a push too large, naming each', async () => {
      const id = await draft({
        trigger: { kind: 'event', event: 'ordered' },
        steps: [
          { key: 'show', kind: 'send', channel: 'inapp', messageId: 'im_1', next: 'card' },
          { key: 'card', kind: 'send', channel: 'notice', content: { title: 'Hi' }, topic: 'letters', next: 'buzz' },
          { key: 'buzz', kind: 'send', channel: 'push', content: { title: 'Hi', body: 'é'.repeat(1990) }, topic: 'nope', next: 'done' },
          { key: 'done', kind: 'end' },
        ],
      });
      const refused = await api.refused(PUBLISH, { id });
      expect(refused.code).toBe('invalid_request');
      expect(refused.errors!.map((e: { field: string }) => e.field)).toEqual([
        'definition.steps.0.messageId',
        'definition.steps.1.topic',
        'definition.steps.2.content.body',
        'definition.steps.2.topic',
      ]);
    });

    it('sends a notice and a push, and says why each was not sent to whom it was not', async () => {
      const id = await draft({
        trigger: { kind: 'event', event: 'ordered' },
        steps: [
          {
            key: 'card',
            kind: 'send',
            channel: 'notice',
            content: { title: 'Thanks', body: 'We got it', link: '/orders/1' },
            topic: 'news',
            next: 'buzz',
          },
          { key: 'buzz', kind: 'send', channel: 'push', content: { title: 'Shipped', link: '/orders/1' }, topic: 'news', next: 'deal' },
          { key: 'deal', kind: 'send', channel: 'push', content: { title: 'A deal' }, topic: 'deals', next: 'done' },
          { key: 'done', kind: 'end' },
        ],
      });
      await api.ok(PUBLISH, { id });
      const [hears, allOff, newsOff, noDevice, gone, throttled] = [
        await person(),
        await person(),
        await person(),
        await person(false),
        await person(),
        await person(),
      ];
      expect((await allOff.g.send('PUT', '/guest/v1/preferences', { all_off: true })).status).toBe(200);
      expect(
        (await newsOff.g.send('PUT', '/guest/v1/preferences', { choices: [{ topic: 'news', channel: 'push', subscribed: false }] })).status,
      ).toBe(200);
      apns.tell(gone.token, { gone: true });
      apns.tell(throttled.token, { throttle: 30 });
      const everyone = [hears, allOff, newsOff, noDevice, gone, throttled];
      const sent = await serverApi(t, app.live.server_key).sendEvents(
        everyone.map((p) => ({ id: unique('ev'), external_id: p.sub, name: 'ordered', at: clock.now().toISOString() })),
      );
      expect(sent.rejected).toEqual([]);
      await settle(t, 8);

      const why = async (p: { sub: string }) => (await stepsOf(p.sub, id)).steps.map((s) => [s.step, s.outcome, s.reason ?? null]);
      expect(await why(hears)).toEqual([
        ['card', 'sent', null],
        ['buzz', 'sent', null],
        ['deal', 'skipped', 'no_consent'],
      ]);
      expect(await why(allOff)).toEqual([
        ['card', 'skipped', 'all_off'],
        ['buzz', 'skipped', 'all_off'],
        ['deal', 'skipped', 'all_off'],
      ]);
      expect(await why(newsOff)).toEqual([
        ['card', 'sent', null], // off by push only: the inbox is in-app
        ['buzz', 'skipped', 'unsubscribed'],
        ['deal', 'skipped', 'no_consent'],
      ]);
      expect((await why(noDevice))[1]).toEqual(['buzz', 'skipped', 'no_device']);
      expect((await why(gone))[1]).toEqual(['buzz', 'skipped', 'no_device']);
      const failed = (await stepsOf(throttled.sub, id)).steps[1]!;
      expect(failed).toMatchObject({ step: 'buzz', outcome: 'failed', reason: 'provider_unavailable' });
      expect(failed.detail).toMatch(/TooManyRequests|429/);
      expect((await stepsOf(hears.sub, id)).state).toBe('ended');

      // The push went once, to the one who hears, carrying its words; a gone token's device is forgotten.
      const pushed = apns.received.filter((r) => everyone.some((p) => p.token === r.token));
      expect(pushed.map((r) => r.token)).toEqual([hears.token]);
      expect(pushed[0]!.payload).toMatchObject({ aps: { alert: { title: 'Shipped' } }, link: '/orders/1' });
      expect(await t.svc.db.device.count({ where: { appModeId: app.modes.live, contact: { externalId: gone.sub } } })).toBe(0);

      // The notice and the push's notice are in the inbox, each once; a message.sent each.
      const inbox = (await hears.g.send('GET', '/guest/v1/notices')).json;
      expect(inbox.notices.map((n: { title: string }) => n.title).sort()).toEqual(['Shipped', 'Thanks']); // one moment: either order
      expect((await newsOff.g.send('GET', '/guest/v1/notices')).json.notices.map((n: { title: string }) => n.title)).toEqual(['Thanks']);
      const told = await t.svc.db.outboxEvent.findMany({ where: { appModeId: app.modes.live, topic: 'message.sent' } });
      const ofRuns = told.filter((r) => (r.data as { workflow_id?: string }).workflow_id === id);
      expect(ofRuns.map((r) => [r.externalId, (r.data as { channel: string }).channel]).sort()).toEqual(
        [...[hears, newsOff, noDevice, gone, throttled].map((p) => [p.sub, 'notice']), [hears.sub, 'push']].sort(),
      );
    });

    it('sends an email as it was when the workflow was published, once a version, and says why it was not sent to whom it was not', async () => {
      const m = app.modes.live;
      const emailOf = async (subject: string, topic: string | null) =>
        (
          await api.ok('mutation($m: ID!, $i: EmailMessageInput!) { createEmailMessage(appModeId: $m, input: $i) { id } }', {
            m,
            i: { subject, topic, blocks: [{ type: 'paragraph', spans: [{ text: 'Thank you.' }] }] },
          })
        ).createEmailMessage.id as string;
      const [letter, deal] = [await emailOf('Your order', 'letters'), await emailOf('A deal', 'offers')];
      // Another tenant's email is refused, naming the member.
      const other = await staffApp(t, 'Other');
      const foreign = (
        await staffApi(
          () => t.url,
          () => other.owner,
        ).ok('mutation($m: ID!, $i: EmailMessageInput!) { createEmailMessage(appModeId: $m, input: $i) { id } }', {
          m: other.modes.live,
          i: { subject: 'Theirs', topic: null, blocks: [{ type: 'paragraph', spans: [{ text: 'x' }] }] },
        })
      ).createEmailMessage.id as string;
      const definition = (first: string) => ({
        trigger: { kind: 'event', event: 'paid' },
        entry: { againAfterDays: 1 },
        steps: [
          { key: 'letter', kind: 'send', channel: 'email', messageId: first, next: 'deal' },
          { key: 'deal', kind: 'send', channel: 'email', messageId: deal, next: 'done' },
          { key: 'done', kind: 'end' },
        ],
      });
      const id = await draft(definition(foreign));
      const refused = await api.refused(PUBLISH, { id });
      expect(refused.errors!.map((e: { field: string }) => e.field)).toEqual(['definition.steps.0.messageId']);
      await api.ok('mutation($id: ID!, $i: WorkflowInput!) { changeWorkflow(id: $id, input: $i) { id } }', {
        id,
        i: { definition: definition(letter) },
      });
      await api.ok(PUBLISH, { id });
      // Edited after publishing: the runs of the published version send the email as it was.
      await api.ok('mutation($id: ID!, $i: EmailMessageInput!) { changeEmailMessage(id: $id, input: $i) { id } }', {
        id: letter,
        i: { subject: 'Edited later', topic: 'letters', blocks: [{ type: 'paragraph', spans: [{ text: 'Changed.' }] }] },
      });

      const server = serverApi(t, app.live.server_key);
      const who = (name: string) => `${name}-${unique('x')}@example.com`;
      const [ann, bob, cy, dee] = [unique('ann'), unique('bob'), unique('cy'), unique('dee')];
      const addresses = { ann: who('ann'), bob: who('bob'), dee: who('dee') };
      await server.identify(ann, { email: addresses.ann });
      await server.identify(bob, { email: addresses.bob });
      await server.identify(cy);
      await server.identify(dee, { email: addresses.dee });
      await t.svc.db.emailSuppression.create({
        data: { appModeId: m, address: addresses.bob.toLowerCase(), reason: 'bounce', createdAt: clock.now() },
      });
      smtp.refuse.set(addresses.dee, [550, '5.1.1 No such mailbox here']);
      const paid = async (...people: string[]) => {
        const sent = await server.sendEvents(
          people.map((p) => ({ id: unique('ev'), external_id: p, name: 'paid', at: clock.now().toISOString() })),
        );
        expect(sent.rejected).toEqual([]);
        await settle(t, 8);
      };
      await paid(ann, bob, cy, dee);
      const why = async (p: string) => {
        return (await runsOf(p, id)).map((r) => r.steps.map((s) => [s.step, s.outcome, s.reason]));
      };
      expect(await why(ann)).toEqual([
        [
          ['letter', 'sent', null],
          ['deal', 'skipped', 'no_consent'],
        ],
      ]);
      expect((await why(bob))[0]![0]).toEqual(['letter', 'skipped', 'suppressed']);
      expect((await why(cy))[0]![0]).toEqual(['letter', 'skipped', 'no_address']);
      expect((await why(dee))[0]![0]).toEqual(['letter', 'failed', 'provider_refused']);
      const refusedStep = (await stepsOf(dee, id)).steps[0]!;
      expect(refusedStep.detail).toMatch(/No such mailbox/);

      // The mail server got ann's email once, as it was when published, with its unsubscribe headers.
      const toAnn = smtp.received.filter((r) => r.envelope.to.includes(addresses.ann));
      expect(toAnn).toHaveLength(1);
      expect(toAnn[0]!.raw.toString()).toMatch(/Subject: Your order/);
      expect(toAnn[0]!.raw.toString()).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/i);

      // Entering again a day later: the same version's email is not sent twice.
      clock.advance(86_400_000 + 1000);
      await paid(ann);
      const again = await why(ann);
      expect(again).toHaveLength(2);
      expect(again.some((steps: unknown[][]) => JSON.stringify(steps[0]) === JSON.stringify(['letter', 'skipped', 'already_sent']))).toBe(
        true,
      );
      expect(smtp.received.filter((r) => r.envelope.to.includes(addresses.ann))).toHaveLength(1);
    });

    it('sends an in-app message: the person’s check-ins show it as if they were in its audience, one for workflows only to no one else', async () => {
      const m = app.modes.live;
      const inApp = inAppStaff(
        () => t,
        () => app.owner,
      );
      const only = await inApp.live(m, 'banner', { content: banner('Welcome in'), topic: 'news', workflowOnly: true });
      const draftOne = await inApp.create(m, 'banner', { content: banner('Not yet') });
      const id = await draft({
        trigger: { kind: 'event', event: 'joined' },
        steps: [
          { key: 'show', kind: 'send', channel: 'inapp', messageId: only.id, next: 'later' },
          { key: 'later', kind: 'send', channel: 'inapp', messageId: draftOne.id, next: 'done' },
          { key: 'done', kind: 'end' },
        ],
      });
      await api.ok(PUBLISH, { id });
      const server = serverApi(t, app.live.server_key);
      const [sent, off, other] = [
        appUser(t, app.live, unique('in')),
        appUser(t, app.live, unique('off')),
        appUser(t, app.live, unique('other')),
      ];
      for (const u of [sent, off, other]) await server.identify(u.sub);
      expect(
        (await off.send('PUT', '/guest/v1/preferences', { choices: [{ topic: 'news', channel: 'in_app', subscribed: false }] })).status,
      ).toBe(200);
      const ids = async (u: ReturnType<typeof appUser>) => (await u.checkedIn()).messages.map((x: { id: string }) => x.id);
      // Before the workflow sent it, no one is shown a message for workflows only.
      expect(await ids(sent)).not.toContain(only.id);
      const joined = await server.sendEvents(
        [sent, off].map((u) => ({ id: unique('ev'), external_id: u.sub, name: 'joined', at: clock.now().toISOString() })),
      );
      expect(joined.rejected).toEqual([]);
      await settle(t, 8);
      const why = async (sub: string) => (await stepsOf(sub, id)).steps.map((x) => [x.step, x.outcome, x.reason]);
      expect(await why(sent.sub)).toEqual([
        ['show', 'sent', null],
        ['later', 'skipped', 'message_not_live'],
      ]);
      expect((await why(off.sub))[0]).toEqual(['show', 'skipped', 'unsubscribed']);

      clock.advance(21_000); // past the check-in spacing
      sent.newSession();
      expect(await ids(sent)).toContain(only.id);
      expect(await ids(other)).not.toContain(only.id);
      expect(await ids(off)).not.toContain(only.id);
      // Shown as any check-in shows a message: its receipt written.
      expect(await t.svc.db.inAppReceipt.count({ where: { messageId: only.id } })).toBe(1);
    });

    it('holds a send outside its window until the window opens on the person’s clock, and skips one told to, saying why', async () => {
      // To 06:00 UTC, outside a window of 09:00 to 17:00 every day (the person has no zone: UTC).
      const six = new Date(clock.now());
      six.setUTCHours(6, 0, 0, 0);
      if (six.getTime() <= clock.now().getTime()) six.setUTCDate(six.getUTCDate() + 1);
      clock.advance(six.getTime() - clock.now().getTime());
      const opens = new Date(clock.now().getTime() + 3 * 3_600_000);
      const window = { days: [0, 1, 2, 3, 4, 5, 6], from: '09:00', to: '17:00' };
      const id = await draft({
        trigger: { kind: 'event', event: 'shipped' },
        steps: [
          {
            key: 'soon',
            kind: 'send',
            channel: 'notice',
            content: { title: 'Now or never' },
            sendingWindow: window,
            outsideWindow: 'skip',
            next: 'card',
          },
          { key: 'card', kind: 'send', channel: 'notice', content: { title: 'In office hours' }, sendingWindow: window, next: 'done' },
          { key: 'done', kind: 'end' },
        ],
      });
      await api.ok(PUBLISH, { id });
      const p = await person(false);
      const sent = await serverApi(t, app.live.server_key).sendEvents([
        { id: unique('ev'), external_id: p.sub, name: 'shipped', at: clock.now().toISOString() },
      ]);
      expect(sent.rejected).toEqual([]);
      await settle(t, 8);
      const held = await stepsOf(p.sub, id);
      expect(held).toMatchObject({ state: 'waiting', step: 'card', waitsFor: null });
      expect(new Date(held.until!).toISOString()).toBe(opens.toISOString());
      expect(held.steps.map((x) => [x.step, x.outcome, x.reason])).toEqual([['soon', 'skipped', 'outside_window']]);
      expect(held.steps[0]!.detail).toMatch(/06:00 by the person’s clock \(UTC\)/);
      clock.advance(opens.getTime() - clock.now().getTime() - 1000);
      await settle(t, 8);
      expect(await stepsOf(p.sub, id)).toMatchObject({ state: 'waiting', step: 'card' });
      clock.advance(2000);
      await settle(t, 8);
      const ended = await stepsOf(p.sub, id);
      expect(ended.state).toBe('ended');
      expect(ended.steps.map((x) => [x.step, x.outcome, x.reason])).toEqual([
        ['soon', 'skipped', 'outside_window'],
        ['card', 'sent', null],
      ]);
      const inbox = (await p.g.send('GET', '/guest/v1/notices')).json;
      expect(inbox.notices.map((n: { title: string }) => n.title)).toEqual(['In office hours']);
    });

    it('sends from test mode a push only to test phones and an email only to a team member’s address, skipping others as test mode', async () => {
      const m = app.modes.test;
      await api.ok(
        `mutation($m: ID!, $p8: String!, $k: String!, $team: String!, $b: String!) {
          setApnsCredentials(appModeId: $m, keyP8: $p8, keyId: $k, teamId: $team, bundleId: $b, production: true) { set } }`,
        { m, p8: key.p8, k: key.keyId, team: key.teamId, b: BUNDLE },
      );
      const email = (
        await api.ok('mutation($m: ID!, $i: EmailMessageInput!) { createEmailMessage(appModeId: $m, input: $i) { id } }', {
          m,
          i: { subject: 'Testing', topic: null, blocks: [{ type: 'paragraph', spans: [{ text: 'Only for us.' }] }] },
        })
      ).createEmailMessage.id as string;
      const id = await wf.workflow(
        unique('Test mode'),
        {
          trigger: { kind: 'event', event: 'tried' },
          steps: [
            { key: 'buzz', kind: 'send', channel: 'push', content: { title: 'Test push' }, next: 'mail' },
            { key: 'mail', kind: 'send', channel: 'email', messageId: email, next: 'card' },
            { key: 'card', kind: 'send', channel: 'notice', content: { title: 'Test card' }, next: 'done' },
            { key: 'done', kind: 'end' },
          ],
        },
        m,
      );
      const server = serverApi(t, app.test.server_key);
      const people = [];
      for (const [name, address] of [
        ['phone', app.ownerEmail],
        ['stranger', `stranger-${unique('x')}@example.com`],
      ] as const) {
        const g = guestOf(t, app.test, unique(name), { exp: '100y' });
        const token = apnsToken();
        await server.identify(g.sub, { email: address });
        expect((await g.send('PUT', '/guest/v1/devices', { platform: 'ios', token, app_version: '1.0' })).status).toBe(204);
        people.push({ sub: g.sub, token, address });
      }
      const [phone, stranger] = people as [(typeof people)[0], (typeof people)[0]];
      await api.ok('mutation($m: ID!, $x: String!) { markTestPhone(appModeId: $m, externalId: $x) { externalId } }', { m, x: phone.sub });
      const tried = await server.sendEvents(
        people.map((p) => ({ id: unique('ev'), external_id: p.sub, name: 'tried', at: clock.now().toISOString() })),
      );
      expect(tried.rejected).toEqual([]);
      await settle(t, 8);
      const why = async (sub: string) => (await wf.runOf(sub, id, m)).steps.map((x) => [x.step, x.outcome, x.reason]);
      expect(await why(phone.sub)).toEqual([
        ['buzz', 'sent', null],
        ['mail', 'sent', null],
        ['card', 'sent', null],
      ]);
      expect(await why(stranger.sub)).toEqual([
        ['buzz', 'skipped', 'test_mode'],
        ['mail', 'skipped', 'test_mode'],
        ['card', 'sent', null],
      ]);
      expect(apns.received.filter((r) => r.token === phone.token || r.token === stranger.token).map((r) => r.token)).toEqual([phone.token]);
      expect(smtp.received.filter((r) => r.envelope.to.includes(phone.address))).toHaveLength(1);
      expect(smtp.received.filter((r) => r.envelope.to.includes(stranger.address))).toHaveLength(0);
    });
  });
});
