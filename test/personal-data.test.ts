import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSONAL_DATA } from '../src/domain/personal-data/areas.js';
import { call, userToken } from './support/http.js';
import { type SeededApp, type TestServer, startWithApp } from './support/server.js';

// The personal-data registry keeps export and erase complete: read from the database schema
// itself, every table that can name a person is covered by a registered eraser, and after an
// erase no row of any of them names the person, in either mode.

let t: TestServer;
let app: SeededApp;
beforeAll(async () => ({ t, app } = await startWithApp()));
afterAll(() => t?.close());

/** Columns that name a person: the customer's id for them, a reference to their contact, an email. */
const NAMING = (column: string) =>
  column === 'external_id' || column === 'contact_id' || column.endsWith('_contact_id') || column === 'email' || column.endsWith('_email');

/** Tables that hold such a column but are not about the people an app messages, and why. */
const NOT_A_PERSON: Record<string, string> = {
  staff_user: "staff accounts: the app's team, not its users",
  invitation: 'invitations of staff to a workspace',
  // Someone asking for a staff account of their own, not a contact of any app; swept a day after it came.
  pending_signup: 'public sign-ups waiting for their confirmation: future staff, not an app’s users',
  // The erase's own record: its external id is cleared when the erase is done (a keyed hash keeps the block).
  erase_request: 'cleared by finishErase, purged after the block',
};

async function namingColumns(): Promise<{ table: string; column: string }[]> {
  const rows = await t.svc.db.$queryRaw<{ table_name: string; column_name: string }[]>`
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name NOT LIKE '\\_prisma%'`;
  return rows.filter((r) => NAMING(r.column_name)).map((r) => ({ table: r.table_name, column: r.column_name }));
}

describe('the personal-data registry', () => {
  it('covers every table that can name a person', async () => {
    const covered = new Set(PERSONAL_DATA.flatMap((area) => area.tables));
    const tables = [...new Set((await namingColumns()).map((c) => c.table))];
    expect(tables.length).toBeGreaterThan(3);
    const uncovered = tables.filter((table) => !covered.has(table) && !(table in NOT_A_PERSON));
    expect(
      uncovered,
      'tables that name a person but no personal-data area erases: register them in src/domain/personal-data/areas.ts',
    ).toEqual([]);
    // And nothing registered is a table that does not exist.
    const existing = new Set(
      (
        await t.svc.db.$queryRaw<{ table_name: string }[]>`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`
      ).map((r) => r.table_name),
    );
    expect([...covered].filter((table) => !existing.has(table))).toEqual([]);
  });

  it('leaves no row naming the person in any such table, in either mode, after an erase', async () => {
    const id = `registry-${randomUUID()}`;
    const email = `${id}@example.com`;
    for (const mode of [app.live, app.test]) {
      const server = { Authorization: `Bearer ${mode.server_key}` };
      expect(
        (
          await call(t.url, 'PUT', `/server/v1/contacts/${id}`, {
            headers: server,
            json: { email, attributes: { plan: 'pro' }, consent: { offers_by_email: true } },
          })
        ).status,
      ).toBe(200);
      const events = [
        { id: randomUUID(), external_id: id, name: 'order_paid', at: t.clock.now().toISOString() },
        { id: randomUUID(), external_id: id, name: 'bad name!', at: t.clock.now().toISOString() },
      ];
      expect((await call(t.url, 'POST', '/server/v1/events', { headers: server, json: { events } })).status).toBe(202);
      const guest = { 'X-CRM-App-Key': mode.app_key, Authorization: `Bearer ${await userToken(mode.identity_secret, { sub: id })}` };
      expect((await call(t.url, 'PUT', '/guest/v1/consent', { headers: guest, json: { offers_by_push: true } })).status).toBe(200);
    }
    const contactIds = (await t.svc.db.contact.findMany({ where: { externalId: id }, select: { id: true } })).map((c) => c.id);
    expect(contactIds).toHaveLength(2);

    const naming = async () => {
      const found: Record<string, number> = {};
      for (const { table, column } of await namingColumns()) {
        const values = column.endsWith('contact_id') ? contactIds : column.endsWith('email') ? [email] : [id];
        const [row] = await t.svc.db.$queryRawUnsafe<{ n: bigint }[]>(
          `SELECT count(*) AS n FROM "${table}" WHERE "${column}"::text = ANY($1::text[])`,
          values,
        );
        if (row!.n > 0n) found[`${table}.${column}`] = Number(row!.n);
      }
      return found;
    };
    const before = await naming();
    for (const table of ['contact', 'consent_change', 'event', 'refused_event', 'outbox_event'])
      expect(
        Object.keys(before).some((k) => k.startsWith(`${table}.`)),
        table,
      ).toBe(true);

    expect(
      (await call(t.url, 'DELETE', `/server/v1/contacts/${id}`, { headers: { Authorization: `Bearer ${app.live.server_key}` } })).status,
    ).toBe(202);
    await t.engine.runDue();
    expect(await naming()).toEqual({});
    const request = await t.svc.db.eraseRequest.findFirstOrThrow({ where: { state: 'done' }, orderBy: { requestedAt: 'desc' } });
    expect(request.removed).toMatchObject({ contacts: 2, consentChanges: 4, events: 2, refusedEvents: 2, outboxEvents: 2 });
  });
});
