import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATION_DAYS, MAX_PENDING_INVITATIONS } from '../src/domain/staff/invitations.js';
import { SIGN_IN_PER_EMAIL, SIGN_IN_PER_EMAIL_AND_ADDRESS, SIGN_IN_SLOW_MS } from '../src/domain/staff/sessions.js';
import { createStaffUser } from '../src/domain/staff/staff-users.js';
import { call } from './support/http.js';
import { staffApi, type GqlError } from './support/graphql.js';
import { cheapPasswordHash, seedApp, startTestServer, testConfig, type TestServer } from './support/server.js';

// Who belongs to a workspace: invitations the invited person accepts, roles, the last owner; and
// the limits on signing in, which must not let anyone lock a chosen person out. Black-box over
// real HTTP on real PostgreSQL. TRUST_PROXY is on, so X-Forwarded-For sets the caller's address.

let t: TestServer;
let app: Awaited<ReturnType<typeof seedApp>>;
let owner: string;

beforeAll(async () => {
  t = await startTestServer({ config: testConfig({ trustProxy: true }) });
  app = await seedApp(t.svc);
  owner = await signIn(app.ownerEmail, app.ownerPassword);
});
afterAll(() => t.close());

const { ok, refused, signIn } = staffApi(
  () => t.url,
  () => owner,
);

const PASSWORD = 'a long enough password';
const newEmail = (name: string) => `${name}-${randomBytes(4).toString('hex')}@example.com`;
/** Someone an operator made with `crm staff create`: an account, no workspace. */
const person = async (name: string) => (await createStaffUser(t.ctx, { email: newEmail(name), password: PASSWORD, name })).email;
/** The same, its password stored as a cheap scrypt (cheapPasswordHash): for the sign-in limits, whose tests make a hundred real checks of it. */
async function cheapPerson(name: string): Promise<string> {
  const email = await person(name);
  await t.svc.db.staffUser.update({ where: { email }, data: { passwordHash: cheapPasswordHash(PASSWORD) } });
  return email;
}

const INVITE =
  'mutation($w: ID!, $e: String!, $r: StaffRole!) { inviteMember(workspaceId: $w, email: $e, role: $r) { id email role createdAt expiresAt workspace { id name } } }';
const invite = async (email: string, role = 'agent', w = app.workspaceId) => (await ok(INVITE, { w, e: email, r: role })).inviteMember;
const ACCEPT = 'mutation($id: ID!) { acceptInvitation(id: $id) { role workspace { id } staffUser { email name } } }';
const PENDING = '{ viewer { invitations { edges { node { id workspace { id name } role expiresAt } } } } }';
const INVITATIONS = 'query($w: ID!) { invitations(workspaceId: $w) { edges { node { id email role } } } }';
/** The nodes of a connection's page. */
const nodes = (connection: { edges: { node: any }[] }) => connection.edges.map((e) => e.node);

