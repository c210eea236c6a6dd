import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from './support/factories.js';
import { MAX_RECENT_SESSIONS } from '../src/domain/inapp/sessions.js';
import { appUser, banner, ownInAppApp, post } from './support/inapp.js';
import { startTestServer, type TestServer } from './support/server.js';

// A survey is shown as often as the in-app rules say, and no more, across sessions and the devices
// of one person (peers' surveys came back three times in a row, or past "not again"): once until
// seen, until dismissed (or completed), until completed; at most once a session; at most one large
// message a session. Black box over the real guest routes: check-ins of a phone and a tablet of one
// person, each with sessions of its own, receipts and answers from either.

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const SURVEY = {
  steps: [
    { id: 'rate', questions: [{ id: 'score', type: 'nps', title: 'How likely are you to recommend us?' }] },
    { id: 'more', questions: [{ id: 'why', type: 'short_text', title: 'Why?' }] },
    { id: 'thanks', thankYou: true, blocks: [{ type: 'paragraph', spans: [{ text: 'Thanks!' }] }] },
  ],
};

/** One person with two devices (a phone and a tablet), each checking in with its own sessions. */
async function personWithTwoDevices() {
  const app = await ownInAppApp(t);
  const sub = unique('user');
  const device = (platform: string) => {
    const u = appUser(t, app.own.live, sub);
    /** The ids of the messages a check-in answers, past the person's 20-second spacing (a person's, not a device's). */
    const shown = async (opts: { newSession?: boolean } = {}) => {
      t.clock.advance(21_000);
      if (opts.newSession) u.newSession();
      const answer = await u.checkedIn({ platform });
      return answer.messages.map((m: { id: string }) => m.id) as string[];
    };
    const survey = (id: string, what: 'answers' | 'submit', answers: unknown[]) =>
      u.send('POST', `/guest/v1/surveys/${id}/${what}`, { answers, variant: 'a' });
    return {
      ...u,
      /** The device's session now (a getter: a copy of the user would keep the first). */
      get session() {
        return u.session;
      },
      shown,
      survey,
    };
  };
  return { ...app, phone: device('ios'), tablet: device('android') };
}

const ok = (r: { status: number; text: string }) => expect(r.status, r.text).toBe(204);

