import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Conversation } from '../../src/generated/prisma/client.js';
import { staffAuthor } from '../../src/domain/conversations/authors.js';
import { closeConversation } from '../../src/domain/conversations/close.js';
import { addPart } from '../../src/domain/conversations/parts.js';
import { transaction } from '../../src/domain/context.js';
import { call, userToken } from './http.js';
import type { StaffApp } from './factories.js';
import type { TestServer } from './server.js';

// The messenger as a signed-in user's app calls it, and the team's side through the domain (what
// the staff inbox will call), for the conversation tests.

export interface GuestMode {
  app_key: string;
  identity_secret: string;
}

/** One user of one app-mode: `send(method, path, json?, headers?)` over real HTTP. */
export function guestOf(t: TestServer, mode: GuestMode, sub: string, opts: { exp?: string } = {}) {
  let token: string | undefined;
  const headers = async (extra: Record<string, string> = {}) => ({
    'X-CRM-App-Key': mode.app_key,
    Authorization: `Bearer ${(token ??= await userToken(mode.identity_secret, { sub, ...(opts.exp ? { exp: opts.exp } : {}) }))}`,
    ...extra,
  });
  const send = async (method: string, path: string, json?: unknown, extra?: Record<string, string>) =>
    call(t.url, method, path, { headers: await headers(extra), json });
  return {
    sub,
    headers,
    send,
    start: (body: Record<string, unknown> = { text: 'Hello' }, key?: string) =>
      send('POST', '/guest/v1/conversations', body, key ? { 'Idempotency-Key': key } : {}),
    message: (id: string, body: Record<string, unknown>, key?: string) =>
      send('POST', `/guest/v1/conversations/${id}/messages`, body, key ? { 'Idempotency-Key': key } : {}),
    get: (id: string) => send('GET', `/guest/v1/conversations/${id}`),
    list: (query = '') => send('GET', `/guest/v1/conversations${query}`),
    read: (id: string, seq: number) => send('POST', `/guest/v1/conversations/${id}/read`, { seq }),
    rate: (id: string, body: Record<string, unknown>) => send('POST', `/guest/v1/conversations/${id}/rating`, body),
    wait: (id: string, after: number) => send('GET', `/guest/v1/conversations/${id}/wait?after=${after}`),
  };
}

export type Guest = ReturnType<typeof guestOf>;

export const teammate = { id: randomUUID(), name: 'Anna from Support' };

const conversation = (t: TestServer, id: string): Promise<Conversation> => t.svc.db.conversation.findUniqueOrThrow({ where: { id } });

/** A teammate's message or note in the conversation, as the staff inbox adds it. */
export async function teamPart(t: TestServer, id: string, kind: 'message' | 'note', text: string) {
  const c = await conversation(t, id);
  return transaction(t.ctx, (tx) => addPart(tx, c, { kind, author: staffAuthor(teammate), text }));
}

/** A teammate closes the conversation, asking for a rating or not. */
export async function teamCloses(t: TestServer, id: string, askRating: boolean) {
  return closeConversation(t.ctx, await conversation(t, id), staffAuthor(teammate), { askRating });
}

/**
 * Customers' websites for the browser tests: `website(user, boot?)` serves the snippet (with `boot`'s
 * extra options) and the site's own route giving the signed-in user's token (for an hour, on the
 * service's clock); `tokensGiven` counts the tokens each user was given; `close()` ends them all.
 */
export function websitesOf(t: () => TestServer, app: () => StaffApp) {
  const sites: http.Server[] = [];
  const tokensGiven = new Map<string, number>();
  async function website(user: string, boot = ''): Promise<string> {
    const site = http.createServer(async (req, res) => {
      if (req.url === '/my-token') {
        tokensGiven.set(user, (tokensGiven.get(user) ?? 0) + 1);
        const now = Math.floor(t().clock.now().getTime() / 1000);
        const token = await userToken(app().live.identity_secret, { sub: user, iat: now, exp: now + 3600 });
        return res.writeHead(200, { 'Content-Type': 'text/plain' }).end(token);
      }
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Acme shop</title>
<style>body { font: 16px serif; margin: 2rem; } button { all: unset; }</style></head>
<body><main><h1>Acme shop</h1><p>Everything for your garden.</p></main>
<script>window.Messenger = { q: [['boot', [{ token: () => fetch('/my-token').then((r) => r.text())${boot} }]]] };</script>
<script src="${t().url}/messenger.js" data-app-key="${app().live.app_key}" async></script>
</body></html>`);
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    sites.push(site);
    return `http://localhost:${(site.address() as { port: number }).port}`;
  }
  return { website, tokensGiven, close: () => sites.forEach((site) => site.close()) };
}
