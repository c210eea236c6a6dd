import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverApi, staffApp, type StaffApp } from './support/factories.js';
import { banner, inAppStaff } from './support/inapp.js';
import { startTestServer, type TestServer } from './support/server.js';

// The audience model every sender shares, on the staff API: rules read against the app-mode's own
// attributes and events and kept with each attribute's type. Reading and compiling rules without a
// server: src/domain/audiences/rules.test.ts and compile.test.ts.

describe('audiences on the staff API', () => {
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

  it("are read against the app-mode's own attributes and events, and kept with each attribute's type", async () => {
    const server = serverApi(t, app.live.server_key);
    await server.identify('someone', { attributes: { plan: 'pro' } });
    await server.declareEvents([{ name: 'order_placed', source: 'both' }]);
    const audience = {
      all: [
        { attribute: 'plan', op: 'is', value: 'pro' },
        { event: 'order_placed', withinDays: 30 },
      ],
    };
    const made = await staff.create(app.modes.live, 'banner', { content: banner(), audience });
    expect(made.audience).toEqual({
      all: [
        { attribute: 'plan', op: 'is', value: 'pro', type: 'string' },
        { event: 'order_placed', did: true, withinDays: 30 },
      ],
    });
    // The test mode has attributes and events of its own.
    const r = await staff.createRefused(app.modes.test, 'banner', { content: banner(), audience });
    expect(r.errors!.map((e) => e.field)).toEqual(['audience.all.0.attribute', 'audience.all.1.event']);
  });
});