describe('a survey across sessions and devices', () => {
  it('shown once: again in no session of either device once seen on one, and at most once in a session whatever the other device does', async () => {
    const { own, staff, phone, tablet } = await personWithTwoDevices();
    const s = await staff.live(own.modes.live, 'survey', { content: SURVEY, show: 'once' });
    expect(await phone.shown()).toEqual([s.id]);
    expect(await phone.shown()).toEqual([]);
    // Not yet seen: the tablet's own session is answered it too.
    expect(await tablet.shown()).toEqual([s.id]);
    // The phone's session already had it, whatever the tablet was answered since.
    expect(await phone.shown()).toEqual([]);
    expect(await tablet.shown()).toEqual([]);
    ok(await tablet.receipt({ message_id: s.id, variant: 'a', action: 'seen' }));
    for (let session = 0; session < 3; session++) {
      expect(await phone.shown({ newSession: true })).toEqual([]);
      expect(await tablet.shown({ newSession: true })).toEqual([]);
    }
  });

  it('shown until dismissed: in each new session of either device until one dismisses it, and a completed survey is done too', async () => {
    const { own, staff, phone, tablet } = await personWithTwoDevices();
    const dismissed = await staff.live(own.modes.live, 'survey', { content: SURVEY, show: 'until_dismissed' });
    expect(await phone.shown()).toEqual([dismissed.id]);
    ok(await phone.receipt({ message_id: dismissed.id, variant: 'a', action: 'seen' }));
    ok(await phone.survey(dismissed.id, 'answers', [{ question: 'score', number: 7 }]));
    expect(await phone.shown({ newSession: true })).toEqual([dismissed.id]);
    expect(await tablet.shown({ newSession: true })).toEqual([dismissed.id]);
    ok(await tablet.receipt({ message_id: dismissed.id, variant: 'a', action: 'dismissed' }));
    for (let session = 0; session < 3; session++) {
      expect(await phone.shown({ newSession: true })).toEqual([]);
      expect(await tablet.shown({ newSession: true })).toEqual([]);
    }

    // Completed on the tablet (the answers the phone gave are the person's, kept for the tablet's submit): done on both.
    const completed = await staff.live(own.modes.live, 'survey', { content: SURVEY, show: 'until_dismissed' });
    expect(await phone.shown({ newSession: true })).toEqual([completed.id]);
    ok(await phone.survey(completed.id, 'answers', [{ question: 'score', number: 9 }]));
    expect(await tablet.shown({ newSession: true })).toEqual([completed.id]);
    ok(
      await tablet.survey(completed.id, 'submit', [
        { question: 'score', number: 9 },
        { question: 'why', text: 'Fast' },
      ]),
    );
    expect(await phone.shown({ newSession: true })).toEqual([]);
    expect(await tablet.shown({ newSession: true })).toEqual([]);
  });

  it('shown until completed: dismissing it does not end it, answering part does not, a submit on either device does', async () => {
    const { own, staff, phone, tablet } = await personWithTwoDevices();
    const s = await staff.live(own.modes.live, 'survey', { content: SURVEY, show: 'until_completed' });
    expect(await phone.shown()).toEqual([s.id]);
    ok(await phone.receipt({ message_id: s.id, variant: 'a', action: 'dismissed' }));
    expect(await phone.shown()).toEqual([]);
    expect(await phone.shown({ newSession: true })).toEqual([s.id]);
    expect(await tablet.shown({ newSession: true })).toEqual([s.id]);
    ok(await tablet.survey(s.id, 'answers', [{ question: 'score', number: 4 }]));
    expect(await phone.shown({ newSession: true })).toEqual([s.id]);
    // The phone goes on from the tablet's answer, and submits.
    ok(await phone.survey(s.id, 'answers', [{ question: 'why', text: 'Slow' }]));
    ok(
      await phone.survey(s.id, 'submit', [
        { question: 'score', number: 4 },
        { question: 'why', text: 'Slow' },
      ]),
    );
    for (let session = 0; session < 3; session++) {
      expect(await phone.shown({ newSession: true })).toEqual([]);
      expect(await tablet.shown({ newSession: true })).toEqual([]);
    }
    const kept = await t.svc.db.surveyResponse.findMany({ where: { messageId: s.id } });
    expect(kept).toHaveLength(1);
    expect(kept[0]!.submittedAt).not.toBeNull();
  });

  it('is the one large message of its session: a post before it keeps it for the next session, on each device', async () => {
    const { own, staff, phone, tablet } = await personWithTwoDevices();
    const news = await staff.live(own.modes.live, 'post', { content: post('News'), priority: 3 });
    const s = await staff.live(own.modes.live, 'survey', { content: SURVEY, priority: 2 });
    expect(await phone.shown()).toEqual([news.id]);
    // The same session: the post was its large message.
    expect(await phone.shown()).toEqual([]);
    expect(await tablet.shown()).toEqual([news.id]);
    ok(await tablet.receipt({ message_id: news.id, variant: 'a', action: 'seen' }));
    // Still the phone's session whose large message was the post, whatever the tablet was answered since.
    expect(await phone.shown()).toEqual([]);
    expect(await phone.shown({ newSession: true })).toEqual([s.id]);
    expect(await tablet.shown({ newSession: true })).toEqual([s.id]);
    ok(await phone.receipt({ message_id: s.id, variant: 'a', action: 'seen' }));
    expect(await phone.shown({ newSession: true })).toEqual([]);
    expect(await tablet.shown({ newSession: true })).toEqual([]);
  });

  it(`keeps the last ${MAX_RECENT_SESSIONS} sessions a message was answered in with the person's receipt`, async () => {
    const { own, staff, phone, tablet } = await personWithTwoDevices();
    const note = await staff.live(own.modes.live, 'banner', { content: banner(), show: 'until_dismissed' });
    const sessions: string[] = [];
    for (let i = 0; i < MAX_RECENT_SESSIONS + 2; i++) {
      const device = i % 2 ? tablet : phone;
      expect(await device.shown({ newSession: true })).toEqual([note.id]);
      sessions.push(device.session);
    }
    const receipt = await t.svc.db.inAppReceipt.findFirstOrThrow({ where: { messageId: note.id } });
    expect(receipt.recentSessions).toEqual(sessions.slice(-MAX_RECENT_SESSIONS));
    expect(receipt.sentCount).toBe(MAX_RECENT_SESSIONS + 2);
    // The last two sessions of each device are among them: neither is answered it again.
    expect(await phone.shown()).toEqual([]);
    expect(await tablet.shown()).toEqual([]);
  });
});
