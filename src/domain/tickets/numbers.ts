import type { TxCtx } from '../context.js';
import { rows, sql } from '../../db/sql.js';

// The short number of a ticket (#12), counting up from 1 per app-mode and never given twice (an
// erased ticket leaves its number unused). The counter row's lock hands numbers out in turn: hold
// it as briefly as possible, so take a number last, just before the ticket is written.

export async function nextTicketNumber(tx: TxCtx, appModeId: string): Promise<number> {
  const [row] = await rows<{ n: number }>(
    tx,
    sql`
    INSERT INTO ticket_counter (app_mode_id, last_number) VALUES (${appModeId}, 1)
    ON CONFLICT (app_mode_id) DO UPDATE SET last_number = ticket_counter.last_number + 1
    RETURNING last_number AS n`,
  );
  return row!.n;
}
