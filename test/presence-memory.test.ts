import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import {
  MAX_VIEWERS_PER_CONVERSATION,
  MAX_VIEWERS_PER_PROCESS,
  Presence,
  PRESENCE_TTL_MS,
  TYPING_TTL_MS,
} from '../src/domain/inbox/presence.js';
import { ManualClock } from '../src/lib/clock.js';

// A process's viewers in memory stay within their bounds whatever it hears, and go when they expire.

function heardBy() {
  let heard: (payload: string | undefined) => void = () => {};
  const clock = new ManualClock();
  const presence = new Presence({ onNotice: (_channel, h) => void (heard = h) }, clock);
  return { presence, clock, hear: (payload: string | undefined) => heard(payload) };
}

it(`keeps at most ${MAX_VIEWERS_PER_CONVERSATION} viewers a conversation and ${MAX_VIEWERS_PER_PROCESS} a process, ignoring what is not a notice`, async () => {
  const { presence, clock, hear } = heardBy();
  const conversations = Array.from({ length: MAX_VIEWERS_PER_PROCESS / MAX_VIEWERS_PER_CONVERSATION + 10 }, () => randomUUID());
  for (const c of conversations)
    for (let i = 0; i <= MAX_VIEWERS_PER_CONVERSATION; i++) hear(presence.heartbeat(c, randomUUID(), 'Agent', false) ?? '');
  for (const junk of ['', 'not json', '{"c":1}', 'null', undefined]) hear(junk);
  expect(presence.size).toBe(MAX_VIEWERS_PER_PROCESS);
  expect(presence.now(conversations[0]!).viewers).toHaveLength(MAX_VIEWERS_PER_CONVERSATION);
  expect(presence.now(conversations.at(-1)!).viewers).toEqual([]);
  expect(presence.heartbeat(conversations.at(-1)!, randomUUID(), 'Agent', false)).toBeUndefined();

  clock.advance(PRESENCE_TTL_MS);
  await expect.poll(() => presence.size).toBe(0);
  expect(presence.heartbeat(conversations.at(-1)!, randomUUID(), 'Agent', false)).toBeDefined();
});

it('ends typing and viewing counted from when the heartbeat was taken, however late a process hears of it', () => {
  const { presence, clock, hear } = heardBy();
  const [c, u] = [randomUUID(), randomUUID()];
  hear(presence.heartbeat(c, u, 'Agent', true));
  clock.advance(4_000);
  const late = presence.heartbeat(c, u, 'Agent', true)!;
  clock.advance(4_000);
  hear(late); // heard 4 s after it was taken: typing ends 1 s from now, not 5
  expect(presence.now(c).viewers).toMatchObject([{ typing: true }]);
  clock.advance(1_001);
  hear(presence.heartbeat(c, u, 'Agent', false));
  expect(presence.now(c).viewers).toMatchObject([{ typing: false }]);
  const stale = presence.heartbeat(c, u, 'Agent', true)!;
  clock.advance(TYPING_TTL_MS);
  hear(stale); // its typing over before it was heard
  expect(presence.now(c).viewers).toMatchObject([{ typing: false }]);
  const v = randomUUID();
  const gone = presence.heartbeat(c, v, 'Other', false)!;
  clock.advance(PRESENCE_TTL_MS);
  hear(gone); // its viewing over before it was heard: no viewer
  expect(presence.now(c).viewers.map((x) => x.staffUserId)).not.toContain(v);
});
