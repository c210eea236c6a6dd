import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_EXPORT_SECONDS, contactExportToken } from '../src/domain/contacts/export-address.js';
import { createLogger } from '../src/lib/logger.js';
import { memberOf, serverApi, staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi, staffSocket } from './support/graphql.js';
import { call } from './support/http.js';
import { startTestServer, type TestServer } from './support/server.js';

// What the console's contacts need of the staff API beyond reading: a team member's download of
// one person's export (`exportContact` gives a signed address good for a few minutes, and the public
// route answers it with the very body a server key gets, as a file; refused expired, altered, signed
// for another use or naming a person of another app-mode; a member whose role may not export gets no
// address; the token is never logged), and the list live (`contactsChanged`).

let t: TestServer;
let app: StaffApp;
const logged: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logged.push(chunk.toString());
      done();
    },
  });
  t = await startTestServer({ log: createLogger('info', sink) });
  app = await staffApp(t);
});
afterAll(() => t.close());

const { ok, refused } = staffApi(
  () => t.url,
  () => app.owner,
);
const EXPORT = 'mutation($m: ID!, $id: ID!) { exportContact(appModeId: $m, id: $id) { url expiresAt } }';
const contactId = async (externalId: string, mode = app.modes.live) =>
  (await ok('query($m: ID!, $e: String!) { contact(appModeId: $m, externalId: $e) { id } }', { m: mode, e: externalId })).contact.id;
/** The address's path and query on this test server (the address names the configured BASE_URL). */
const pathOf = (url: string) => new URL(url).pathname;

