import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute } from '../rest-facade/http/route.js';
import { createApp } from '../src/domain/apps/create-app.js';
import { identify } from '../src/domain/contacts/identify.js';
import { contextOf, scopeOf, transaction, type Ctx, type ServerCaller } from '../src/domain/context.js';
import { createOwnerlessWorkspace } from '../src/domain/staff/ownerless-workspaces.js';
import { unique } from './support/factories.js';
import { startWithApp, type SeededApp, type TestServer } from './support/server.js';

// One request context: two domain functions share the caller's transaction, so a failure after
// both undoes both without code written to undo either; and a surface cannot hand a domain
// function a caller it does not have (checked by the compiler, with `npm test`'s type check).

let t: TestServer;
let app: SeededApp;
beforeAll(async () => ({ t, app } = await startWithApp()));
afterAll(() => t?.close());

const txId = async (ctx: Ctx) => (await ctx.db.$queryRaw<[{ id: string }]>`SELECT txid_current()::text AS id`)[0].id;

describe('transaction(ctx, fn)', () => {
  it('joins the transaction its context is already in', async () => {
    const ids = await transaction(t.ctx, async (outer) => [await txId(outer), await transaction(outer, (inner) => txId(inner))]);
    expect(ids[0]).toBe(ids[1]);
  });

  it('undoes the work of every domain function in it when anything after them fails', async () => {
    const name = unique('undone');
    const failure = transaction(t.ctx, async (tx) => {
      const { workspaceId } = await createOwnerlessWorkspace(tx, { name });
      await createApp(tx, { workspaceId, name });
      throw new Error('after both');
    });
    await expect(failure).rejects.toThrow('after both');
    expect(await t.svc.db.workspace.count({ where: { name } })).toBe(0);
    expect(await t.svc.db.app.count({ where: { name } })).toBe(0);
  });

  it('commits them together otherwise', async () => {
    const name = unique('kept');
    await transaction(t.ctx, async (tx) => createApp(tx, { ...(await createOwnerlessWorkspace(tx, { name })), name }));
    expect(await t.svc.db.app.count({ where: { name } })).toBe(1);
  });

  it('gives a domain function of one app-mode its scope from the caller', async () => {
    const mode = await t.svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } });
    const ctx: Ctx<ServerCaller> = contextOf(t.svc, { kind: 'server', serverKeyId: 'test', ...scopeOf(mode) });
    const externalId = unique('scoped');
    expect(await identify(ctx, externalId, { displayName: 'Scoped' })).toEqual({ created: true });
    expect((await t.svc.db.contact.findFirstOrThrow({ where: { externalId } })).appModeId).toBe(mode.id);
  });
});

// Compile-time: each line below must fail the type check; `@ts-expect-error` fails it when it does not.
export const typeChecks = () => {
  // @ts-expect-error the service's own context is no app-mode's caller
  void identify(t.ctx, 'x', {});
  // @ts-expect-error a visitor (public surface) is no app-mode's caller
  void identify(contextOf(t.svc, { kind: 'visitor', address: '::1' }), 'x', {});
  return defineRoute({
    method: 'get',
    path: '/public/v1/typed',
    surface: 'public',
    tag: 'Test',
    summary: 'never mounted',
    responses: { 200: { description: 'x', schema: z.object({}) } },
    errors: [],
    async handle(ctx) {
      // @ts-expect-error a public route has no guest to read
      void ctx.state.context.caller.externalId;
      return { status: 200, body: {} };
    },
  });
};
