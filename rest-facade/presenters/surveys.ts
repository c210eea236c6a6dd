import { Readable } from 'node:stream';
import type Koa from 'koa';
import type { Logger } from '../../src/lib/logger.js';
import type { Answer } from '../http/route.js';

// A survey's responses as a CSV download, written while it is read (src/domain/inapp/survey-export.ts).

/** The CSV as it is answered: each page of responses written as it is read, cut short on a failure mid-way. */
export function surveyCsvAnswer(ctx: Koa.Context, fileName: string, chunks: AsyncGenerator<string>): Answer {
  const body = Readable.from(chunks, { highWaterMark: 1 });
  // The status is sent by then: a read failing mid-way ends the connection, so a cut file is not taken for a whole one.
  body.once('error', (err) => {
    (ctx.state as { log?: Logger }).log?.warn({ err: err.message }, 'survey export cut short');
    ctx.res.destroy();
  });
  return {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8; header=present',
      'Content-Disposition': `attachment; filename="${fileName}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
    body,
  };
}
