import { sendMail } from '../mail/send.js';
import type { Ctx } from '../context.js';
import { SWITCH_OFF_AFTER_MS, SWITCH_OFF_FAILURES } from './schedule.js';

// The workspace's owners hear that an endpoint was switched off, once per switch-off (a process
// step tried again sends nothing more).

export async function mailSwitchOff(ctx: Ctx, endpointId: string, at: string): Promise<void> {
  const endpoint = await ctx.db.webhookEndpoint.findUnique({ where: { id: endpointId }, include: { appMode: { include: { app: true } } } });
  if (!endpoint) return;
  const { app } = endpoint.appMode;
  const owners = await ctx.db.membership.findMany({
    where: { workspaceId: app.workspaceId, role: 'owner' },
    include: { staffUser: { select: { email: true } } },
  });
  if (!owners.length) return;
  const hours = SWITCH_OFF_AFTER_MS / 3_600_000;
  await sendMail(ctx, {
    to: owners.map((o) => o.staffUser.email),
    subject: `Webhook endpoint switched off: ${app.name} (${endpoint.appMode.mode})`,
    text: [
      `Every post to ${endpoint.url} failed for ${hours} hours (${endpoint.failures} posts, at least ${SWITCH_OFF_FAILURES}), so it was switched off at ${at}.`,
      '',
      'Nothing is posted to it until it is switched on again; its log shows the last 50 tries. Switching it on starts the failure count afresh.',
    ].join('\n'),
    workspaceId: app.workspaceId,
    kind: 'webhook.switched_off',
    idempotencyKey: `webhook.switched_off:${endpointId}:${at}`,
  });
}
