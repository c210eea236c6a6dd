import { Readable } from 'node:stream';
import type Koa from 'koa';
import { EXPORT_PAGE, type ExportContact as KeptExport } from '../../src/domain/personal-data/registry.js';
import { jsonChunks } from '../../src/lib/json-stream.js';
import type { Logger } from '../../src/lib/logger.js';
import type { Answer } from '../http/route.js';
import type { z } from 'zod';
import type { EraseRequest } from '../../src/generated/prisma/client.js';
import type { EraseAccepted } from '../server/contacts.schemas.js';

// A person's erasure as its request answers it (queued, or already queued or done), and their export as
// it is written (for the server API's route and a team member's download alike).

export const presentEraseRequest = (externalId: string, request: EraseRequest): z.input<typeof EraseAccepted> => ({
  external_id: externalId,
  state: request.state as z.input<typeof EraseAccepted>['state'],
  requested_at: request.requestedAt.toISOString(),
  blocked_until: request.blockedUntil.toISOString(),
});

/** The export's description in the API reference: how it is written and what a cut one looks like. */
export const EXPORT_WRITTEN = `written while it is read (chunked), the long lists (conversations and their parts, collected values, tickets, notices, receipts, test sends, article ratings, consent and preference history) ${EXPORT_PAGE} rows at a time, so no export is built whole in memory. A failure mid-way cuts the answer short (the connection closes before the JSON ends): read it to its end before trusting it.`;

/** An export as it is answered: written while it is read (the long lists a page at a time), cut short on a failure mid-way. */
export function exportAnswer(ctx: Koa.Context, kept: KeptExport, headers: Record<string, string> = {}): Answer {
  const body = Readable.from(jsonChunks(kept), { highWaterMark: 1 });
  // The status is sent by then: a read failing mid-way ends the connection, so the client never
  // takes a cut export for a whole one.
  body.once('error', (err) => {
    (ctx.state as { log?: Logger }).log?.warn({ err: err.message }, 'export cut short');
    ctx.res.destroy();
  });
  return { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers }, body };
}