describe('exportContact and its download', () => {
  it('answers the server API’s export as a file, for this person only, and logs no token', async () => {
    const server = serverApi(t, app.live.server_key);
    const who = unique('exp');
    await server.identify(who, { display_name: 'Exa Port', email: 'exa@example.com', attributes: { plan: 'pro' } });
    await server.identify(unique('other'), { display_name: 'Someone else' });
    const id = await contactId(who);
    const { url, expiresAt } = (await ok(EXPORT, { m: app.modes.live, id })).exportContact;
    expect(new Date(expiresAt).getTime() - t.clock.now().getTime()).toBeGreaterThan((CONTACT_EXPORT_SECONDS - 1) * 1000);
    expect(new Date(expiresAt).getTime() - t.clock.now().getTime()).toBeLessThanOrEqual((CONTACT_EXPORT_SECONDS + 1) * 1000);

    const r = await call(t.url, 'GET', pathOf(url));
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="contact-${who}.json"`);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const byKey = await call(t.url, 'GET', `/server/v1/contacts/${who}/export`, {
      headers: { Authorization: `Bearer ${app.live.server_key}` },
    });
    expect(r.json).toEqual(byKey.json);
    expect(r.json.attributes).toEqual(expect.arrayContaining([{ name: 'display_name', value: 'Exa Port' }]));

    const token = pathOf(url).split('/').pop()!;
    expect(logged.join('')).toContain('/public/v1/contact-exports/:token');
    expect(logged.join('')).not.toContain(token.slice(-20));
  });

  it('refuses an address expired, altered, signed for another use or naming another app-mode’s person', async () => {
    const server = serverApi(t, app.live.server_key);
    const who = unique('exp');
    await server.identify(who, { display_name: 'Late' });
    const id = await contactId(who);
    const path = pathOf((await ok(EXPORT, { m: app.modes.live, id })).exportContact.url);
    const token = path.split('/').pop()!;
    const [body, mac] = token.split('.') as [string, string];
    const code = async (p: string) => {
      const r = await call(t.url, 'GET', p);
      expect(r.headers.get('content-type')).toBe('application/problem+json');
      return `${r.status} ${r.json.code}`;
    };

    // Altered: the terms (another person's id put in) or the signature.
    const terms = JSON.parse(Buffer.from(body, 'base64url').toString());
    const other = await contactId((await server.identify(unique('victim'), {})).external_id);
    const forged = Buffer.from(JSON.stringify({ ...terms, k: terms.k.replace(id, other) })).toString('base64url');
    expect(await code(path.replace(body, forged))).toBe('403 address_invalid');
    expect(await code(path.replace(mac, `${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`))).toBe('403 address_invalid');
    expect(await code('/public/v1/contact-exports/not-a-token')).toBe('403 address_invalid');
    // A blob address of the same terms, signed with the blob store's key: no export.
    const blob = await t.svc.blobs.readAddress(terms.k, { seconds: 60, contentType: 'application/json' });
    expect(await code(`/public/v1/contact-exports/${blob.url.split('/').pop()}`)).toBe('403 address_invalid');

    // Another app-mode: the staff API gives no address of a live person named in the test mode, and a
    // token naming that pair (signed by the service itself) finds nobody.
    expect(await refused(EXPORT, { m: app.modes.test, id })).toMatchObject({ code: 'not_found' });
    const crossed = contactExportToken(t.svc, {
      appModeId: app.modes.test,
      contactId: id,
      expiresAt: new Date(t.clock.now().getTime() + 60_000),
    });
    expect(await code(`/public/v1/contact-exports/${crossed}`)).toBe('404 not_found');

    // Good until its minutes are up, then expired.
    t.clock.advance((CONTACT_EXPORT_SECONDS - 2) * 1000);
    expect((await call(t.url, 'GET', path)).status).toBe(200);
    t.clock.advance(3000);
    expect(await code(path)).toBe('403 address_expired');

    // A person being erased is exported by no address, even one made before.
    const fresh = pathOf((await ok(EXPORT, { m: app.modes.live, id })).exportContact.url);
    await ok('mutation($m: ID!, $id: ID!) { eraseContact(appModeId: $m, id: $id) { state } }', { m: app.modes.live, id });
    expect(await code(fresh)).toBe('404 not_found');
  });

  it('gives no address to an agent, nor to another workspace’s owner', async () => {
    const who = unique('exp');
    await serverApi(t, app.live.server_key).identify(who, {});
    const id = await contactId(who);
    const agent = await memberOf(t, app.workspaceId, 'agent');
    expect(await refused(EXPORT, { m: app.modes.live, id }, agent.token)).toMatchObject({ code: 'role_forbids' });
    const admin = await memberOf(t, app.workspaceId, 'admin');
    expect((await ok(EXPORT, { m: app.modes.live, id }, admin.token)).exportContact.url).toContain('/public/v1/contact-exports/');
    const stranger = await staffApp(t);
    expect(await refused(EXPORT, { m: app.modes.live, id }, stranger.owner)).toMatchObject({ code: 'not_found' });
  });
});

describe('contactsChanged', () => {
  it('tells each person identify makes in the app-mode, in order, resumable, to any member', async () => {
    const agent = await memberOf(t, app.workspaceId, 'agent');
    const client = staffSocket(t.url, agent.token);
    const QUERY =
      'subscription($m: ID!, $a: String) { contactsChanged(appModeId: $m, after: $a) { version reload contact { id externalId displayName } } }';
    const seen: any[] = [];
    const stop = client.subscribe<any>(
      { query: QUERY, variables: { m: app.modes.live } },
      { next: ({ data }) => data && seen.push(data.contactsChanged), error: (e) => seen.push({ error: e }), complete: () => {} },
    );
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]).toMatchObject({ reload: true, contact: null });

    const live = serverApi(t, app.live.server_key);
    const first = unique('new');
    const second = unique('new');
    await live.identify(first, { display_name: 'First' });
    // Another mode's person, and a change to one already there: neither is told.
    await serverApi(t, app.test.server_key).identify(unique('testmode'), {});
    await live.identify(first, { display_name: 'First, renamed' });
    await live.identify(second, { display_name: 'Second' });
    await expect.poll(() => seen.length).toBe(3);
    expect(seen.slice(1).map((s) => [s.reload, s.contact.externalId])).toEqual([
      [false, first],
      [false, second],
    ]);
    // The person as they are when told.
    expect(seen[2].contact.displayName).toBe('Second');
    stop();

    const resumed: any[] = [];
    const again = client.subscribe<any>(
      { query: QUERY, variables: { m: app.modes.live, a: seen[1].version } },
      { next: ({ data }) => data && resumed.push(data.contactsChanged), error: () => {}, complete: () => {} },
    );
    await expect.poll(() => resumed.length).toBe(1);
    expect(resumed[0]).toMatchObject({ reload: false, contact: { externalId: second } });
    again();

    // Nobody outside the workspace hears them.
    const stranger = await staffApp(t);
    const theirs = staffSocket(t.url, stranger.owner);
    const refusal = await new Promise<any>((resolve) =>
      theirs.subscribe({ query: QUERY, variables: { m: app.modes.live } }, { next: resolve, error: resolve, complete: () => {} }),
    );
    expect(JSON.stringify(refusal)).toContain('not_found');
    await Promise.all([client.dispose(), theirs.dispose()]);
  });
});