describe('inviting', () => {
  it('answers alike whether or not the email has an account, and makes nobody a member', async () => {
    const neighbour = await seedApp(t.svc, 'Neighbour');
    const unknown = newEmail('nobody');
    const known = await invite(neighbour.ownerEmail.toUpperCase(), 'admin');
    const unregistered = await invite(unknown, 'admin');
    const { id: _a, email: knownEmail, ...knownRest } = known;
    const { id: _b, email: unknownEmail, ...unknownRest } = unregistered;
    expect(knownRest).toEqual(unknownRest);
    expect([knownEmail, unknownEmail]).toEqual([neighbour.ownerEmail, unknown]);
    expect(knownRest).toEqual({
      role: 'admin',
      createdAt: t.clock.now().toISOString(),
      expiresAt: new Date(t.clock.now().getTime() + INVITATION_DAYS * 86_400_000).toISOString(),
      workspace: { id: app.workspaceId, name: 'Test app workspace' },
    });
    expect(await t.svc.db.staffUser.count({ where: { email: unknown } })).toBe(0);
    expect(await t.svc.db.membership.count({ where: { workspaceId: app.workspaceId, staffUser: { email: neighbour.ownerEmail } } })).toBe(
      0,
    );

    // No name or password: inviting never makes an account. addMember is gone.
    const args = await ok('{ __type(name: "Mutation") { fields { name args { name } } } }');
    const fields: { name: string; args: { name: string }[] }[] = args.__type.fields;
    expect(
      fields
        .find((f) => f.name === 'inviteMember')!
        .args.map((a) => a.name)
        .sort(),
    ).toEqual(['email', 'role', 'workspaceId']);
    expect(fields.map((f) => f.name)).not.toContain('addMember');

    // Inviting again renews the role and the expiry of the same invitation.
    t.clock.advance(86_400_000);
    const again = await invite(unknown, 'agent');
    expect(again).toMatchObject({
      id: unregistered.id,
      role: 'agent',
      expiresAt: new Date(t.clock.now().getTime() + INVITATION_DAYS * 86_400_000).toISOString(),
    });
    expect(
      nodes((await ok(INVITATIONS, { w: app.workspaceId })).invitations).filter((i: { email: string }) => i.email === unknown),
    ).toEqual([{ id: unregistered.id, email: unknown, role: 'agent' }]);
  });

  it('shows the invited person the invitation on signing in; accepting makes them a member with the role', async () => {
    const email = await person('ivy');
    const { id } = await invite(email.toUpperCase(), 'admin');
    const signedIn = await ok(
      'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { token viewer { memberships { edges { node { role } } } invitations { edges { node { id workspace { id name } role expiresAt } } } } } }',
      { e: email, p: PASSWORD },
      '',
    );
    const { token, viewer } = signedIn.signIn;
    expect(nodes(viewer.memberships)).toEqual([]);
    expect(nodes(viewer.invitations)).toEqual([
      { id, workspace: { id: app.workspaceId, name: 'Test app workspace' }, role: 'admin', expiresAt: expect.any(String) },
    ]);
    // Before accepting, only the workspace's name: not its apps or members.
    expect(
      (await ok('{ __type(name: "InvitingWorkspace") { fields { name } } }', {}, token)).__type.fields
        .map((f: { name: string }) => f.name)
        .sort(),
    ).toEqual(['id', 'name']);

    expect((await ok(ACCEPT, { id }, token)).acceptInvitation).toEqual({
      role: 'admin',
      workspace: { id: app.workspaceId },
      staffUser: { email, name: 'ivy' },
    });
    expect(nodes((await ok(PENDING, {}, token)).viewer.invitations)).toEqual([]);
    expect(
      nodes(
        (await ok('query($w: ID!) { workspace(id: $w) { apps { edges { node { id } } } } }', { w: app.workspaceId }, token)).workspace.apps,
      ),
    ).toContainEqual({ id: app.appId });
    expect(
      nodes(
        (await ok('query($w: ID!) { members(workspaceId: $w) { edges { node { role staffUser { email } } } } }', { w: app.workspaceId }))
          .members,
      ),
    ).toContainEqual({
      role: 'admin',
      staffUser: { email },
    });
    expect(nodes((await ok(INVITATIONS, { w: app.workspaceId })).invitations).map((i: { id: string }) => i.id)).not.toContain(id);
    // Answered once: again, it is not found.
    expect(await refused(ACCEPT, { id }, token)).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('lets nobody else accept it, answering exactly as for an unknown id; an expired one is gone', async () => {
    const email = await person('jo');
    const { id } = await invite(email);
    const stranger = await seedApp(t.svc, 'Stranger');
    const strangerToken = await signIn(stranger.ownerEmail, stranger.ownerPassword);
    const unknown = await refused(ACCEPT, { id: '00000000-0000-4000-8000-000000000000' }, strangerToken);
    expect(unknown).toMatchObject({ code: 'not_found', status: 404 });
    expect(await refused(ACCEPT, { id }, strangerToken)).toEqual(unknown);
    // Not even the owner who invited: only the person the email names.
    expect(await refused(ACCEPT, { id })).toEqual(unknown);
    expect(await refused('mutation($id: ID!) { declineInvitation(id: $id) }', { id }, strangerToken)).toEqual(unknown);
    expect(await refused('mutation($id: ID!) { cancelInvitation(id: $id) }', { id }, strangerToken)).toEqual(unknown);
    expect(await t.svc.db.membership.count({ where: { workspaceId: app.workspaceId, staffUser: { email: stranger.ownerEmail } } })).toBe(0);

    const token = await signIn(email, PASSWORD);
    t.clock.advance((INVITATION_DAYS + 1) * 86_400_000);
    expect(nodes((await ok(PENDING, {}, token)).viewer.invitations)).toEqual([]);
    expect(await refused(ACCEPT, { id }, token)).toEqual(unknown);
    expect(nodes((await ok(INVITATIONS, { w: app.workspaceId })).invitations).map((i: { id: string }) => i.id)).not.toContain(id);
  });

  it('declines and cancels', async () => {
    const [declining, cancelled] = await Promise.all([person('dee'), person('cal')]);
    const declined = await invite(declining);
    const withdrawn = await invite(cancelled);
    const [dee, cal] = [await signIn(declining, PASSWORD), await signIn(cancelled, PASSWORD)];

    expect((await ok('mutation($id: ID!) { declineInvitation(id: $id) }', { id: declined.id }, dee)).declineInvitation).toBe(true);
    expect(nodes((await ok(PENDING, {}, dee)).viewer.invitations)).toEqual([]);
    expect(await refused('mutation($id: ID!) { declineInvitation(id: $id) }', { id: declined.id }, dee)).toMatchObject({
      code: 'not_found',
    });

    expect(nodes((await ok(PENDING, {}, cal)).viewer.invitations).map((i: { id: string }) => i.id)).toEqual([withdrawn.id]);
    expect((await ok('mutation($id: ID!) { cancelInvitation(id: $id) }', { id: withdrawn.id })).cancelInvitation).toBe(true);
    expect(nodes((await ok(PENDING, {}, cal)).viewer.invitations)).toEqual([]);
    expect(await refused(ACCEPT, { id: withdrawn.id }, cal)).toMatchObject({ code: 'not_found' });

    const listed = nodes((await ok(INVITATIONS, { w: app.workspaceId })).invitations).map((i: { id: string }) => i.id);
    expect(listed).not.toContain(declined.id);
    expect(listed).not.toContain(withdrawn.id);
    expect(
      await t.svc.db.membership.count({ where: { workspaceId: app.workspaceId, staffUser: { email: { in: [declining, cancelled] } } } }),
    ).toBe(0);
  });

  it('makes one membership of concurrent accepts', async () => {
    const email = await person('twin');
    const { id } = await invite(email, 'agent');
    const token = await signIn(email, PASSWORD);
    const { gql } = staffApi(
      () => t.url,
      () => token,
    );
    const answers = await Promise.all([1, 2, 3].map(() => gql(ACCEPT, { id }, token)));
    expect(answers.filter((a) => !a.errors).length).toBe(1);
    expect(answers.filter((a) => a.errors).map((a) => a.errors![0]!.extensions.code)).toEqual(['not_found', 'not_found']);
    expect(
      await t.svc.db.membership.findMany({ where: { workspaceId: app.workspaceId, staffUser: { email } }, select: { role: true } }),
    ).toEqual([{ role: 'agent' }]);
  });

  it(`keeps at most ${MAX_PENDING_INVITATIONS} pending invitations per workspace`, async () => {
    const busy = await seedApp(t.svc, 'Busy');
    const busyOwner = await signIn(busy.ownerEmail, busy.ownerPassword);
    const emails = Array.from({ length: MAX_PENDING_INVITATIONS }, (_, i) => `invitee-${i}@example.com`);
    for (let i = 0; i < emails.length; i += 10)
      await Promise.all(emails.slice(i, i + 10).map((e) => ok(INVITE, { w: busy.workspaceId, e, r: 'agent' }, busyOwner)));
    expect(await refused(INVITE, { w: busy.workspaceId, e: 'one-more@example.com', r: 'agent' }, busyOwner)).toMatchObject({
      code: 'invitation_limit',
      status: 409,
    });
    // Renewing one of them is no new invitation.
    expect((await ok(INVITE, { w: busy.workspaceId, e: emails[0], r: 'admin' }, busyOwner)).inviteMember.role).toBe('admin');
  });
});

describe('roles', () => {
  let agent: string;
  const agentEmail = 'agent@example.com';
  beforeAll(async () => {
    await createStaffUser(t.ctx, { email: agentEmail, password: PASSWORD, name: 'Ann' });
    const { id } = await invite('Agent@Example.com', 'agent');
    agent = await signIn(agentEmail, PASSWORD);
    expect((await ok(ACCEPT, { id }, agent)).acceptInvitation).toEqual({
      role: 'agent',
      workspace: { id: app.workspaceId },
      staffUser: { email: agentEmail, name: 'Ann' },
    });
  });

  it('lets an agent read but not manage apps, keys or members', async () => {
    const live = (await t.svc.db.appMode.findFirstOrThrow({ where: { appId: app.appId, mode: 'live' } })).id;
    expect((await ok('query($id: ID!) { app(id: $id) { live { appKey } } }', { id: app.appId }, agent)).app.live.appKey).toBe(
      app.live.app_key,
    );
    const forbidden = { code: 'role_forbids', status: 403 };
    expect(
      await refused('mutation($m: ID!) { updateAppSettings(appModeId: $m, input: { helpOn: true }) { id } }', { m: live }, agent),
    ).toMatchObject(forbidden);
    expect(await refused('mutation($m: ID!) { createServerKey(appModeId: $m) { id } }', { m: live }, agent)).toMatchObject(forbidden);
    expect(
      await refused('mutation($w: ID!) { createApp(workspaceId: $w, name: "Nope") { app { id } } }', { w: app.workspaceId }, agent),
    ).toMatchObject(forbidden);
    expect(await refused(INVITE, { w: app.workspaceId, e: 'x@example.com', r: 'owner' }, agent)).toMatchObject(forbidden);
    expect(await refused(INVITATIONS, { w: app.workspaceId }, agent)).toMatchObject(forbidden);
    const { id } = await invite(newEmail('pending'));
    expect(await refused('mutation($id: ID!) { cancelInvitation(id: $id) }', { id }, agent)).toMatchObject(forbidden);
  });

  it('adds an existing staff user once they accept, changes roles, and keeps the last owner', async () => {
    const other = await seedApp(t.svc, 'Neighbour');
    const { id } = await invite(other.ownerEmail, 'admin');
    const otherToken = await signIn(other.ownerEmail, other.ownerPassword);
    expect((await ok(ACCEPT, { id }, otherToken)).acceptInvitation.role).toBe('admin');
    const staffUserId = (await ok('{ viewer { id } }', {}, otherToken)).viewer.id;
    // The new admin sees this workspace now; the owner still cannot see the admin's own workspace.
    const members = nodes(
      (
        await ok(
          'query($w: ID!) { members(workspaceId: $w) { edges { node { role staffUser { email memberships { edges { node { workspace { id } } } } } } } } }',
          { w: app.workspaceId },
        )
      ).members,
    );
    expect(members).toContainEqual({
      role: 'admin',
      staffUser: { email: other.ownerEmail, memberships: { edges: [{ node: { workspace: { id: app.workspaceId } } }] } },
    });

    const me = (await ok('{ viewer { id } }')).viewer.id;
    expect(
      await refused('mutation($w: ID!, $u: ID!) { removeMember(workspaceId: $w, staffUserId: $u) }', { w: app.workspaceId, u: me }),
    ).toMatchObject({ code: 'last_owner', status: 409 });
    expect(
      await refused('mutation($w: ID!, $u: ID!) { setMemberRole(workspaceId: $w, staffUserId: $u, role: admin) { role } }', {
        w: app.workspaceId,
        u: me,
      }),
    ).toMatchObject({ code: 'last_owner' });

    await ok('mutation($w: ID!, $u: ID!) { setMemberRole(workspaceId: $w, staffUserId: $u, role: owner) { role } }', {
      w: app.workspaceId,
      u: staffUserId,
    });
    expect(
      (await ok('mutation($w: ID!, $u: ID!) { removeMember(workspaceId: $w, staffUserId: $u) }', { w: app.workspaceId, u: staffUserId }))
        .removeMember,
    ).toBe(true);
    expect(await refused(INVITE, { w: app.workspaceId, e: agentEmail, r: 'agent' })).toMatchObject({ code: 'already_member', status: 409 });
  });
});

describe('signing in', () => {
  const SIGN_IN = 'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { token } }';
  /** The code of a sign-in from an address: 'ok', or the refusal's (with its retryAfter). */
  async function signInFrom(address: string, email: string, password: string): Promise<{ code: string; retryAfter?: number }> {
    const r = await call(t.url, 'POST', '/graphql', {
      json: { query: SIGN_IN, variables: { e: email, p: password } },
      headers: { 'X-Forwarded-For': address },
    });
    expect(r.status).toBe(200);
    const error = (r.json.errors as GqlError[] | undefined)?.[0];
    if (!error) return { code: r.json.data.signIn.token.startsWith('crm_st_') ? 'ok' : 'no token' };
    return { code: error.extensions.code, retryAfter: (error.extensions as { retryAfter?: number }).retryAfter };
  }
  const tries = (address: string, email: string, n: number) =>
    Array.from({ length: n }, (_, i) => signInFrom(address, email, `wrong-${i}`));

  it('masks what is no refusal: no internals reach the client', async () => {
    // An unexpected failure deep in the database layer: PostgreSQL refuses every invitation for a moment
    // (a constraint no rule of the service knows of), so the write fails where no refusal was foreseen.
    await t.svc.pool.query('ALTER TABLE invitation ADD CONSTRAINT crm_test_refuse_all CHECK (false) NOT VALID');
    const r = await call(t.url, 'POST', '/graphql', {
      headers: { Authorization: `Bearer ${owner}` },
      json: {
        query: 'mutation($w: ID!) { inviteMember(workspaceId: $w, email: "masked@example.com", role: agent) { id } }',
        variables: { w: app.workspaceId },
      },
    }).finally(() => t.svc.pool.query('ALTER TABLE invitation DROP CONSTRAINT crm_test_refuse_all'));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.json.errors).toEqual([
      {
        message: 'Something went wrong on our side; try again later.',
        locations: expect.any(Array),
        path: ['inviteMember'],
        extensions: { code: 'internal', status: 500 },
      },
    ]);
    expect(r.text).not.toMatch(/0x00|prisma|postgres|stack/i);
  });

  it(`refuses the ${SIGN_IN_PER_EMAIL_AND_ADDRESS + 1}th try at one email from one address, yet its owner signs in from another`, async () => {
    const email = await cheapPerson('target');
    const guesses = await Promise.all(tries('203.0.113.1', email, SIGN_IN_PER_EMAIL_AND_ADDRESS));
    expect(guesses.map((g) => g.code)).toEqual(Array(SIGN_IN_PER_EMAIL_AND_ADDRESS).fill('unauthorized'));
    const limited = await signInFrom('203.0.113.1', email, PASSWORD);
    expect(limited.code).toBe('rate_limited');
    expect(limited.retryAfter).toBeGreaterThan(0);

    expect(await signInFrom('198.51.100.7', email, PASSWORD)).toEqual({ code: 'ok' });
    // The guesser's address is not shut for other emails, nor for this one a minute later.
    expect((await signInFrom('203.0.113.1', app.ownerEmail, 'wrong')).code).toBe('unauthorized');
    t.clock.advance(61_000);
    expect(await signInFrom('203.0.113.1', email, PASSWORD)).toEqual({ code: 'ok' });
  });

  it(`slows down, but still answers, tries at one email past ${SIGN_IN_PER_EMAIL} a minute from everywhere`, async () => {
    const email = await cheapPerson('popular');
    const addresses = Array.from({ length: SIGN_IN_PER_EMAIL / SIGN_IN_PER_EMAIL_AND_ADDRESS }, (_, i) => `192.0.2.${i + 1}`);
    const guesses = await Promise.all(addresses.map(async (a) => Promise.all(tries(a, email, SIGN_IN_PER_EMAIL_AND_ADDRESS))));
    expect(new Set(guesses.flat().map((g) => g.code))).toEqual(new Set(['unauthorized']));

    // A wrong and a right password past the ceiling, side by side (each waits on its own).
    const timed = async (address: string, password: string) => {
      const started = Date.now();
      const answer = await signInFrom(address, email, password);
      return { answer, took: Date.now() - started };
    };
    const [wrong, right] = await Promise.all([timed('192.0.2.200', 'wrong'), timed('192.0.2.201', PASSWORD)]);
    expect(wrong.answer.code).toBe('unauthorized');
    expect(right.answer).toEqual({ code: 'ok' });
    // Loosely: a wait was added, never how long the whole took.
    expect(wrong.took).toBeGreaterThanOrEqual(SIGN_IN_SLOW_MS - 50);
    expect(right.took).toBeGreaterThanOrEqual(SIGN_IN_SLOW_MS - 50);
  }, 120_000); // a hundred real password checks (cheap ones: cheapPerson), more on a busy machine
});
