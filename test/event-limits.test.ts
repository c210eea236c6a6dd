import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DEFINITION_PROPS, MAX_PROP_KEY, MAX_PROP_VALUE, MAX_PROPS } from '../src/domain/events/props.js';
import { call, userToken } from './support/http.js';
import { type SeededApp, type TestServer, startWithApp } from './support/server.js';

// What events may carry, checked on every event (not only when declared), and how far an event's
// definition may grow from what clients send.

let t: TestServer;
let app: SeededApp;
beforeAll(async () => ({ t, app } = await startWithApp()));
afterAll(() => t?.close());

const guestBatch = async (events: { name: string; props: Record<string, string> }[]) =>
  call(t.url, 'POST', '/guest/v1/events', {
    headers: { 'X-CRM-App-Key': app.live.app_key, Authorization: `Bearer ${await userToken(app.live.identity_secret, { sub: 'limits' })}` },
    json: {
      app_version: '1',
      platform: 'web',
      events: events.map((e) => ({ id: randomUUID(), occurred_at: t.clock.now().toISOString(), ...e })),
    },
  });
const definitionOf = async (name: string) => {
  const mode = await t.svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } });
  return t.svc.db.eventDefinition.findUnique({ where: { appModeId_name: { appModeId: mode.id, name } } });
};
const props = (prefix: string, n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}_${i}`, 'v']));

describe('event props', () => {
  it('refuses a prop name or value beyond its limit on every event, and grows no definition with it', async () => {
    const r = await guestBatch([
      { name: 'screen_viewed', props: { screen: 'x'.repeat(MAX_PROP_VALUE + 1) } },
      { name: 'screen_viewed', props: { ['k'.repeat(MAX_PROP_KEY + 1)]: 'v' } },
      { name: 'screen_viewed', props: { screen: 'home' } },
    ]);
    expect(r.status).toBe(202);
    expect(r.json.accepted).toBe(1);
    expect(r.json.rejected.map((x: { index: number; reason: string }) => [x.index, x.reason])).toEqual([
      [0, 'invalid_prop'],
      [1, 'invalid_prop'],
    ]);
    expect((await definitionOf('screen_viewed'))!.props).toEqual([{ key: 'screen', type: 'string' }]);
  });

  it(`lets clients grow an event to at most ${MAX_DEFINITION_PROPS} props; the rest are refused with a reason`, async () => {
    let refused = 0;
    for (let batch = 0; batch < 6; batch++) {
      const r = await guestBatch(
        Array.from({ length: 50 }, (_, i) => ({ name: 'page_viewed', props: props(`b${batch}e${i}`, MAX_PROPS) })),
      );
      expect(r.status).toBe(202);
      refused += (r.json.rejected ?? []).filter((x: { reason: string }) => x.reason === 'too_many_props').length;
    }
    expect((await definitionOf('page_viewed'))!.props).toHaveLength(MAX_DEFINITION_PROPS);
    expect(refused).toBe(300 - MAX_DEFINITION_PROPS / MAX_PROPS);
    // Known props still go in.
    const known = Object.keys(props('b0e0', MAX_PROPS));
    expect((await guestBatch([{ name: 'page_viewed', props: { [known[0]!]: 'again' } }])).json.accepted).toBe(1);
  });

  it('refuses a declaration that would take an event past the limit', async () => {
    const declare = (keys: string[]) =>
      call(t.url, 'PUT', '/server/v1/event-definitions', {
        headers: { Authorization: `Bearer ${app.live.server_key}` },
        json: { definitions: [{ name: 'wide', props: keys.map((key) => ({ key, type: 'string' })) }] },
      });
    for (let i = 0; i < MAX_DEFINITION_PROPS / MAX_PROPS; i++)
      expect((await declare(Object.keys(props(`d${i}`, MAX_PROPS)))).json.definitions[0].outcome).not.toBe('refused');
    const over = await declare(['one_more']);
    expect(over.json.definitions[0]).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/at most 200 props/) });
    expect((await definitionOf('wide'))!.props).toHaveLength(MAX_DEFINITION_PROPS);
  });
});
