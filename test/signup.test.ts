import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.js';
import { createStaffUser } from '../src/domain/staff/staff-users.js';
import { call } from './support/http.js';
import { staffApi } from './support/graphql.js';
import { startTestServer, testConfig, type TestServer } from './support/server.js';
import { smtpServer, type ReceivedMail } from './support/smtp.js';

// Public sign-up, black-box: a real server, a real SMTP server the confirmation mail is read from,
// and a stand-in of the anti-bot verifier (Cloudflare Turnstile's siteverify, as the service
// posts to it). Each test signs up from a client address of its own (X-Forwarded-For, the server
// trusting it), so the per-client limit of one test does not reach another.

const HOME = 'https://www.example.com';
const BOT_SECRET = 'bot-check-secret';
const GOOD_TOKEN = 'good-token';
const PASSWORD = 'correct horse battery';

/** The verifier stand-in: `mode` says how it answers; each post it took is kept. */
async function botVerifier() {
  const state = { mode: 'up' as 'up' | 'reset' | 'error', posts: [] as URLSearchParams[] };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      state.posts.push(form);
      if (state.mode === 'reset') return req.socket.destroy();
      if (state.mode === 'error') return res.writeHead(502).end('bad gateway');
      const success = form.get('secret') === BOT_SECRET && form.get('response') === GOOD_TOKEN;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(success ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
  return { state, url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let t: TestServer;
let smtp: Awaited<ReturnType<typeof smtpServer>>;
let bot: Awaited<ReturnType<typeof botVerifier>>;
let clients = 0;
const staff = staffApi(
  () => t.url,
  () => '',
);

beforeAll(async () => {
  smtp = await smtpServer();
  bot = await botVerifier();
  t = await startTestServer({
    config: testConfig({
      smtpUrl: smtp.url,
      trustProxy: true,
      signup: { homeOrigin: HOME, botCheck: { url: bot.url, secret: BOT_SECRET } },
    }),
  });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  await bot?.close();
});

/** A client address of the test's own. */
const newClient = () => `198.51.100.${++clients}`;
const unique = (name: string) => `${name}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.org`;

const body = (email: string, more: Record<string, unknown> = {}) => ({
  app_name: 'Acme App',
  email,
  password: PASSWORD,
  workspace_name: 'Acme',
  bot_check_token: GOOD_TOKEN,
  ...more,
});

const signUp = (json: unknown, client: string, base = t.url) =>
  call(base, 'POST', '/public/v1/signup', { json, headers: { 'X-Forwarded-For': client } });

/** Runs the mail steps due, then takes the mails the SMTP server received for the address. */
async function mailsTo(email: string): Promise<ReceivedMail[]> {
  await t.engine.runDue();
  const mine = smtp.received.filter((m) => m.envelope.to.includes(email));
  for (const m of mine) smtp.received.splice(smtp.received.indexOf(m), 1);
  return mine;
}

const linkIn = (mail: ReceivedMail) => /https?:\/\/\S+\/signup\/confirm\/[A-Za-z0-9_-]{43}/.exec(mail.mail.text ?? '')?.[0];
const pathOf = (link: string) => new URL(link).pathname;
const page = (path: string, method = 'GET', client = newClient()) =>
  fetch(t.url + path, { method, redirect: 'manual', headers: { 'X-Forwarded-For': client } });

const accepted = (email: string) => ({ email, next: 'confirm_email', expires_in_seconds: 86_400, mail_window_seconds: 3_600 });

describe('the settings', () => {
  it('read an origin and the bot check together, and stop the start on anything else', () => {
    expect(readConfig({}).signup).toBeUndefined();
    expect(readConfig({ SIGNUP_HOME_ORIGIN: 'https://www.example.com' }).signup).toEqual({
      homeOrigin: 'https://www.example.com',
      botCheck: undefined,
    });
    expect(
      readConfig({
        SIGNUP_HOME_ORIGIN: 'https://www.example.com',
        SIGNUP_BOT_CHECK_URL: 'https://verify.example.com/siteverify',
        SIGNUP_BOT_CHECK_SECRET: 's',
      }).signup,
    ).toEqual({ homeOrigin: 'https://www.example.com', botCheck: { url: 'https://verify.example.com/siteverify', secret: 's' } });
    for (const origin of ['https://www.example.com/', 'https://www.example.com/signup', 'www.example.com', 'ftp://example.com'])
      expect(() => readConfig({ SIGNUP_HOME_ORIGIN: origin }), origin).toThrow(/SIGNUP_HOME_ORIGIN must be an origin/);
    expect(() => readConfig({ SIGNUP_HOME_ORIGIN: 'https://www.example.com', SIGNUP_BOT_CHECK_URL: 'https://verify.example.com' })).toThrow(
      /SIGNUP_BOT_CHECK_SECRET is missing/,
    );
    expect(() => readConfig({ SIGNUP_BOT_CHECK_SECRET: 's', SIGNUP_BOT_CHECK_URL: 'https://verify.example.com' })).toThrow(
      /need SIGNUP_HOME_ORIGIN/,
    );
    const shown = (() => {
      try {
        readConfig({ SIGNUP_HOME_ORIGIN: 'https://www.example.com', SIGNUP_BOT_CHECK_URL: 'nope', SIGNUP_BOT_CHECK_SECRET: 'very-secret' });
      } catch (err) {
        return (err as Error).message;
      }
    })();
    expect(shown).toMatch(/SIGNUP_BOT_CHECK_URL must be/);
    expect(shown).not.toContain('very-secret');
  });
});

describe('sign-up not set up', () => {
  it('is 503 on a deployment without SIGNUP_HOME_ORIGIN, and mails nothing', async () => {
    // On the same database (no sign-up has been made on it yet): a deployment's second server, set up without sign-up.
    const off = await startTestServer({ dbUrl: t.dbUrl, config: testConfig({ smtpUrl: smtp.url }) });
    try {
      const email = unique('off');
      const r = await signUp(body(email), newClient(), off.url);
      expect(r.status).toBe(503);
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(r.json.code).toBe('not_set_up');
      await off.engine.runDue();
      expect(smtp.received.filter((m) => m.envelope.to.includes(email))).toEqual([]);
    } finally {
      await off.close();
    }
  });
});

describe('bad input', () => {
  it.each([
    ['email', { email: 'not-an-address' }, 'email'],
    ['email, missing', { email: undefined }, 'email'],
    ['password, too short', { password: 'short' }, 'password'],
    ['password, not a string', { password: 12345678901 }, 'password'],
    ['app_name, blank', { app_name: '   ' }, 'app_name'],
    ['app_name, too long', { app_name: 'a'.repeat(101) }, 'app_name'],
    ['workspace_name, empty', { workspace_name: '' }, 'workspace_name'],
    ['workspace_name, too long', { workspace_name: 'w'.repeat(101) }, 'workspace_name'],
  ])('is 400 naming the field: %s', async (_name, change, field) => {
    const r = await signUp(body(unique('bad'), change), newClient());
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('invalid_request');
    expect(r.json.errors.map((e: { field: string }) => e.field)).toEqual([field]);
  });
});

describe('a sign-up', () => {
  it('is confirmed end to end through the mail: the page asks first, the button makes the workspace, the app and the owner, who signs in at once', async () => {
    const email = unique('new');
    const client = newClient();
    const r = await signUp(body(` ${email.toUpperCase()} `, { workspace_name: 'Acme Works', app_name: 'Acme Shop' }), client);
    expect(r.status).toBe(202);
    expect(r.json).toEqual(accepted(email));
    // The bot check was asked with the deployment's secret, the page's token and the client's address.
    const post = bot.state.posts.at(-1)!;
    expect({ secret: post.get('secret'), response: post.get('response'), remoteip: post.get('remoteip') }).toEqual({
      secret: BOT_SECRET,
      response: GOOD_TOKEN,
      remoteip: client,
    });

    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.mail.subject).toBe('Confirm your sign-up');
    const link = linkIn(mails[0]!);
    expect(link, mails[0]!.mail.text).toBeDefined();
    expect(link!.startsWith(t.svc.config.baseUrl)).toBe(true);
    // The password is kept only hashed.
    const kept = await t.svc.db.pendingSignup.findUniqueOrThrow({ where: { email } });
    expect(kept.passwordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(kept)).not.toContain(PASSWORD);

    // Following the link (as a mail scanner would) shows the page and makes nothing.
    const shown = await page(pathOf(link!));
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(html).toContain('Acme Works');
    expect(html).toContain(`<form method="post" action="${pathOf(link!)}">`);
    expect(await page(pathOf(link!), 'HEAD').then((x) => x.status)).toBe(200);
    expect(await t.svc.db.staffUser.count({ where: { email } })).toBe(0);
    expect(
      await staff.refused(
        'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { token } }',
        { e: email, p: PASSWORD },
        '',
      ),
    ).toMatchObject({ code: 'unauthorized' });

    // The button: made, and on to the staff console.
    const confirmed = await page(pathOf(link!), 'POST');
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe('/console/');

    const token = await staff.signIn(email, PASSWORD);
    const { viewer } = await staff.ok(
      `{ viewer { email memberships { edges { node { role workspace { name apps { edges { node { name live { mode appKey } test { mode appKey } } } } } } } } } }`,
      {},
      token,
    );
    expect(viewer.email).toBe(email);
    expect(viewer.memberships.edges).toHaveLength(1);
    const membership = viewer.memberships.edges[0].node;
    expect(membership.role).toBe('owner');
    expect(membership.workspace.name).toBe('Acme Works');
    const apps = membership.workspace.apps.edges.map((e: any) => e.node);
    expect(apps).toHaveLength(1);
    expect(apps[0]).toMatchObject({ name: 'Acme Shop', live: { mode: 'live' }, test: { mode: 'test' } });
    expect(apps[0].live.appKey).toMatch(/^app_/);
    expect(apps[0].test.appKey).toMatch(/^app_test_/);
    // Once confirmed, the password hash is not kept beside the account's own.
    expect((await t.svc.db.pendingSignup.findUniqueOrThrow({ where: { email } })).passwordHash).toBeNull();

    // Confirming again: a clear page, nothing made twice.
    const again = await page(pathOf(link!), 'POST');
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('confirmed already');
    expect(await t.svc.db.membership.count({ where: { staffUser: { email } } })).toBe(1);
  });

  it('answers a taken email exactly as a new one (status, body, headers), and mails it a note rather than a link', async () => {
    const taken = unique('taken');
    await createStaffUser(t.ctx, { email: taken, password: 'an older password' });
    const fresh = unique('fresh');
    const a = await signUp(body(taken), newClient());
    const b = await signUp(body(fresh), newClient());
    expect(a.status).toBe(202);
    expect(b.status).toBe(a.status);
    expect(a.json).toEqual(accepted(taken));
    expect(b.json).toEqual(accepted(fresh));
    const headerNames = (h: Headers) => [...h.keys()].filter((k) => !['date', 'x-request-id', 'content-length'].includes(k)).sort();
    expect(headerNames(a.headers)).toEqual(headerNames(b.headers));
    expect(a.text.length - taken.length).toBe(b.text.length - fresh.length);

    const [note] = await mailsTo(taken);
    expect(note!.mail.subject).toBe('You already have an account');
    expect(note!.mail.text).toContain('already has an account');
    expect(linkIn(note!)).toBeUndefined();
    const [confirm] = await mailsTo(fresh);
    expect(confirm!.mail.subject).toBe('Confirm your sign-up');
    expect(linkIn(confirm!)).toBeDefined();
    // Nothing of the existing account changed: its old password still signs in, the new one does not.
    await staff.signIn(taken, 'an older password');
    expect(await t.svc.db.pendingSignup.findUniqueOrThrow({ where: { email: taken } }).then((p) => p.passwordHash)).toBeNull();
  });

  it('mails an address at most once an hour: sign-ups within the window change nothing; after it, a new link replaces the old', async () => {
    const email = unique('window');
    const client = newClient();
    for (const workspace_name of ['First', 'Second', 'Third']) {
      const r = await signUp(body(email, { workspace_name }), client);
      expect(r.status).toBe(202);
      expect(r.json).toEqual(accepted(email));
    }
    const first = await mailsTo(email);
    expect(first).toHaveLength(1);
    const firstLink = pathOf(linkIn(first[0]!)!);
    // The first sign-up's details stand: no one can swap those behind a link already mailed.
    expect(await (await page(firstLink)).text()).toContain('First');

    t.clock.advance(59 * 60_000);
    expect((await signUp(body(email, { workspace_name: 'Fourth' }), client)).status).toBe(202);
    expect(await mailsTo(email)).toHaveLength(0);

    t.clock.advance(2 * 60_000);
    expect((await signUp(body(email, { workspace_name: 'Fifth' }), client)).status).toBe(202);
    const second = await mailsTo(email);
    expect(second).toHaveLength(1);
    const secondLink = pathOf(linkIn(second[0]!)!);
    expect(secondLink).not.toBe(firstLink);
    expect(await (await page(secondLink)).text()).toContain('Fifth');
    // The replaced link opens an expired page and makes nothing.
    const old = await page(firstLink, 'POST');
    expect(old.status).toBe(410);
    expect(await old.text()).toContain('expired');
    expect(await t.svc.db.staffUser.count({ where: { email } })).toBe(0);
  });

  it('expires after a day: the link then makes nothing, and the sweep removes it', async () => {
    const email = unique('expiry');
    expect((await signUp(body(email), newClient())).status).toBe(202);
    const link = pathOf(linkIn((await mailsTo(email))[0]!)!);
    t.clock.advance(24 * 3_600_000 + 1_000);
    const late = await page(link, 'POST');
    expect(late.status).toBe(410);
    expect(await t.svc.db.staffUser.count({ where: { email } })).toBe(0);
    const { sweepPendingSignups } = await import('../src/domain/signup/signup.js');
    expect(await sweepPendingSignups(t.ctx)).toBeGreaterThan(0);
    expect(await t.svc.db.pendingSignup.count({ where: { email } })).toBe(0);
    expect((await page(link)).status).toBe(410);
    // A link altered by a character opens nothing.
    const altered = link.slice(0, -1) + (link.endsWith('A') ? 'B' : 'A');
    expect((await page(altered)).status).toBe(404);
  });

  it('makes one workspace under 20 confirms at once', async () => {
    const email = unique('race');
    expect((await signUp(body(email, { workspace_name: 'Raced' }), newClient())).status).toBe(202);
    const link = pathOf(linkIn((await mailsTo(email))[0]!)!);
    const client = newClient();
    const answers = await Promise.all(Array.from({ length: 20 }, () => page(link, 'POST', client)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 303)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(19);
    const workspaces = await t.svc.db.membership.findMany({
      where: { staffUser: { email } },
      include: { workspace: { include: { apps: { include: { modes: true } } } } },
    });
    expect(workspaces).toHaveLength(1);
    expect(workspaces[0]!.workspace.apps).toHaveLength(1);
    expect(workspaces[0]!.workspace.apps[0]!.modes.map((m) => m.mode).sort()).toEqual(['live', 'test']);
    expect(await t.svc.db.workspace.count({ where: { name: 'Raced' } })).toBe(1);
  });
});

describe('the anti-bot check', () => {
  it('refuses a wrong or missing token with 403, and mails nothing', async () => {
    const email = unique('bot');
    for (const token of ['wrong-token', undefined]) {
      const r = await signUp(body(email, { bot_check_token: token }), newClient());
      expect(r.status).toBe(403);
      expect(r.json.code).toBe('bot_check_failed');
    }
    expect(await mailsTo(email)).toHaveLength(0);
    expect(await t.svc.db.pendingSignup.count({ where: { email } })).toBe(0);
  });

  it('fails closed with 503 when the verifier cannot be reached or answers an error, never letting the sign-up through', async () => {
    const email = unique('botdown');
    try {
      for (const mode of ['reset', 'error'] as const) {
        bot.state.mode = mode;
        const r = await signUp(body(email), newClient());
        expect(r.status).toBe(503);
        expect(r.json.code).toBe('bot_check_unavailable');
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    } finally {
      bot.state.mode = 'up';
    }
    expect(await mailsTo(email)).toHaveLength(0);
    expect(await t.svc.db.pendingSignup.count({ where: { email } })).toBe(0);
    // Back up, the same sign-up goes through.
    expect((await signUp(body(email), newClient())).status).toBe(202);
  });
});

describe('rate limits', () => {
  it('refuses the sixth sign-up a minute for one address with 429 and Retry-After, whatever the client', async () => {
    const email = unique('limit');
    for (let i = 0; i < 5; i++) expect((await signUp(body(email), newClient())).status).toBe(202);
    const r = await signUp(body(email), newClient());
    expect(r.status).toBe(429);
    expect(r.json.code).toBe('rate_limited');
    const wait = Number(r.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(61);
    t.clock.advance(62_000);
    expect((await signUp(body(email), newClient())).status).toBe(202);
  });

  it('refuses the 21st sign-up a minute from one client with 429 and Retry-After', async () => {
    const client = newClient();
    // The twenty at once (the limit is exact under 200 a minute, side by side too), then the 21st.
    const first = await Promise.all(Array.from({ length: 20 }, () => signUp(body(unique('client')), client)));
    expect(first.map((r) => r.status)).toEqual(Array(20).fill(202));
    const r = await signUp(body(unique('client')), client);
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client is not held back by it.
    expect((await signUp(body(unique('client')), newClient())).status).toBe(202);
  });
});
