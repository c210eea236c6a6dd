import type { OutboxConsumer } from '../../src/db/outbox-dispatcher.js';
import { systemContext, type Services } from '../../src/domain/context.js';
import { deliveriesFor } from '../../src/domain/webhooks/enqueue.js';
import { ERASE_REQUESTED } from '../../src/domain/contacts/erasure.js';
import { SNOOZED } from '../../src/domain/inbox/snooze.js';
import { PUSH_REQUESTED } from '../../src/domain/push/send.js';
import type { ProcessStarter } from '../engine/types.js';
import type { Processes } from './registry.js';

// Processes are started from the outbox, not by the request that asked for them: the row commits
// with the change, so a crash between the commit and the start cannot strand the work. A start is
// idempotent by run id, so a row handed on twice starts one run.

export const PROCESS_STARTS = 'process-starts';

export const startProcesses = (engine: ProcessStarter<Processes>, svc: Services): OutboxConsumer => {
  const ctx = systemContext(svc, 'process-starts');
  return async (rows) => {
    for (const row of rows) {
      if (row.topic === ERASE_REQUESTED) {
        const requestId = String(row.data.request_id);
        await engine.start('erase', requestId, { requestId });
      }
      if (row.topic === SNOOZED) {
        const {
          run_id: runId,
          conversation_id: conversationId,
          until,
        } = row.data as { run_id: string; conversation_id: string; until: string };
        await engine.start('conversation-wake', runId, { appModeId: row.appModeId, conversationId, until });
      }
      if (row.topic === PUSH_REQUESTED) {
        const sendId = String(row.data.send_id);
        await engine.start('push-send', sendId, { sendId });
      }
    }
    // Webhook topics: one delivery per endpoint that asks for one, each its own process; the rows' endpoints and contacts are read at once.
    for (const deliveryId of await deliveriesFor(ctx, rows)) await engine.start('webhook', deliveryId, { deliveryId });
  };
};
