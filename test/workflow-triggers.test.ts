import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepDateTriggers } from '../src/domain/workflows/date-trigger.js';
import { serverApi, staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { settle, workflowsIn } from './support/workflows.js';
import { ownInAppApp } from './support/inapp.js';
import { ENGINES, sayIfTemporalSkipped, startTestServer, type TestServer } from './support/server.js';

// The triggers beside the event, black-box, on both engines: an attribute's change (identify, a
// workflow's set_attribute step) enters its person by the entry rules, and a change of another
// attribute does not; twenty identical changes at once enter once; a person entering a workflow's
// audience (an attribute, a tag, an event it counts) enters once per move in, and leaving it ends
// their run with outcome left_audience; another app-mode's changes start nothing, nor write a row;
// the date sweep enters a person on the day their date plus the offset is today on their clock,
// once per date.

sayIfTemporalSkipped('test/workflow-triggers.test.ts');

let t: TestServer;
let app: StaffApp;
let api: ReturnType<typeof staffApi>;

const { runsOf, workflow } = workflowsIn(
  () => api,
  () => app.modes.live,
);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const plusDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** A run that waits thirty days, then ends. */
const HOLD = [
  { key: 'hold', kind: 'wait', seconds: 30 * 86_400, next: 'done' },
  { key: 'done', kind: 'end' },
];

/** An app of its own with in-app messages (surveys), and its workflows through its staff's API. */
async function inAppWorkflows() {
  const inapp = await ownInAppApp(t);
  const own = workflowsIn(
    () =>
      staffApi(
        () => t.url,
        () => inapp.own.owner,
      ),
    () => inapp.own.modes.live,
  );
  return { inapp, own };
}

const identify = (externalId: string, attributes: Record<string, unknown>, key = app.live.server_key) =>
  serverApi(t, key).identify(externalId, { attributes });

describe.each(ENGINES)('workflow triggers on the $engine engine', ({ engine, skip }) => {
  describe.skipIf(skip)('', () => {
    beforeAll(async () => {
      t = await startTestServer({ engine });
      app = await staffApp(t, 'Meadow');
      api = staffApi(
        () => t.url,
        () => app.owner,
      );
    });
    afterAll(async () => {
      await t?.close();
    });

    it('enters a person once when the attribute changes, not on another attribute nor an unchanged value', async () => {
      const [p, q] = [unique('plan'), unique('other')];
      await identify(p, { plan: 'free' });
      await identify(q, { plan: 'free' });
      const id = await workflow('Plan changed', { trigger: { kind: 'attribute_changed', attribute: 'plan' }, steps: HOLD });

      // Another attribute, and the same value again: no one enters.
      await identify(q, { seats: 4 });
      await identify(p, { plan: 'free' });
      await settle(t);
      expect(await runsOf(p, id)).toEqual([]);
      expect(await runsOf(q, id)).toEqual([]);

      await identify(p, { plan: 'pro' });
      await settle(t);
      expect(await runsOf(p, id)).toMatchObject([{ state: 'waiting', step: 'hold' }]);
      // Once only: a further change does not enter again.
      await identify(p, { plan: 'team' });
      await identify(p, { plan: null });
      await settle(t);
      expect(await runsOf(p, id)).toHaveLength(1);
      expect(await runsOf(q, id)).toEqual([]);
    });

    it('enters again on a later change once the entry rule’s days have passed', async () => {
      const p = unique('again');
      await identify(p, { stage: 'a' });
      const id = await workflow('Stage', {
        trigger: { kind: 'attribute_changed', attribute: 'stage' },
        entry: { againAfterDays: 1 },
        steps: HOLD,
      });
      await identify(p, { stage: 'b' });
      await settle(t);
      await identify(p, { stage: 'c' });
      await settle(t);
      expect(await runsOf(p, id)).toHaveLength(1);
      t.clock.advance(86_400_000 + 1000);
      await identify(p, { stage: 'd' });
      await settle(t);
      expect(await runsOf(p, id)).toHaveLength(2);
    });

    it('enters a person once when twenty identical changes come at once', async () => {
      const p = unique('burst');
      await identify(p, { colour: 'red' });
      const id = await workflow('Colour', {
        trigger: { kind: 'attribute_changed', attribute: 'colour' },
        entry: { againAfterDays: 1 },
        steps: HOLD,
      });
      await Promise.all(Array.from({ length: 20 }, () => identify(p, { colour: 'blue' })));
      await settle(t);
      expect(await runsOf(p, id)).toHaveLength(1);
      expect(await t.svc.db.workflowEntry.count({ where: { workflowId: id } })).toBe(1);
    });

    it('enters on a change a workflow’s set_attribute step makes', async () => {
      const p = unique('stepped');
      await identify(p, {});
      const setter = await workflow('Onboard', {
        trigger: { kind: 'event', event: 'onboarded' },
        steps: [
          { key: 'mark', kind: 'set_attribute', attribute: 'milestone', value: 'onboarded', next: 'done' },
          { key: 'done', kind: 'end' },
        ],
      });
      const hearer = await workflow('Milestone', { trigger: { kind: 'attribute_changed', attribute: 'milestone' }, steps: HOLD });
      const sent = await serverApi(t, app.live.server_key).sendEvents([
        { id: unique('ev'), external_id: p, name: 'onboarded', at: t.clock.now().toISOString() },
      ]);
      expect(sent.rejected).toEqual([]);
      await settle(t);
      expect(await runsOf(p, setter)).toMatchObject([{ state: 'ended' }]);
      expect(await runsOf(p, hearer)).toMatchObject([{ state: 'waiting', step: 'hold' }]);
    });

    it('enters on an attribute a survey’s answer writes through the guest API', async () => {
      const { inapp, own } = await inAppWorkflows();
      const sub = unique('guest');
      await inapp.server.identify(sub, { attributes: { nps_score: 5 } });
      const id = await own.workflow('Scored', { trigger: { kind: 'attribute_changed', attribute: 'nps_score' }, steps: HOLD });
      const m = await inapp.staff.live(inapp.own.modes.live, 'survey', {
        content: {
          steps: [
            { id: 'rate', questions: [{ id: 'score', type: 'nps', title: 'How likely?', attribute: 'nps_score' }], next: 'thanks' },
            { id: 'thanks', thankYou: true, blocks: [{ type: 'paragraph', spans: [{ text: 'Thanks' }] }] },
          ],
        },
      });
      const u = inapp.user(sub);
      await u.checkedIn();
      const submitted = await u.send('POST', `/guest/v1/surveys/${m.id}/submit`, {
        answers: [{ question: 'score', number: 9 }],
        variant: 'a',
      });
      expect(submitted.status, submitted.text).toBe(204);
      await settle(t);
      expect(await own.runsOf(sub, id)).toHaveLength(1);
    });

    it('reads an audience on a survey’s answers again when the person answers it, entering those its rule now finds', async () => {
      const { inapp, own } = await inAppWorkflows();
      const m = await inapp.staff.live(inapp.own.modes.live, 'survey', {
        content: {
          steps: [
            { id: 'rate', questions: [{ id: 'score', type: 'nps', title: 'How likely?' }], next: 'thanks' },
            { id: 'thanks', thankYou: true, blocks: [{ type: 'paragraph', spans: [{ text: 'Thanks' }] }] },
          ],
        },
      });
      const id = await own.workflow('Detractors', {
        trigger: { kind: 'audience_entered', audience: { survey: m.id, question: 'score', range: { min: 0, max: 6 } } },
        steps: HOLD,
      });
      const [unhappy, happy] = [unique('unhappy'), unique('happy')];
      for (const [sub, number] of [
        [unhappy, 2],
        [happy, 9],
      ] as const) {
        const u = inapp.user(sub);
        await u.checkedIn();
        const submitted = await u.send('POST', `/guest/v1/surveys/${m.id}/submit`, {
          answers: [{ question: 'score', number }],
          variant: 'a',
        });
        expect(submitted.status, submitted.text).toBe(204);
      }
      await settle(t);
      expect(await own.runsOf(unhappy, id)).toMatchObject([{ state: 'waiting', step: 'hold' }]);
      expect(await own.runsOf(happy, id)).toEqual([]);
    });

    it('enters a person who moves into the audience, once per move, and ends their run with left_audience when they leave', async () => {
      const [p, low] = [unique('score'), unique('low')];
      await identify(p, { score: 5 });
      await identify(low, { score: 1 });
      const id = await workflow('High scorers', {
        trigger: { kind: 'audience_entered', audience: { attribute: 'score', op: 'gt', value: 10 } },
        exit: { leavesAudience: true },
        entry: { againAfterDays: 1 },
        steps: HOLD,
      });
      await identify(low, { score: 2 });
      await settle(t);
      expect(await runsOf(low, id)).toEqual([]);

      await identify(p, { score: 20 });
      await settle(t);
      expect(await runsOf(p, id)).toMatchObject([{ state: 'waiting', step: 'hold' }]);
      // Still inside: no move, no second run (though the entry rule's days have passed).
      t.clock.advance(86_400_000 + 1000);
      await identify(p, { score: 30 });
      await settle(t);
      expect(await runsOf(p, id)).toHaveLength(1);

      // Leaving ends the run where it waits.
      await identify(p, { score: 3 });
      await settle(t);
      expect(await runsOf(p, id)).toMatchObject([{ state: 'ended', outcome: 'left_audience', step: 'hold' }]);

      // Moving in again is a new entry (the entry rule allows it).
      await identify(p, { score: 40 });
      await settle(t);
      const runs = await runsOf(p, id);
      expect(runs).toHaveLength(2);
      expect(runs.map((r) => r.state).sort()).toEqual(['ended', 'waiting']);
    });

    it('reads an audience again on a tag a step adds and on an event it counts', async () => {
      const [tagged, buyer] = [unique('tagged'), unique('buyer')];
      await identify(tagged, {});
      await identify(buyer, {});
      const tagger = await workflow('Tagger', {
        trigger: { kind: 'event', event: 'went_vip' },
        steps: [
          { key: 'label', kind: 'tag', action: 'add', tag: 'vip', next: 'done' },
          { key: 'done', kind: 'end' },
        ],
      });
      const vips = await workflow('VIPs', {
        trigger: { kind: 'audience_entered', audience: { field: 'tags', op: 'contains', value: 'vip' } },
        steps: HOLD,
      });
      await serverApi(t, app.live.server_key).sendEvents([
        { id: unique('ev'), external_id: 'nobody-yet', name: 'bought', at: t.clock.now().toISOString() },
      ]);
      const buyers = await workflow('Buyers', {
        trigger: { kind: 'audience_entered', audience: { event: 'bought', did: true } },
        steps: HOLD,
      });
      const sent = await serverApi(t, app.live.server_key).sendEvents([
        { id: unique('ev'), external_id: tagged, name: 'went_vip', at: t.clock.now().toISOString() },
        { id: unique('ev'), external_id: buyer, name: 'bought', at: t.clock.now().toISOString() },
      ]);
      expect(sent.rejected).toEqual([]);
      await settle(t);
      expect(await runsOf(tagged, tagger)).toMatchObject([{ state: 'ended' }]);
      expect(await runsOf(tagged, vips)).toMatchObject([{ state: 'waiting' }]);
      expect(await runsOf(buyer, vips)).toEqual([]);
      expect(await runsOf(buyer, buyers)).toMatchObject([{ state: 'waiting' }]);
      expect(await runsOf(tagged, buyers)).toEqual([]);
    });

    it('enters on the day the date plus the offset is today on the person’s clock, once per date', async () => {
      // Noon UTC: a person in UTC+14 is a day ahead.
      const now = t.clock.now().getTime();
      t.clock.advance(DAY - ((now - 12 * HOUR + DAY) % DAY));
      const today = t.clock.now().toISOString().slice(0, 10);
      const [soon, later, east] = [unique('soon'), unique('later'), unique('east')];
      await identify(soon, { renewal: plusDays(today, 3) });
      await identify(later, { renewal: plusDays(today, 4) });
      await serverApi(t, app.live.server_key).identify(east, {
        time_zone: 'Pacific/Kiritimati',
        attributes: { renewal: plusDays(today, 4) },
      });
      const id = await workflow('Renewal', {
        trigger: { kind: 'date_reached', attribute: 'renewal', offsetDays: -3 },
        entry: { againAfterDays: 1 },
        steps: HOLD,
      });
      await sweepDateTriggers(t.ctx);
      await settle(t);
      expect(await runsOf(soon, id)).toHaveLength(1);
      expect(await runsOf(east, id)).toHaveLength(1);
      expect(await runsOf(later, id)).toEqual([]);

      // Another pass the same day enters no one twice.
      t.clock.advance(HOUR);
      await sweepDateTriggers(t.ctx);
      await settle(t);
      expect(await runsOf(soon, id)).toHaveLength(1);
      expect(await runsOf(east, id)).toHaveLength(1);

      // The next day: the later date is due; the others' dates are past.
      t.clock.advance(DAY - HOUR);
      await sweepDateTriggers(t.ctx);
      await settle(t);
      expect(await runsOf(later, id)).toHaveLength(1);
      expect(await runsOf(soon, id)).toHaveLength(1);
      expect(await runsOf(east, id)).toHaveLength(1);

      // A new date is a new entry, the entry rule's day having passed.
      t.clock.advance(HOUR);
      await identify(soon, { renewal: plusDays(t.clock.now().toISOString().slice(0, 10), 3) });
      await sweepDateTriggers(t.ctx);
      await settle(t);
      expect(await runsOf(soon, id)).toHaveLength(2);
    });

    it('starts nothing on another app-mode’s changes, and writes no change row there', async () => {
      const p = unique('elsewhere');
      const id = await workflow('Live only', { trigger: { kind: 'attribute_changed', attribute: 'region' }, steps: HOLD });
      await identify(p, { region: 'north' }, app.test.server_key);
      await identify(p, { region: 'south' }, app.test.server_key);
      await settle(t);
      expect(await runsOf(p, id, app.modes.test)).toEqual([]);
      expect(await runsOf(p, id)).toEqual([]);
      expect(await t.svc.db.outboxEvent.count({ where: { appModeId: app.modes.test, topic: 'workflow.change' } })).toBe(0);
      // The same change in the live mode enters.
      await identify(p, { region: 'north' });
      await settle(t);
      expect(await runsOf(p, id)).toHaveLength(1);
    });
  });
});
